package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
)

func TestMinSamples(t *testing.T) {
	// benchstat needs 6 samples at 95% (its "need >= 6 samples" warning).
	for _, tc := range []struct {
		alpha float64
		want  int
	}{{0.05, 6}, {0.01, 8}, {0.1, 5}, {0.001, 11}} {
		if got := MinSamples(tc.alpha); got != tc.want {
			t.Errorf("MinSamples(%v) = %d, want %d", tc.alpha, got, tc.want)
		}
	}
}

// TestVerdict checks the rule of the package comment with a threshold of
// 3%: clear of 1 and beyond the threshold is a change; inside ±3% is no
// change; anything else, notably an interval straddling the threshold, is
// inconclusive, with the larger half-width relative to the centre as its
// resolution.
func TestVerdict(t *testing.T) {
	iv := func(c, lo, hi float64) stats.Interval { return stats.Interval{Center: c, Lo: lo, Hi: hi, Level: 0.99} }
	nan := math.NaN()
	for _, tc := range []struct {
		ratio  stats.Interval
		better int
		want   Verdict
		res    float64 // want resolution; NaN for none
	}{
		{iv(1.10, 1.05, 1.15), -1, Worse, 0.05 / 1.10},
		{iv(1.10, 1.05, 1.15), +1, Better, 0.05 / 1.10},
		{iv(1.10, 1.05, 1.15), 0, Higher, 0.05 / 1.10},
		{iv(0.90, 0.85, 0.95), -1, Better, 0.05 / 0.90},
		{iv(0.90, 0.85, 0.95), 0, Lower, 0.05 / 0.90},
		{iv(0.96, 0.95, 0.97), -1, Better, 0.01 / 0.96},
		// Clear of 1, beyond the threshold, though the interval reaches
		// inside it: a change, as before.
		{iv(1.05, 1.01, 1.09), -1, Worse, 0.04 / 1.05},
		// The whole interval inside ±3%, with or without 1 in it.
		{iv(1.02, 1.01, 1.03), -1, NoChange, 0.01 / 1.02},
		{iv(1.00, 0.98, 1.02), -1, NoChange, 0.02},
		{iv(0.99, 0.97, 1.01), -1, NoChange, 0.02 / 0.99},
		{iv(1, 1, 1), -1, NoChange, 0},
		// Straddling the threshold: inconclusive. The first is the wide
		// interval the old rule called "no change".
		{iv(0.95, 0.28, 1.47), -1, Inconclusive, 0.67 / 0.95},
		{iv(1.10, 0.99, 1.20), -1, Inconclusive, 0.11 / 1.10},
		{iv(1.00, 0.96, 1.04), -1, Inconclusive, 0.04},
		// Clear of 1 but the estimate exactly at the threshold: the change
		// may be relevant or not.
		{iv(1.03, 1.02, 1.04), -1, Inconclusive, 0.01 / 1.03},
		{iv(1.10, nan, nan), -1, Inconclusive, nan},
	} {
		got, res := verdict(tc.ratio, 0.03, tc.better)
		if got != tc.want {
			t.Errorf("verdict(%+v, better %d) = %v, want %v", tc.ratio, tc.better, got.Word("sec/op"), tc.want.Word("sec/op"))
		}
		// Resolutions are simple quotients; 1e-12 leaves room for rounding.
		if math.IsNaN(tc.res) != math.IsNaN(res) || math.Abs(res-tc.res) > 1e-12 {
			t.Errorf("verdict(%+v): resolution %v, want %v", tc.ratio, res, tc.res)
		}
	}
	// A threshold of 0, as allocs/op uses: only [1, 1] is no change.
	for _, tc := range []struct {
		ratio stats.Interval
		want  Verdict
	}{
		{iv(1, 1, 1), NoChange},
		{iv(1.01, 1.001, 1.02), Worse},
		{iv(1.01, 0.999, 1.02), Inconclusive},
	} {
		if got, _ := verdict(tc.ratio, 0, -1); got != tc.want {
			t.Errorf("threshold 0: verdict(%+v) = %v, want %v", tc.ratio, got.Word("allocs/op"), tc.want.Word("allocs/op"))
		}
	}
}

