package optimize

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
)

func TestCandidates(t *testing.T) {
	cs := candidates(bench.Levels{SuiteRuns: 3, Forks: 5, Iterations: 5}, 0)
	// 75 configurations less the four with fewer than 3 measurements:
	// (1,1,1), (1,1,2), (1,2,1), (2,1,1).
	if len(cs) != 71 {
		t.Fatalf("%d candidates of 3,5,5, want 71", len(cs))
	}
	if want := []bench.Levels{{SuiteRuns: 1, Forks: 1, Iterations: 3}, {SuiteRuns: 1, Forks: 3, Iterations: 1}, {SuiteRuns: 3, Forks: 1, Iterations: 1}, {SuiteRuns: 1, Forks: 1, Iterations: 4}}; !slices.Equal(cs[:4], want) {
		t.Errorf("cheapest candidates %v, want %v", cs[:4], want)
	}
	for k := 1; k < len(cs); k++ {
		a, b := cs[k-1], cs[k]
		lex := a.SuiteRuns < b.SuiteRuns || a.SuiteRuns == b.SuiteRuns && (a.Forks < b.Forks || a.Forks == b.Forks && a.Iterations < b.Iterations)
		if a.Total() > b.Total() || a.Total() == b.Total() && !lex {
			t.Errorf("candidate %v before %v", a, b)
		}
	}
	if cs[len(cs)-1] != (bench.Levels{SuiteRuns: 3, Forks: 5, Iterations: 5}) {
		t.Errorf("last candidate %v, want the full configuration", cs[len(cs)-1])
	}
	if cs := candidates(bench.Levels{SuiteRuns: 1, Forks: 1, Iterations: 2}, 0); len(cs) != 0 {
		t.Errorf("candidates of 1,1,2: %v, want none", cs)
	}
	// At least 3 processes: s·i ≥ 3, as the authors' code counts.
	cs = candidates(bench.Levels{SuiteRuns: 3, Forks: 5, Iterations: 5}, 3)
	for _, c := range cs {
		if c.SuiteRuns*c.Forks < 3 {
			t.Errorf("candidate %v has fewer than 3 processes", c)
		}
	}
	if want := []bench.Levels{{SuiteRuns: 1, Forks: 3, Iterations: 1}, {SuiteRuns: 3, Forks: 1, Iterations: 1}, {SuiteRuns: 1, Forks: 4, Iterations: 1}}; !slices.Equal(cs[:3], want) {
		t.Errorf("cheapest candidates with 3 processes %v, want %v", cs[:3], want)
	}
	// A full run with fewer processes than asked for: its own.
	if cs := candidates(bench.Levels{SuiteRuns: 1, Forks: 2, Iterations: 5}, 3); len(cs) == 0 || cs[len(cs)-1] != (bench.Levels{SuiteRuns: 1, Forks: 2, Iterations: 5}) || cs[0].Forks != 2 {
		t.Errorf("candidates of 1,2,5 with 3 processes: %v, want those with 2", cs)
	}
}

func TestMinimum(t *testing.T) {
	for full, want := range map[bench.Levels]bench.Levels{
		{SuiteRuns: 3, Forks: 5, Iterations: 5}: {SuiteRuns: 1, Forks: 3, Iterations: 1}, // the authors' code's (1, 3, 1)
		{SuiteRuns: 1, Forks: 1, Iterations: 5}: {SuiteRuns: 1, Forks: 1, Iterations: 3},
		{SuiteRuns: 3, Forks: 1, Iterations: 1}: {SuiteRuns: 3, Forks: 1, Iterations: 1},
		{SuiteRuns: 2, Forks: 2, Iterations: 1}: {SuiteRuns: 2, Forks: 2, Iterations: 1}, // no configuration of 3
		{SuiteRuns: 5, Forks: 2, Iterations: 1}: {SuiteRuns: 3, Forks: 1, Iterations: 1},
		{SuiteRuns: 1, Forks: 1, Iterations: 2}: {SuiteRuns: 1, Forks: 1, Iterations: 2}, // no candidate: the full configuration
	} {
		if got := minimum(full); got != want {
			t.Errorf("minimum(%v) = %v, want %v", full, got, want)
		}
	}
}

func TestLevels(t *testing.T) {
	l := bench.Levels{SuiteRuns: 3, Forks: 5, Iterations: 2}
	if l.Total() != 30 || l.String() != "3,5,2" || l.Validate() != nil {
		t.Errorf("%v: total %d, string %q, validate %v", l, l.Total(), l.String(), l.Validate())
	}
	if (bench.Levels{SuiteRuns: 1, Forks: 0, Iterations: 1}).Validate() == nil {
		t.Error("a zero level validated")
	}
	if !(bench.Levels{SuiteRuns: 3, Forks: 1, Iterations: 2}).Within(l) || (bench.Levels{SuiteRuns: 1, Forks: 6, Iterations: 1}).Within(l) {
		t.Error("Within is wrong")
	}
}

// TestPrefix checks the layout: value 100·s + 10·i + d at suite run s,
// fork i, iteration d.
func TestPrefix(t *testing.T) {
	var v [][][]float64
	for s := range 2 {
		v = append(v, nil)
		for i := range 3 {
			v[s] = append(v[s], nil)
			for d := range 4 {
				v[s][i] = append(v[s][i], float64(100*s+10*i+d))
			}
		}
	}
	b, err := NewBenchmark(bench.Key{Name: "X"}, v)
	if err != nil {
		t.Fatal(err)
	}
	if b.Levels != (bench.Levels{SuiteRuns: 2, Forks: 3, Iterations: 4}) {
		t.Fatalf("levels %v", b.Levels)
	}
	got := b.Prefix(nil, bench.Levels{SuiteRuns: 2, Forks: 2, Iterations: 3})
	want := []float64{0, 1, 2, 10, 11, 12, 100, 101, 102, 110, 111, 112}
	if !slices.Equal(got, want) {
		t.Errorf("prefix 2,2,3 = %v, want %v", got, want)
	}
	if got := b.Prefix(got, b.Levels); len(got) != 24 || got[23] != 123 {
		t.Errorf("full prefix %v", got)
	}
}

func TestNewBenchmarkErrors(t *testing.T) {
	for _, c := range []struct {
		v    [][][]float64
		want string
	}{
		{nil, "no values"},
		{[][][]float64{{{1, 2}, {3}}}, "fork 1 has 1 iterations"},
		{[][][]float64{{{1}}, {{1}, {2}}}, "suite run 1 has 2 forks"},
		{[][][]float64{{{1, math.Inf(1)}}}, "value 1 is +Inf"},
	} {
		_, err := NewBenchmark(bench.Key{Name: "Bad"}, c.v)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "Bad") {
			t.Errorf("%v: error %v, want one naming Bad and containing %q", c.v, err, c.want)
		}
	}
}
