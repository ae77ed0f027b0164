package stop

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func TestForksAgreeStopAtMin(t *testing.T) {
	for _, name := range []string{"cv", "rciw", "kld"} {
		ctl := NewController(DefaultConfig, mustNew(name, DefaultOptions))
		r := simulate(ctl, series(settling(DefaultConfig.WarmupMax)), perFork(agreeing))
		if r.Forks != DefaultConfig.ForksMin || !r.Stable || !r.Done {
			t.Errorf("%s: %d forks, stable %v, done %v; want f_min=%d, stable, done", name, r.Forks, r.Stable, r.Done, DefaultConfig.ForksMin)
		}
		if want := "stable after 2 forks (" + name; !strings.HasPrefix(r.Reason, want) {
			t.Errorf("%s: Reason %q, want prefix %q", name, r.Reason, want)
		}
		if r.Measured != 2*DefaultConfig.Measure {
			t.Errorf("%s: Measured %d, want %d", name, r.Measured, 2*DefaultConfig.Measure)
		}
		if w := r.Warnings(); w != nil {
			t.Errorf("%s: Warnings() = %q, want none", name, w)
		}
		if r.CheckTime <= 0 {
			t.Errorf("%s: CheckTime %v, want > 0", name, r.CheckTime)
		}
	}
}

func TestForksDisagreeRunToMax(t *testing.T) {
	for _, name := range []string{"cv", "rciw", "kld"} {
		ctl := NewController(DefaultConfig, mustNew(name, DefaultOptions))
		r := simulate(ctl, series(settling(DefaultConfig.WarmupMax)), perFork(disagreeing))
		if r.Forks != DefaultConfig.ForksMax || r.Stable || !r.Done {
			t.Errorf("%s: %d forks, stable %v, done %v; want f_max=%d, unstable, done", name, r.Forks, r.Stable, r.Done, DefaultConfig.ForksMax)
		}
		if want := "f_max=5 reached without stability (" + name; !strings.HasPrefix(r.Reason, want) {
			t.Errorf("%s: Reason %q, want prefix %q", name, r.Reason, want)
		}
		w := r.Warnings()
		if len(w) != 1 || !strings.Contains(w[0].Problem, name) || !strings.Contains(w[0].String(), "raise -f-max") {
			t.Errorf("%s: Warnings() = %q, want one naming the criterion and -f-max", name, w)
		}
	}
}

func TestStaticRunsMaximum(t *testing.T) {
	cfg := Config{WarmupMin: 2, WarmupMax: 7, Measure: 3, ForksMin: 2, ForksMax: 4, IterTime: 1}
	// Values that every dynamic criterion finds stable at once.
	r := simulate(NewController(cfg, Static{}), series(constantSeries(7)), series(constantSeries(3)))
	want := Report{
		Criterion:    "static",
		Forks:        4,
		Warmup:       []int{7, 7, 7, 7},
		WarmupStable: []bool{false, false, false, false},
		WarmupTrend:  []bool{false, false, false, false},
		// Static ignores the per-op figures: nothing is unsteady.
		WarmupUnsteady: []string{"", "", "", ""},
		WarmupWhy:      []string{"static", "static", "static", "static"},
		Measured:       12,
		Done:           true,
		Reason:         "static: f_max=4 forks, wi_max=7 warm-up and mi=3 measurement iterations each",
	}
	r.CheckTime = 0
	if !reflect.DeepEqual(r, want) {
		t.Errorf("static report\n got %+v\nwant %+v", r, want)
	}
	if w := r.Warnings(); w != nil {
		t.Errorf("static Warnings() = %q, want none", w)
	}
}

// TestWarmupMin checks that a flat series ends warm-up at wi_min, or as
// soon as at least one value is in: below the criterion's window (6 values
// for cv) the criterion cannot be stable yet, and the window shows no trend.
// From 6 values on, the criterion finds the constant series stable.
func TestWarmupMin(t *testing.T) {
	for _, tt := range []struct {
		min, want int
		stable    bool
	}{{0, 1, false}, {1, 1, false}, {5, 5, false}, {6, 6, true}, {8, 8, true}} {
		cfg := DefaultConfig
		cfg.WarmupMin = tt.min
		ctl := NewController(cfg, mustNew("cv", DefaultOptions))
		ctl.StartFork()
		n := 0
		for more := true; more; n++ {
			more = ctl.Warmup(42, Unmeasured)
		}
		r := ctl.Report()
		if n != tt.want || r.WarmupStable[0] != tt.stable || r.WarmupTrend[0] {
			t.Errorf("wi-min %d: warm-up ended after %d constant values (stable %v, trend %v), want %d (stable %v, no trend)",
				tt.min, n, r.WarmupStable[0], r.WarmupTrend[0], tt.want, tt.stable)
		}
	}
}