// forkRun simulates a run of benchmarks measured in forks: each fork has its
// own level (between-process variance), iterations vary around it. factor
// scales benchmark "b3".
func forkRun(r *rand.Rand, label string, forks, iters int, factor float64) *bench.Run {
	return noisyForkRun(r, label, forks, iters, factor, 0.02)
}

// noisyForkRun is forkRun with a chosen between-fork noise (relative sd).
func noisyForkRun(r *rand.Rand, label string, forks, iters int, factor, forkNoise float64) *bench.Run {
	run := &bench.Run{Label: label}
	for b := range 4 {
		k := bench.Key{Package: "p", Name: fmt.Sprintf("b%d", b), Procs: 2}
		base := 1e-6 * float64(b+1)
		if b == 3 {
			base *= factor
		}
		for f := range forks {
			level := base * (1 + forkNoise*r.NormFloat64())
			for i := range iters {
				v := level * (1 + 0.01*r.NormFloat64())
				run.Measurements = append(run.Measurements, bench.Measurement{
					Key: k, Coord: bench.Coord{Fork: f + 1, Iteration: i}, N: 100,
					Values: []bench.Value{{Value: v, Unit: "sec/op"}},
				})
			}
		}
	}
	return run
}

func TestHierarchicalWithForks(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	old, new := forkRun(r, "old", 5, 10, 1), forkRun(r, "new", 5, 10, 1.10)
	opts := DefaultOptions
	opts.Replicates = 2000
	res, err := Compare(old, new, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range res.Rows {
		if row.Method != "hierarchical" || row.Old.Forks != 5 || row.Old.N != 50 {
			t.Errorf("%s: method %q with %d forks, %d values; want hierarchical over 5 forks of 10", row.Key, row.Method, row.Old.Forks, row.Old.N)
		}
		if !row.Ratio.Contains(row.Ratio.Center) {
			t.Errorf("%s: interval %+v does not contain its centre", row.Key, row.Ratio)
		}
	}
	if got := res.Rows[3].Verdict; got != Worse {
		t.Errorf("10%% slowdown: verdict %v, want slower (ratio %+v)", got.Word("sec/op"), res.Rows[3].Ratio)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("unexpected warnings %q", res.Warnings)
	}
}

// TestFalsePositives is a seeded simulation: A/A comparisons of data with
// between-fork variance must almost never report a change, and a 10%
// slowdown must always be found.
func TestFalsePositives(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	const trials = 100
	r := rand.New(rand.NewPCG(3, 4))
	opts := DefaultOptions
	opts.Replicates = 1000
	for _, tc := range []struct {
		forks     int
		forkNoise float64
		minPower  float64
	}{
		// 2% between forks is a noisy machine: with 5 forks the ratio's
		// standard error is 1.3%, and a 10% change is found in most trials.
		{5, 0.02, 0.95},
		// At 1% it must be found every time.
		{5, 0.01, 1},
		// Three forks, the fewest mbench run takes by default.
		{3, 0.01, 0.90},
	} {
		var changed, compared, detected int
		for range trials {
			res, err := Compare(noisyForkRun(r, "a", tc.forks, 10, 1, tc.forkNoise), noisyForkRun(r, "b", tc.forks, 10, 1.10, tc.forkNoise), opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, row := range res.Rows[:3] {
				compared++
				if row.Verdict != NoChange && row.Verdict != Inconclusive {
					changed++
				}
			}
			if res.Rows[3].Verdict == Worse {
				detected++
			}
		}
		t.Logf("%d forks, fork noise %v: A/A false positives %d of %d, 10%% slowdown found in %d of %d",
			tc.forks, tc.forkNoise, changed, compared, detected, trials)
		// A 99% interval and a 3% threshold: at most 1% false alarms.
		if rate := float64(changed) / float64(compared); rate > 0.01 {
			t.Errorf("%d forks, fork noise %v: A/A false-positive rate %.1f%% (%d of %d), want <= 1%%", tc.forks, tc.forkNoise, 100*rate, changed, compared)
		}
		if power := float64(detected) / trials; power < tc.minPower {
			t.Errorf("%d forks, fork noise %v: 10%% slowdown detected in %d of %d trials, want >= %.0f%%", tc.forks, tc.forkNoise, detected, trials, 100*tc.minPower)
		}
	}
}

func TestReproducible(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	old, new := forkRun(r, "old", 4, 8, 1), forkRun(r, "new", 4, 8, 1.05)
	opts := DefaultOptions
	opts.Replicates = 500
	a, err := Compare(old, new, opts)
	if err != nil {
		t.Fatal(err)
	}
	prev := runtime.GOMAXPROCS(1)
	b, err := Compare(old, new, opts)
	runtime.GOMAXPROCS(prev)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed, different results (parallelism leaks into the result)")
	}
	opts.Seed++
	c, _ := Compare(old, new, opts)
	if reflect.DeepEqual(a.Rows, c.Rows) {
		t.Error("the seed has no effect")
	}
}

func TestErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	run := forkRun(r, "x", 2, 8, 1)
	for _, tc := range []struct {
		mod  func(*Options)
		want string
	}{
		{func(o *Options) { o.Metric = "B/op" }, "metric B/op is not in either input; the inputs have: [sec/op]"},
		{func(o *Options) { o.Alpha = 0 }, "alpha"},
		{func(o *Options) { o.Alpha = math.NaN() }, "alpha"},
		{func(o *Options) { o.Alpha = 1 }, "alpha"},
		{func(o *Options) { o.Threshold = -1 }, "threshold"},
		{func(o *Options) { o.Threshold = math.Inf(1) }, "threshold"},
		{func(o *Options) { o.Threshold = math.NaN() }, "threshold"},
		{func(o *Options) { o.Replicates = 10 }, "replicates"},
	} {
		opts := DefaultOptions
		tc.mod(&opts)
		_, err := Compare(run, run, opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want an error containing %q", err, tc.want)
		}
	}
	other := &bench.Run{Label: "y", Measurements: []bench.Measurement{{Key: bench.Key{Name: "zzz"}, N: 1, Values: []bench.Value{{Value: 1, Unit: "sec/op"}}}}}
	if _, err := Compare(run, other, DefaultOptions); err == nil || !strings.Contains(err.Error(), "no benchmark in common") {
		t.Errorf("disjoint inputs: %v", err)
	}
}

