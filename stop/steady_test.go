package stop

import (
	"math"
	"slices"
	"strings"
	"testing"
)

const mib = 1 << 20

func TestAgree(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		a, b PerOp
		want string
	}{
		{"same", PerOp{1e-6, 64, 1}, PerOp{1e-6, 64, 1}, ""},
		{"cold buffer", PerOp{1e-3, 4 * mib, 1}, PerOp{1e-6, 64, 1}, "B/op"},
		{"B/op within 10% of the larger", PerOp{1, 1000, 3}, PerOp{1, 1100, 3}, ""},
		{"B/op beyond 10%", PerOp{1, 1000, 3}, PerOp{1, 1112, 3}, "B/op"},
		{"B/op within one tiny block", PerOp{1, 0, 0}, PerOp{1, 16, 0}, ""},
		{"B/op beyond one tiny block", PerOp{1, 0, 0}, PerOp{1, 17, 0}, "B/op"},
		{"allocs/op off by one", PerOp{1, 64, 2}, PerOp{1, 64, 1}, ""},
		{"allocs/op off by two", PerOp{1, 64, 3}, PerOp{1, 64, 1}, "allocs/op"},
		{"allocs/op within 10%", PerOp{1, 64, 100}, PerOp{1, 64, 90}, ""},
		{"time falls by 25%", PerOp{1.25, 64, 1}, PerOp{1, 64, 1}, ""},
		{"time falls steeply", PerOp{1.26, 64, 1}, PerOp{1, 64, 1}, "sec/op"},
		{"time rises", PerOp{1, 64, 1}, PerOp{3, 64, 1}, ""},
		{"memory first", PerOp{9, 4 * mib, 9}, PerOp{1, 64, 1}, "B/op"},
		{"allocs before time", PerOp{9, 64, 9}, PerOp{1, 64, 1}, "allocs/op"},
		{"missing figures", PerOp{nan, 4 * mib, nan}, PerOp{1, nan, 1}, ""},
		{"unmeasured", Unmeasured, PerOp{1, 64, 1}, ""},
	} {
		if got := DefaultSteady.Agree(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: Agree(%v, %v) = %q, want %q", tc.name, tc.a, tc.b, got, tc.want)
		}
	}
}

