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

// TestSourceOrder: series follow the order of the source the runs record,
// not the random order they measured in.
func TestSourceOrder(t *testing.T) {
	a, b, c := bench.Key{Name: "BenchmarkA"}, bench.Key{Name: "BenchmarkB"}, bench.Key{Name: "BenchmarkC"}
	keys := []bench.Key{c, a, b}
	sourceOrder(keys, []*bench.Run{{Benchmarks: []bench.Key{a, b}}, {Benchmarks: []bench.Key{a, b, c}}})
	if keys[0] != a || keys[1] != b || keys[2] != c {
		t.Errorf("order %v, want A, B, C", keys)
	}
	keys = []bench.Key{c, a}
	sourceOrder(keys, []*bench.Run{{}})
	if keys[0] != c || keys[1] != a {
		t.Errorf("without a recorded order: %v, want the measured order C, A", keys)
	}
}
