package stop

import (
	"math"
	"strings"
	"testing"
)

// TestCVWarmupByHand checks the CV warm-up check against values computed by
// hand for settling. With window 5 the check after n values looks at
// v_(n−5) … v_n.
//
// After 8 values the window is 1.25, 1.0, 1.001, 0.999, 1.0005, 0.9995. Its
// first two values have CV = (0.25/√2)/1.125 = 0.157135; all six have mean
// 6.25/6 = 1.041667 and squared deviations summing to 0.052086, so
// sd = √(0.052086/5) = 0.102064 and CV = 0.097981. The CVs of 3, 4, 5 values
// (0.13293, 0.11765, 0.10642) lie between, so the change is
// 0.157135 − 0.097981 = 0.059154 > 0.01: not stable.
//
// After 9 values the window holds only values within ±0.1% of 1.0, so every
// CV in it is below 0.0011 and the change below 0.01: stable.
func TestCVWarmupByHand(t *testing.T) {
	c := mustNew("cv", DefaultOptions)
	v := settling(9)
	d := c.Warmup(v[:8])
	if d.Stable || math.Abs(d.Value-0.059154) > 1e-5 {
		t.Errorf("CV warm-up after 8 = %+v, want unstable with change 0.059154 (±1e-5)", d)
	}
	d = c.Warmup(v)
	if !d.Stable || !(d.Value < 0.0011) {
		t.Errorf("CV warm-up after 9 = %+v, want stable with change < 0.0011", d)
	}
	if want := "cv change 0.03% <= 1.00%"; d.Detail != want {
		t.Errorf("Detail = %q, want %q", d.Detail, want)
	}
}

// TestWarmupSettles checks the warm-up iteration at which each criterion
// finds settling stable, and that a Controller ends warm-up sooner, once
// the window has lost its trend.
//
//   - cv: 9, by hand in TestCVWarmupByHand.
//   - rciw: 9. After 8 values the window starts with 1.25, 1.0, whose
//     bootstrap means are 1.0, 1.125 and 1.25 with probabilities 1/4, 1/2,
//     1/4, so the 99% interval is [1.0, 1.25] and RCIW = 0.25/1.125 = 0.222;
//     over all six values the 1.25 is drawn k ~ Bin(6, 1/6) times, the 99.5%
//     quantile is k = 3 or 4 and the 0.5% quantile k = 0, so RCIW is at most
//     (4·0.25/6)/1.0417 = 0.16: the change is at least 0.06 > 0.03 whatever the
//     seed. After 9 values every RCIW in the window is below 0.004: stable.
//   - kld: 10. Its distributions grow from the fork's first value, so the
//     transient 2.0, 1.5, 1.25 stays in them and is diluted only gradually.
//     The mean p over the window (stats.KLSimilarity, not computable by hand)
//     is 0.94162 after 7 values, 0.96579 after 8, 0.98517 after 9 and 0.99035
//     after 10, the first above 0.99.
func TestWarmupSettles(t *testing.T) {
	want := map[string]int{"cv": 9, "rciw": 9, "kld": 10}
	for name, n := range want {
		t.Run(name, func(t *testing.T) {
			c := mustNew(name, DefaultOptions)
			v := settling(DefaultConfig.WarmupMax)
			if d := c.Warmup(v[:n-1]); d.Stable {
				t.Errorf("Warmup after %d = %+v, want unstable", n-1, d)
			}
			if d := c.Warmup(v[:n]); !d.Stable {
				t.Errorf("Warmup after %d = %+v, want stable", n, d)
			}
			// In a Controller the window loses its trend first: the slope
			// of the last 6 values has p = 0.041 after 7 values (1.5,
			// 1.25, 1.0, …) and 0.157 after 8 (1.25, 1.0, …), so every
			// fork's warm-up ends after 8, before any criterion is stable.
			r := simulate(NewController(DefaultConfig, c), series(v), perFork(agreeing))
			for f, w := range r.Warmup {
				if w != 8 || r.WarmupStable[f] || r.WarmupTrend[f] {
					t.Errorf("fork %d: %d warm-up iterations (stable %v, trend %v), want 8 (neither)",
						f+1, w, r.WarmupStable[f], r.WarmupTrend[f])
				}
			}
		})
	}
}

