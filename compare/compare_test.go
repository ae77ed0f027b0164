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

func TestVerdict(t *testing.T) {
	iv := func(c, lo, hi float64) stats.Interval { return stats.Interval{Center: c, Lo: lo, Hi: hi, Level: 0.99} }
	for _, tc := range []struct {
		ratio  stats.Interval
		better int
		want   Verdict
	}{
		{iv(1.10, 1.05, 1.15), -1, Worse},
		{iv(1.10, 1.05, 1.15), +1, Better},
		{iv(1.10, 1.05, 1.15), 0, Higher},
		{iv(0.90, 0.85, 0.95), -1, Better},
		{iv(0.90, 0.85, 0.95), 0, Lower},
		{iv(1.10, 0.99, 1.20), -1, NoChange}, // interval includes 1
		{iv(1.02, 1.01, 1.03), -1, NoChange}, // excludes 1 but below the threshold
		{iv(1.03, 1.02, 1.04), -1, NoChange}, // exactly at the threshold is not beyond it
		{iv(0.96, 0.95, 0.97), -1, Better},
		{iv(1.10, math.NaN(), math.NaN()), -1, NoChange},
	} {
		if got := verdict(tc.ratio, 0.03, tc.better); got != tc.want {
			t.Errorf("verdict(%+v, better %d) = %v, want %v", tc.ratio, tc.better, got.Word("sec/op"), tc.want.Word("sec/op"))
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
				if row.Verdict != NoChange {
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
	pairedOld.Settings = map[string]string{"duet": "d1", "duet-side": "old"}
	pairedNew.Settings = map[string]string{"duet": "d1", "duet-side": "new"}
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