// TestSettled runs the rule over synthetic forks: warm counts the
// iterations up to the first that agrees with the one before it.
func TestSettled(t *testing.T) {
	for _, tc := range []struct {
		name               string
		bytes, allocs, sec []float64
		warm               int
		ok                 bool
	}{
		{"steady from the start", []float64{64, 64, 64}, []float64{1, 1, 1}, []float64{1e-6, 1e-6, 1e-6}, 2, true},
		// b.Loop: the first iteration holds the process's first op, which
		// allocates an 8 MiB buffer, 4 MiB per op of 2.
		{"cold first iteration", []float64{4*mib + 64, 64, 64, 64}, []float64{1, 1, 1, 1}, []float64{1e-3, 1e-6, 1e-6, 1e-6}, 3, true},
		{"cache filling up", []float64{8 * mib, 4 * mib, 2 * mib, mib, 0, 0}, nil, nil, 6, true},
		{"time alone falling", nil, nil, []float64{3, 2, 1.5, 1.45, 1.5}, 4, true},
		{"time rising", nil, nil, []float64{1, 2, 2}, 2, true},
		{"noise within the tolerances", []float64{100, 108, 95}, []float64{0, 1, 0}, []float64{1, 1.2, 0.9}, 2, true},
		{"never steady", []float64{0, mib, 0, mib, 0}, []float64{0, 1, 0, 1, 0}, nil, 5, false},
		{"one iteration", []float64{64}, []float64{1}, []float64{1}, 1, false},
		{"nothing", nil, nil, nil, 0, false},
		{"a missing value", []float64{math.NaN(), 64, 64}, nil, []float64{1, 1, 1}, 2, true},
	} {
		warm, ok := Settled(tc.bytes, tc.allocs, tc.sec)
		if warm != tc.warm || ok != tc.ok {
			t.Errorf("%s: Settled = %d, %v; want %d, %v", tc.name, warm, ok, tc.warm, tc.ok)
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.HasPrefix(r.(string), "stop: ") {
			t.Errorf("Settled of different lengths: recovered %v, want a stop: panic", r)
		}
	}()
	Settled([]float64{1, 2}, []float64{1}, nil)
}

// TestSteadyStateReference follows the forks of one benchmark: the first
// finds the steady state by two agreeing iterations, later ones by agreeing
// with it, and a fork that does not falls back to its own pairs.
func TestSteadyStateReference(t *testing.T) {
	cold, warm := PerOp{1e-3, 4 * mib, 1}, PerOp{1e-6, 64, 1}
	type step struct {
		op     PerOp
		steady bool
		moved  string
	}
	s := NewSteadyState(DefaultSteady)
	for f, fork := range [][]step{
		{{cold, false, ""}, {warm, false, "B/op"}, {warm, true, ""}},
		// The reference tells at once that a warm first iteration is
		// steady, and that a cold one is not.
		{{warm, true, ""}},
		{{cold, false, "B/op"}, {warm, true, ""}},
		// Slower than the reference by more than Steep: only its own
		// second iteration shows that it has settled.
		{{PerOp{1.5e-6, 64, 1}, false, "sec/op"}, {PerOp{1.4e-6, 64, 1}, true, ""}},
		// An unmeasured iteration is steady.
		{{Unmeasured, true, ""}},
	} {
		s.StartFork()
		for i, st := range fork {
			steady, moved := s.Add(st.op)
			if steady != st.steady || moved != st.moved {
				t.Errorf("fork %d, iteration %d (%v): steady %v, moved %q; want %v, %q", f+1, i, st.op, steady, moved, st.steady, st.moved)
			}
		}
	}
}

// runIters feeds a controller forks of warm-up iterations, fork f's
// iteration i having the per-op figures op(f, i) and a flat metric, and
// measurement iterations of agreeing forks.
func runIters(ctl *Controller, op func(f, i int) PerOp) Report {
	for f := 0; ctl.NeedFork(); f++ {
		ctl.StartFork()
		for i := 0; ctl.WantWarmup(); i++ {
			ctl.Warmup(1, op(f, i))
		}
		for i := 0; ctl.Measure(agreeing(f)[i%10]); i++ {
		}
		ctl.EndFork()
	}
	return ctl.Report()
}

// TestWarmupUntilSteady holds warm-up, which the criterion alone ends at
// wi_min on a flat metric, until the per-op figures settle: fork 1 needs
// two iterations after its cold one to see B/op settle, fork 2 one after
// its cold one to reach fork 1's steady state, and a fork whose first
// iteration is warm ends at wi_min.
func TestWarmupUntilSteady(t *testing.T) {
	coldForks := map[int]bool{0: true, 1: true}
	op := func(f, i int) PerOp {
		if i == 0 && coldForks[f] {
			return PerOp{1e-3, 4*mib + 64, 1}
		}
		return PerOp{1e-6, 64, 1}
	}
	cfg := runDefaults
	cfg.ForksMin, cfg.ForksMax = 3, 3
	r := runIters(NewController(cfg, mustNew("cv", DefaultOptions)), op)
	if want := []int{3, 2, 1}; !slices.Equal(r.Warmup, want) {
		t.Errorf("warm-up per fork %v, want %v", r.Warmup, want)
	}
	if want := []string{"B/op settled", "B/op settled", WhyMin}; !slices.Equal(r.WarmupWhy, want) {
		t.Errorf("WarmupWhy %q, want %q", r.WarmupWhy, want)
	}
	if got, want := r.WarmupSummary(), "fork 1: 3 (B/op settled); fork 2: 2 (B/op settled); fork 3: 1 (wi-min)"; got != want {
		t.Errorf("WarmupSummary() = %q, want %q", got, want)
	}
	if w := r.Warnings(); w != nil {
		t.Errorf("Warnings() = %q, want none", w)
	}

	// The same forks, run as the paper's static baseline: wi_max warm-up
	// whatever the figures.
	r = runIters(NewController(cfg, Static{}), op)
	if !slices.Equal(r.Warmup, []int{10, 10, 10}) || !slices.Equal(r.WarmupWhy, []string{WhyStatic, WhyStatic, WhyStatic}) {
		t.Errorf("static: warm-up %v, why %q; want wi_max, static", r.Warmup, r.WarmupWhy)
	}
}

// TestWarmupNeverSteadyWarns feeds B/op that doubles every iteration: warm-up
// reaches wi_max and the report names B/op in its warning.
func TestWarmupNeverSteadyWarns(t *testing.T) {
	cfg := runDefaults
	cfg.ForksMin, cfg.ForksMax = 2, 2
	r := runIters(NewController(cfg, mustNew("cv", DefaultOptions)), func(f, i int) PerOp {
		return PerOp{1e-6, math.Pow(2, float64(i)) * 1024, 1}
	})
	if !slices.Equal(r.Warmup, []int{10, 10}) || !slices.Equal(r.WarmupUnsteady, []string{"B/op", "B/op"}) {
		t.Errorf("warm-up %v, unsteady %q; want wi_max, B/op", r.Warmup, r.WarmupUnsteady)
	}
	if want := "wi-max, B/op still changing"; r.WarmupWhy[0] != want {
		t.Errorf("WarmupWhy[0] = %q, want %q", r.WarmupWhy[0], want)
	}
	w := r.Warnings()
	if len(w) != 1 || w[0].Detail != "B/op" || !strings.Contains(w[0].String(), "raise -wi-max") {
		t.Errorf("Warnings() = %q, want one naming B/op and -wi-max", w)
	}
}

// TestWarmupWhyAtMax names what still held warm-up at wi_max, and warns
// only when a figure moved: with wi_max 1, a fork's single iteration has
// nothing to agree with, which more warm-up would fix but which is no sign
// of a problem.
func TestWarmupWhyAtMax(t *testing.T) {
	cfg := Config{WarmupMin: 1, WarmupMax: 1, Measure: 2, ForksMin: 2, ForksMax: 2, IterTime: 1}
	r := runIters(NewController(cfg, mustNew("cv", DefaultOptions)), func(int, int) PerOp { return PerOp{1e-6, 64, 1} })
	if want := []string{"wi-max, no two iterations agreed", "wi-max, no two iterations agreed"}; !slices.Equal(r.WarmupWhy, want) {
		t.Errorf("WarmupWhy %q, want %q", r.WarmupWhy, want)
	}
	if w := r.Warnings(); w != nil {
		t.Errorf("Warnings() = %q, want none", w)
	}
	cfg.WarmupMin, cfg.WarmupMax = 0, 0
	r = runIters(NewController(cfg, mustNew("cv", DefaultOptions)), nil)
	if got := r.WarmupSummary(); got != "forks 1-2: 0 (none)" {
		t.Errorf("without warm-up: WarmupSummary() = %q", got)
	}
}

func TestSpans(t *testing.T) {
	for _, tc := range []struct {
		xs   []int
		want string
	}{{[]int{1}, "1"}, {[]int{1, 2, 3, 5}, "1-3, 5"}, {[]int{2, 4, 5}, "2, 4-5"}, {nil, ""}} {
		if got := spans(tc.xs); got != tc.want {
			t.Errorf("spans(%v) = %q, want %q", tc.xs, got, tc.want)
		}
	}
}