// runDefaults is mbench run's configuration (cmd/mbench): one warm-up
// iteration at least, ten at most.
var runDefaults = Config{WarmupMin: 1, WarmupMax: 10, Measure: 5, ForksMin: 5, ForksMax: 10, IterTime: 1}

// TestFlatNoisyWarmupEndsEarly feeds every criterion a warm-up that is flat
// but noisy (±20%, noisy20), as 50ms iterations on a busy machine are. No
// criterion finds six such values stable (the CV of 2 to 6 of them keeps
// jumping by more than 1%), and before the trend check they all ran to
// wi_max and warned "raise -wi-max", which would not have helped. Now
// warm-up ends at wi_min, with the run's defaults and with the paper's
// (wi_min 5), and nothing warns about warm-up.
func TestFlatNoisyWarmupEndsEarly(t *testing.T) {
	for _, cfg := range []Config{runDefaults, DefaultConfig} {
		for _, name := range []string{"cv", "rciw", "kld"} {
			r := simulate(NewController(cfg, mustNew(name, DefaultOptions)), series(noisy20(cfg.WarmupMax)), perFork(agreeing))
			for f, w := range r.Warmup {
				if w != cfg.WarmupMin || r.WarmupTrend[f] {
					t.Errorf("%s, wi-min %d: fork %d warmed up for %d iterations (trend %v), want %d",
						name, cfg.WarmupMin, f+1, w, r.WarmupTrend[f], cfg.WarmupMin)
				}
			}
			for _, n := range r.Warnings() {
				if strings.Contains(n.Problem, "warm-up") {
					t.Errorf("%s, wi-min %d: warning %q on a flat warm-up", name, cfg.WarmupMin, n)
				}
			}
		}
	}
}

// decaying is a warm-up that is 50% slow at first and loses a tenth of the
// excess per iteration, under 1% noise (seeded): after wi_max = 10 values it
// is still 19% slow and falling, about 2% per iteration.
func decaying(n int) []float64 {
	r := rand.New(rand.NewPCG(11, 11))
	v := make([]float64, n)
	for i := range v {
		v[i] = (1 + 0.5*math.Pow(0.9, float64(i))) * (1 + 0.01*r.NormFloat64())
	}
	return v
}

// TestDecayingWarmupWarns feeds a warm-up that is still decaying at wi_max:
// every criterion keeps warming up to wi_max, the fork is marked trending,
// and one warning says to raise -wi-max. The check needs 3 values, so it
// uses wi_min 5, the paper's.
func TestDecayingWarmupWarns(t *testing.T) {
	cfg := runDefaults
	cfg.WarmupMin = 5
	for _, name := range []string{"cv", "rciw", "kld"} {
		r := simulate(NewController(cfg, mustNew(name, DefaultOptions)), series(decaying(cfg.WarmupMax)), perFork(agreeing))
		for f, w := range r.Warmup {
			if w != cfg.WarmupMax || !r.WarmupTrend[f] {
				t.Errorf("%s: fork %d warmed up for %d iterations (trend %v), want wi_max=%d, trending",
					name, f+1, w, r.WarmupTrend[f], cfg.WarmupMax)
			}
		}
		want := Note{Problem: "warm-up still trending at -wi-max (its iterations still getting faster or slower)", Advice: "raise -wi-max"}
		if w := r.Warnings(); len(w) != 1 || w[0] != want {
			t.Errorf("%s: Warnings() = %q, want only %q", name, w, want)
		}
	}
}

func TestNoWarmup(t *testing.T) {
	cfg := DefaultConfig
	cfg.WarmupMin, cfg.WarmupMax = 0, 0
	r := simulate(NewController(cfg, mustNew("cv", DefaultOptions)), nil, perFork(agreeing))
	if r.Forks != 2 || !r.Stable || !reflect.DeepEqual(r.Warmup, []int{0, 0}) {
		t.Errorf("without warm-up: %+v", r)
	}
	if w := r.Warnings(); w != nil {
		t.Errorf("without warm-up: Warnings() = %q, want none", w)
	}
}

