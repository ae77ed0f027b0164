package vet

import (
	"slices"
	"testing"
)

// TestSets: the default set leaves out the experimental analyzers, All
// holds every analyzer once, and Lookup finds each by name.
func TestSets(t *testing.T) {
	if len(All) != len(Analyzers)+len(Experimental) {
		t.Fatalf("All has %d analyzers, want %d + %d", len(All), len(Analyzers), len(Experimental))
	}
	for _, a := range Experimental {
		if slices.Contains(Analyzers, a) {
			t.Errorf("experimental %s is in the default set", a.Name)
		}
	}
	for _, a := range All {
		if Lookup(a.Name) != a {
			t.Errorf("Lookup(%q) did not find it", a.Name)
		}
	}
	if Lookup("timedsetup") == nil || Lookup("nope") != nil {
		t.Error("Lookup of timedsetup or of an unknown name is wrong")
	}
}
