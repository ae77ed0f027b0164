package compare

import (
	"testing"

	"github.com/mbench/mbench/bench"
)

func TestPercent(t *testing.T) {
	for _, c := range []struct {
		level float64
		want  string
	}{
		{0.95, "95"},
		{0.99, "99"},
		{1 - 0.05/3, "98.333"},
		{1 - 0.05/8, "99.375"},
		{0.999, "99.9"},
		{0.9999999999999999, "100"},
	} {
		if got, want, level := Percent(c.level), c.want, c.level; got != want {
			t.Errorf("Percent(%v) = %q, want %q", level, got, want)
		}
	}
}

// TestRegressed: a benchmark worse in several metrics is named once, with
// them.
func TestRegressed(t *testing.T) {
	k := bench.Key{Package: "p", Name: "BenchmarkA", Procs: 2}
	j := bench.Key{Package: "p", Name: "BenchmarkB", Procs: 2}
	time := &Result{Metric: "sec/op", Rows: []Row{{Key: k, Verdict: Worse}, {Key: j, Verdict: Better}}}
	allocs := &Result{Metric: "allocs/op", Rows: []Row{{Key: k, Verdict: Worse}}}
	got := Regressed(time, allocs)
	if len(got) != 1 || got[0] != k.String()+" (sec/op, allocs/op)" {
		t.Errorf("Regressed = %q", got)
	}
	if got := Regressed(&Result{Metric: "B/op"}); len(got) != 0 {
		t.Errorf("Regressed of no rows = %q", got)
	}
}