// TestDeadForks checks forks whose process dies: they count towards f_max,
// a fork without measurements skips the fork checkpoint, and partial
// measurements are kept.
func TestDeadForks(t *testing.T) {
	cfg := DefaultConfig
	ctl := NewController(cfg, mustNew("cv", DefaultOptions))
	for range cfg.ForksMax {
		if !ctl.NeedFork() {
			t.Fatal("NeedFork false before f_max with no measurement at all")
		}
		ctl.StartFork()
		ctl.Warmup(1, Unmeasured)
		ctl.EndFork() // died in warm-up
	}
	r := ctl.Report()
	if ctl.NeedFork() || !r.Done || r.Stable || r.Forks != cfg.ForksMax || r.Measured != 0 {
		t.Fatalf("after %d dead forks: NeedFork %v, %+v", cfg.ForksMax, ctl.NeedFork(), r)
	}
	if !strings.Contains(r.Reason, "without a fork checkpoint") {
		t.Errorf("Reason %q", r.Reason)
	}

	// Fork 1 dies in warm-up; forks 2 and 3 agree, so the checkpoint after
	// fork 3 is the first with two forks of measurements.
	ctl = NewController(cfg, mustNew("cv", DefaultOptions))
	ctl.StartFork()
	ctl.EndFork()
	r = simulate(ctl, series(constantSeries(cfg.WarmupMax)), perFork(agreeing))
	if r.Forks != 3 || !r.Stable {
		t.Errorf("dead first fork: %+v, want stable after 3 forks", r)
	}

	// A fork that dies after 4 of 10 measurements keeps them.
	ctl = NewController(cfg, mustNew("cv", DefaultOptions))
	ctl.StartFork()
	for ctl.WantWarmup() {
		ctl.Warmup(1, Unmeasured)
	}
	for i := range 4 {
		ctl.Measure(agreeing(0)[i])
	}
	ctl.EndFork()
	if r := ctl.Report(); r.Measured != 4 || r.Done || !strings.HasPrefix(r.Reason, "incomplete") {
		t.Errorf("partial fork: %+v", r)
	}
	if w := ctl.Report().Warnings(); w != nil {
		t.Errorf("incomplete run: Warnings() = %q, want none", w)
	}
}

func TestReproducible(t *testing.T) {
	run := func(seed uint64) Report {
		o := DefaultOptions
		o.Seed = seed
		noisyFork := func(f int) []float64 { return noisy(10, uint64(f)) }
		r := simulate(NewController(DefaultConfig, mustNew("rciw", o)), series(noisy20(DefaultConfig.WarmupMax)), perFork(noisyFork))
		r.CheckTime = 0
		return r
	}
	a, b := run(3), run(3)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("same seed, different reports:\n%+v\n%+v", a, b)
	}
}

func TestControllerMisuse(t *testing.T) {
	cfg := Config{WarmupMin: 1, WarmupMax: 2, Measure: 1, ForksMin: 1, ForksMax: 1, IterTime: 1}
	mustPanic := func(name string, f func(*Controller)) {
		t.Helper()
		ctl := NewController(cfg, Static{})
		defer func() {
			if recover() == nil {
				t.Errorf("%s: no panic", name)
			}
		}()
		f(ctl)
	}
	mustPanic("Warmup before StartFork", func(c *Controller) { c.Warmup(1, Unmeasured) })
	mustPanic("Measure before StartFork", func(c *Controller) { c.Measure(1) })
	mustPanic("EndFork before StartFork", func(c *Controller) { c.EndFork() })
	mustPanic("Measure in warm-up", func(c *Controller) { c.StartFork(); c.Measure(1) })
	mustPanic("StartFork twice", func(c *Controller) { c.StartFork(); c.StartFork() })
	mustPanic("Warmup after warm-up", func(c *Controller) {
		c.StartFork()
		c.Warmup(1, Unmeasured)
		c.Warmup(1, Unmeasured)
		c.Warmup(1, Unmeasured)
	})
	mustPanic("Measure beyond mi", func(c *Controller) {
		c.StartFork()
		c.Warmup(1, Unmeasured)
		c.Warmup(1, Unmeasured)
		c.Measure(1)
		c.Measure(1)
	})
	mustPanic("StartFork beyond f_max", func(c *Controller) {
		c.StartFork()
		c.EndFork()
		c.StartFork()
	})
	mustPanic("invalid Config", func(*Controller) { NewController(Config{}, Static{}) })
	mustPanic("nil Criterion", func(*Controller) { NewController(cfg, nil) })
}
