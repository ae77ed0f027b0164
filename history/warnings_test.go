package history

import (
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
)

// TestWarnings: a series across two machines says so, naming what differs;
// one machine says nothing.
func TestWarnings(t *testing.T) {
	a := &bench.Run{Label: "a", Platform: bench.Platform{Host: "ci-1", CPU: "Xeon"}}
	b := &bench.Run{Label: "b", Platform: bench.Platform{Host: "ci-1", CPU: "Xeon"}}
	c := &bench.Run{Label: "c", Platform: bench.Platform{Host: "laptop", CPU: "M3"}}
	if w := Warnings([]*bench.Run{a, b}); w != nil {
		t.Errorf("one machine: %q", w)
	}
	w := Warnings([]*bench.Run{a, b, c})
	if len(w) != 1 || !strings.Contains(w[0], `cpu "Xeon" vs "M3"`) {
		t.Errorf("two machines: %q", w)
	}
}