func TestNsOpMetricAlias(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	run := forkRun(r, "x", 2, 8, 1)
	opts := DefaultOptions
	opts.Metric = "ns/op"
	opts.Replicates = 100
	res, err := Compare(run, run, opts)
	if err != nil || res.Metric != "sec/op" {
		t.Errorf("-metric ns/op: %v, metric %q", err, res.Metric)
	}
}

// TestShiftWarning: a whole run 6% slower, as a machine shift leaves it,
// is pointed out; an ordinary A/A comparison is not.
func TestShiftWarning(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	old := noisyForkRun(r, "a", 5, 10, 1, 0.01)
	shifted := noisyForkRun(r, "b", 5, 10, 1, 0.01)
	for i := range shifted.Measurements {
		shifted.Measurements[i].Values[0].Value *= 1.06
	}
	opts := DefaultOptions
	opts.Replicates = 500
	res, err := Compare(old, shifted, opts)
	if err != nil {
		t.Fatal(err)
	}
	// forkRun has 4 benchmarks; the warning needs 5, so build a wider suite.
	if len(res.Rows) >= shiftMinRows {
		t.Fatalf("test suite too wide: %d rows", len(res.Rows))
	}
	wide := func(run *bench.Run, f float64) *bench.Run {
		out := &bench.Run{Label: run.Label}
		for copyN := range 2 {
			for _, m := range run.Measurements {
				m.Key.Name += fmt.Sprint("-", copyN)
				m.Values = []bench.Value{{Value: m.Values[0].Value * f, Unit: "sec/op"}}
				out.Measurements = append(out.Measurements, m)
			}
		}
		return out
	}
	res, err = Compare(wide(old, 1), wide(old, 1.06), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "8 of 8 benchmarks moved the same way (geomean +6.00%)") {
		t.Errorf("no shift warning for a 6%% shift of everything: %q", res.Warnings)
	}
	// The same data as the two halves of a duet ran at the same time; a
	// machine shift would have hit both, so there is nothing to warn about.
	pairedOld, pairedNew := wide(old, 1), wide(old, 1.06)
	pairedOld.Settings = map[string]string{bench.SettingDuet: "d1", bench.SettingDuetSide: bench.DuetSideOld}
	pairedNew.Settings = map[string]string{bench.SettingDuet: "d1", bench.SettingDuetSide: bench.DuetSideNew}
	res, err = Compare(pairedOld, pairedNew, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Paired || strings.Contains(strings.Join(res.Warnings, "\n"), "moved the same way") {
		t.Errorf("paired %v: shift warning for a duet: %q", res.Paired, res.Warnings)
	}
	res, err = Compare(wide(old, 1), wide(noisyForkRun(r, "c", 5, 10, 1, 0.01), 1), opts)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(res.Warnings, "\n"), "moved the same way") {
		t.Errorf("shift warning on an A/A comparison: %q", res.Warnings)
	}
}