// TestWarmupNeverSettles checks that a series that keeps drifting runs every
// criterion to wi_max, still trending, with a warning to raise -wi-max.
func TestWarmupNeverSettles(t *testing.T) {
	cfg := DefaultConfig
	cfg.ForksMin, cfg.ForksMax = 1, 1
	for _, name := range []string{"cv", "rciw", "kld"} {
		r := simulate(NewController(cfg, mustNew(name, DefaultOptions)), series(drifting(cfg.WarmupMax)), perFork(agreeing))
		if r.Warmup[0] != cfg.WarmupMax || r.WarmupStable[0] || !r.WarmupTrend[0] {
			t.Errorf("%s: warm-up %d (stable %v, trend %v), want wi_max=%d, trending",
				name, r.Warmup[0], r.WarmupStable[0], r.WarmupTrend[0], cfg.WarmupMax)
		}
		if w := r.Warnings(); len(w) == 0 || !strings.Contains(w[0].String(), "raise -wi-max") {
			t.Errorf("%s: Warnings() = %q, want a warm-up warning", name, w)
		}
	}
}

// TestWindowMinimum checks how many warm-up values each criterion needs
// before it can be stable: Window+1 for CV and RCIW (Eq. (1)'s window
// v_(n−s) … v_n), Window+2 for KLD (its oldest p_x compares x−1 ≥ 2 values).
// A constant series is stable as soon as a check is possible.
func TestWindowMinimum(t *testing.T) {
	for _, w := range []int{2, 5, 8} {
		o := DefaultOptions
		o.Window = w
		for name, need := range map[string]int{"cv": w + 1, "rciw": w + 1, "kld": w + 2} {
			c := mustNew(name, o)
			v := constantSeries(need)
			d := c.Warmup(v[:need-1])
			if d.Stable || !math.IsNaN(d.Value) || !strings.Contains(d.Detail, "needs") {
				t.Errorf("%s window %d after %d values: %+v, want unstable, NaN, \"needs\"", name, w, need-1, d)
			}
			if d := c.Warmup(v); !d.Stable {
				t.Errorf("%s window %d after %d constant values: %+v, want stable", name, w, need, d)
			}
			// The fork checks need two forks.
			one := [][]float64{constantSeries(10)}
			if d := c.Forks(one); d.Stable || !math.IsNaN(d.Value) {
				t.Errorf("%s Forks with one fork: %+v, want unstable, NaN", name, d)
			}
		}
	}
}

// TestForkChecks checks the fork checkpoint of each criterion on forks that
// agree (stable from the first checkpoint, f = 2, on) and on forks that keep
// disagreeing (never stable up to f = 5).
//
// By hand for CV: agreeing forks hold the same ten values, so the pooled CV
// of 1, 2, … forks changes only through the n−1 denominator, by a factor
// √((20−2)/(20−1)) at f = 2: a change of 0.03 × 0.0006 ≈ 0.00002. Disagreeing
// forks have means 1.0, 1.2, 0.8, 1.5, 0.5; at f = 2 the pooled CV goes from
// 0.0006 to (0.1/1.1)·√(20/19) = 0.0933, a change of 0.093; at f = 4 from
// 0.1633 to 0.2301, at f = 5 to 0.3412.
func TestForkChecks(t *testing.T) {
	for _, name := range []string{"cv", "rciw", "kld"} {
		for seed := uint64(1); seed <= 5; seed++ {
			o := DefaultOptions
			o.Seed = seed
			c := mustNew(name, o)
			for f := 2; f <= 5; f++ {
				if d := c.Forks(forksOf(agreeing, f)); !d.Stable {
					t.Errorf("%s seed %d: %d agreeing forks: %+v, want stable", name, seed, f, d)
				}
				if d := c.Forks(forksOf(disagreeing, f)); d.Stable {
					t.Errorf("%s seed %d: %d disagreeing forks: %+v, want unstable", name, seed, f, d)
				}
			}
		}
	}
	c := mustNew("cv", DefaultOptions)
	if d := c.Forks(forksOf(disagreeing, 2)); math.Abs(d.Value-0.0927) > 0.0005 {
		t.Errorf("CV change at 2 disagreeing forks = %v, want 0.0927 (by hand, ±0.0005)", d.Value)
	}
}

