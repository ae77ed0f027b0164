package run

import (
	"slices"
	"testing"
)

func TestCheckPattern(t *testing.T) {
	for _, c := range []struct {
		pattern string
		ok      bool
	}{
		{"", true},
		{".", true},
		{"Parse/large$", true},
		{"^BenchmarkSum64$/^16B$", true},
		{"(a/b)", true},  // one level: the slash is inside parentheses
		{"[/]x", true},   // one level: the slash is inside brackets
		{"(", false},     // go test: missing closing )
		{"a/(", false},   // the second level
		{"x|[", false},   // an alternative
		{"a/b)", false},  // the second level is "b)"
		{`a\/(b`, false}, // an escaped slash does not split
	} {
		if err := CheckPattern(c.pattern); (err == nil) != c.ok {
			t.Errorf("CheckPattern(%q) = %v, want ok %v", c.pattern, err, c.ok)
		}
	}
	if got, want := splitPattern("A/(b|c)/[x/]|D"), []string{"A", "(b|c)", "[x/]", "D"}; !slices.Equal(got, want) {
		t.Errorf("splitPattern = %q, want %q", got, want)
	}
}
