package vet

import "testing"

// TestLookup finds each analyzer by its name and nothing by another.
func TestLookup(t *testing.T) {
	for _, a := range Analyzers {
		if Lookup(a.Name) != a {
			t.Errorf("Lookup(%q) did not find it", a.Name)
		}
	}
	if len(Analyzers) != 5 {
		t.Errorf("%d analyzers, want 5", len(Analyzers))
	}
	for _, name := range []string{"nope", "timedsetup", ""} {
		if Lookup(name) != nil {
			t.Errorf("Lookup(%q) found an analyzer", name)
		}
	}
}