func TestStaticNeverStable(t *testing.T) {
	var s Static
	if d := s.Warmup(constantSeries(100)); d.Stable {
		t.Errorf("Static.Warmup = %+v", d)
	}
	if d := s.Forks(forksOf(agreeing, 10)); d.Stable {
		t.Errorf("Static.Forks = %+v", d)
	}
}

// TestSimilarityZeroSpread checks KLD's decision where the KDE is undefined.
func TestSimilarityZeroSpread(t *testing.T) {
	tests := []struct {
		a, b []float64
		want float64
	}{
		{[]float64{3, 3}, []float64{3, 3, 3}, 1},
		{[]float64{3, 3}, []float64{4, 4, 4}, 0},
		{[]float64{3, 3}, []float64{3, 3, 3.1}, 0},
		{[]float64{3, math.NaN()}, []float64{3, 3, 3.1}, 0},
	}
	for _, tt := range tests {
		if got := similarity(tt.a, tt.b, 1000); got != tt.want {
			t.Errorf("similarity(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	if got := similarity([]float64{1, 2, 3}, []float64{1, 2, 3}, 1000); math.Abs(got-1) > 1e-12 {
		t.Errorf("similarity of identical samples = %v, want 1", got)
	}
}

// TestSeed checks that RCIW's bootstrap depends on the seed and only on it.
// The warm-up check uses window 10: with 2 or 3 values the 99% percentile
// interval is the sample's range whatever the draws (a resample of only the
// smallest or only the largest value has probability ≥ 1/27 > 0.5%), and
// those sets often decide the default window's change.
func TestSeed(t *testing.T) {
	forks := forksOf(func(i int) []float64 { return noisy(10, uint64(i)) }, 4)
	warm := noisy(11, 9)
	o1 := DefaultOptions
	o1.Window = 10
	o2 := o1
	o2.Seed = 2
	a, b, a2 := mustNew("rciw", o1), mustNew("rciw", o2), mustNew("rciw", o1)
	if a.Forks(forks) != a2.Forks(forks) || a.Warmup(warm) != a2.Warmup(warm) {
		t.Error("RCIW with the same seed decided differently")
	}
	if a.Forks(forks).Value == b.Forks(forks).Value || a.Warmup(warm).Value == b.Warmup(warm).Value {
		t.Error("RCIW with seeds 1 and 2 gave identical values; the seed is not used")
	}
}

// TestMemoInvisible checks that the memoized criteria a Controller uses
// decide exactly as the plain ones, also when the series changes under them
// (a new fork).
func TestMemoInvisible(t *testing.T) {
	for _, name := range []string{"rciw", "kld"} {
		plain := mustNew(name, DefaultOptions)
		memo := plain.(memoizer).memoized()
		for _, s := range [][]float64{settling(20), noisy20(20), settling(20)} {
			for n := 1; n <= len(s); n++ {
				if p, m := plain.Warmup(s[:n]), memo.Warmup(s[:n]); p != m && !(math.IsNaN(p.Value) && math.IsNaN(m.Value)) {
					t.Errorf("%s Warmup(%d values): plain %+v, memoized %+v", name, n, p, m)
				}
			}
		}
		for _, gen := range []func(int) []float64{disagreeing, agreeing, disagreeing} {
			for f := 1; f <= 5; f++ {
				fs := forksOf(gen, f)
				if p, m := plain.Forks(fs), memo.Forks(fs); p != m && !(math.IsNaN(p.Value) && math.IsNaN(m.Value)) {
					t.Errorf("%s Forks(%d): plain %+v, memoized %+v", name, f, p, m)
				}
			}
		}
	}
}