// valuesRun returns a run of one process in which benchmark "b<i>" has the
// values vals[i] of unit.
func valuesRun(label, unit string, vals ...[]float64) *bench.Run {
	run := &bench.Run{Label: label}
	for b, vs := range vals {
		k := bench.Key{Package: "p", Name: fmt.Sprintf("b%d", b), Procs: 2}
		for i, v := range vs {
			run.Measurements = append(run.Measurements, bench.Measurement{
				Key: k, Coord: bench.Coord{Iteration: i}, N: 1000,
				Values: []bench.Value{{Value: v, Unit: unit}},
			})
		}
	}
	return run
}

// repeat returns n copies of v.
func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// TestAllocsExact: allocs/op uses no threshold, so a change of one
// allocation in fifty is reported, identical counts are no change with the
// interval [1, 1], and a change from zero is reported when the sides do not
// overlap.
func TestAllocsExact(t *testing.T) {
	opts := DefaultOptions
	opts.Metric = "allocs/op"
	opts.Replicates = 500
	old := valuesRun("old", "allocs/op", repeat(50, 10), repeat(2, 10), repeat(0, 10), repeat(0, 10), repeat(3, 10))
	new := valuesRun("new", "allocs/op", repeat(51, 10), repeat(2, 10), repeat(1, 10), repeat(0, 10), repeat(0, 10))
	res, err := Compare(old, new, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Threshold != 0 {
		t.Errorf("threshold %v for allocs/op, want 0", res.Threshold)
	}
	for i, want := range []Verdict{Worse, NoChange, Worse, NoChange, Better} {
		row := res.Rows[i]
		if row.Verdict != want {
			t.Errorf("%s: %v → %v allocs/op: %v %+v, want %v", row.Key, row.Old.Center, row.New.Center,
				row.Verdict.Word(res.Metric), row.Ratio, want.Word(res.Metric))
		}
		if want == NoChange && (row.Ratio.Lo != 1 || row.Ratio.Hi != 1) {
			t.Errorf("%s: identical counts: interval %+v, want [1, 1]", row.Key, row.Ratio)
		}
	}
	// The same 2% change in time is under the threshold.
	opts.Metric = "sec/op"
	res, err = Compare(valuesRun("old", "sec/op", repeat(50, 10)), valuesRun("new", "sec/op", repeat(51, 10)), opts)
	if err != nil {
		t.Fatal(err)
	}
	if v := res.Rows[0].Verdict; v != NoChange || res.Threshold != opts.Threshold {
		t.Errorf("2%% change in sec/op: %v with threshold %v, want no change with %v", v.Word("sec/op"), res.Threshold, opts.Threshold)
	}
}

// TestZeroCentre: from an old centre of 0 the ratio is undefined; a change
// is reported only when the sides do not overlap, and overlapping data are
// inconclusive, not "no change".
func TestZeroCentre(t *testing.T) {
	opts := DefaultOptions
	opts.Metric = "B/op"
	opts.Replicates = 500
	opts.Stat = stats.StatMedian
	old := valuesRun("old", "B/op", repeat(0, 10), []float64{0, 0, 0, 0, 0, 0, 8, 8, 8, 8}, repeat(0, 10))
	new := valuesRun("new", "B/op", repeat(16, 10), []float64{0, 0, 0, 0, 0, 0, 16, 16, 16, 16}, []float64{0, 0, 0, 0, 0, 8, 8, 8, 8, 8})
	res, err := Compare(old, new, opts)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []Verdict{Worse, Inconclusive, Inconclusive} {
		row := res.Rows[i]
		if row.Verdict != want {
			t.Errorf("%s: %v, want %v (note %q)", row.Key, row.Verdict.Word(res.Metric), want.Word(res.Metric), row.Note)
		}
	}
	if r := res.Rows[1].Resolution; !math.IsInf(r, 1) {
		t.Errorf("overlapping sides from 0: resolution %v, want +Inf", r)
	}
}

// TestInconclusive: two noisy samples whose interval straddles the
// threshold are inconclusive, and the resolution is the interval's larger
// half-width relative to its centre.
func TestInconclusive(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	old, new := noisyForkRun(r, "old", 3, 10, 1, 0.10), noisyForkRun(r, "new", 3, 10, 1, 0.10)
	opts := DefaultOptions
	opts.Replicates = 500
	res, err := Compare(old, new, opts)
	if err != nil {
		t.Fatal(err)
	}
	inconclusive := 0
	for _, row := range res.Rows {
		iv := row.Ratio
		if row.Verdict == Inconclusive {
			inconclusive++
		}
		if iv.Lo >= 1-opts.Threshold && iv.Hi <= 1+opts.Threshold {
			t.Fatalf("%s: interval %+v inside the threshold; the test needs noisier data", row.Key, iv)
		}
		if row.Verdict == NoChange {
			t.Errorf("%s: no change under the interval %+v", row.Key, iv)
		}
		want := max(iv.Center-iv.Lo, iv.Hi-iv.Center) / iv.Center
		if row.Verdict == Inconclusive && math.Abs(row.Resolution-want) > 1e-12 {
			t.Errorf("%s: resolution %v, want %v", row.Key, row.Resolution, want)
		}
	}
	if inconclusive == 0 {
		t.Error("no inconclusive row; the test needs noisier data")
	}
}

// TestWord: one vocabulary for verdicts: slower and faster for time (and
// throughput), more and less for everything else, whichever way is
// better.
func TestWord(t *testing.T) {
	for _, c := range []struct {
		v      Verdict
		unit   string
		better int
		want   string
	}{
		{Worse, "sec/op", -1, "slower"},
		{Better, "sec/op", -1, "faster"},
		{Worse, "cpu-sec/op", -1, "slower"},
		{Better, "B/s", +1, "faster"},
		{Worse, "B/s", +1, "slower"},
		{Worse, "B/op", -1, "more"},
		{Better, "B/op", -1, "less"},
		{Worse, "allocs/op", -1, "more"},
		{Better, "allocs/op", -1, "less"},
		{Better, "widgets/op", +1, "more"},
		{Worse, "widgets/op", +1, "less"},
		{Higher, "frobs/op", 0, "more"},
		{Lower, "frobs/op", 0, "less"},
		{NoChange, "B/op", -1, "no change"},
		{Inconclusive, "allocs/op", -1, "inconclusive"},
	} {
		r := &Result{Metric: c.unit, Better: c.better}
		if got := r.Word(c.v); got != c.want {
			t.Errorf("%s (better %+d): verdict %d is %q, want %q", c.unit, c.better, c.v, got, c.want)
		}
		if c.better == bench.DefaultBetter(c.unit) {
			if got := c.v.Word(c.unit); got != c.want {
				t.Errorf("%s: Verdict(%d).Word is %q, want %q", c.unit, c.v, got, c.want)
			}
		}
	}
}
