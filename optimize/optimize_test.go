package optimize

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
)

// oneSuiteRun returns a benchmark of one suite run whose forks hold the
// given iterations.
func oneSuiteRun(t *testing.T, name string, forks ...[]float64) *Benchmark {
	t.Helper()
	b, err := NewBenchmark(bench.Key{Package: "p", Name: name}, [][][]float64{forks})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestOptimizeKnown checks Algorithm 1 on hand-built 1×3×3 benchmarks with
// the CV metric, whose values are easy to derive. Every configuration
// contains value [0][0][0]; with it at 105 and every other at 100, a
// configuration of n values has CV (5/√n)/(100 + 5/n) (deviations 5(1−1/n)
// once and −5/n n−1 times, Σ = 25(n−1)/n):
//
//	n = 3: 0.02857   n = 4: 0.02469   n = 6: 0.02024   n = 9: 0.01660
func TestOptimizeKnown(t *testing.T) {
	cvOf := func(n float64) float64 { return 5 / math.Sqrt(n) / (100 + 5/n) }
	for _, c := range []struct {
		name      string
		b         *Benchmark
		threshold float64
		want      bench.Levels
		stable    bool
		metric    float64
	}{
		{
			// The cost-6 class is the first with a stable configuration;
			// (1,2,3) and (1,3,2) hold the same values in the same order,
			// so their metrics tie exactly: the first in (s,i,d) order wins.
			name:      "cheapest stable, exact tie",
			b:         oneSuiteRun(t, "Outlier", []float64{105, 100, 100}, []float64{100, 100, 100}, []float64{100, 100, 100}),
			threshold: 0.021, want: bench.Levels{SuiteRuns: 1, Forks: 2, Iterations: 3}, stable: true, metric: cvOf(6),
		},
		{
			// Threshold exactly the metric of n = 4: stable means ≤.
			name:      "metric equal to the threshold",
			b:         oneSuiteRun(t, "Outlier", []float64{105, 100, 100}, []float64{100, 100, 100}, []float64{100, 100, 100}),
			threshold: stats.CV([]float64{105, 100, 100, 100}), want: bench.Levels{SuiteRuns: 1, Forks: 2, Iterations: 2}, stable: true, metric: cvOf(4),
		},
		{
			// Both cost-3 configurations are stable; (1,3,1)'s values
			// 100, 100.2, 100.4 vary half as much as (1,1,3)'s 100,
			// 100.4, 100.8, so the lower metric wins over the (s,i,d)
			// order.
			name:      "tie in cost, lower metric",
			b:         oneSuiteRun(t, "Drift", []float64{100, 100.4, 100.8}, []float64{100.2, 100, 100}, []float64{100.4, 100, 100}),
			threshold: 0.01, want: bench.Levels{SuiteRuns: 1, Forks: 3, Iterations: 1}, stable: true, metric: stats.CV([]float64{100, 100.2, 100.4}),
		},
		{
			name:      "nothing stable",
			b:         oneSuiteRun(t, "Noisy", []float64{105, 100, 100}, []float64{100, 100, 100}, []float64{100, 100, 100}),
			threshold: 0.015, want: bench.Levels{SuiteRuns: 1, Forks: 3, Iterations: 3}, stable: false, metric: cvOf(9),
		},
		{
			name:      "too few measurements",
			b:         oneSuiteRun(t, "Two", []float64{100, 100}),
			threshold: 0.01, want: bench.Levels{SuiteRuns: 1, Forks: 1, Iterations: 2}, stable: false, metric: 0,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := DefaultOptions
			opts.Metric, opts.Threshold, opts.IterTime = CV, c.threshold, time.Second
			opts.MinForks = 0 // the paper's text: any configuration
			rep, err := Optimize([]*Benchmark{c.b}, opts)
			if err != nil {
				t.Fatal(err)
			}
			res := rep.Results[0]
			p := res.Plan
			if p.Levels != c.want || p.Stable != c.stable || !near(p.Metric, c.metric, 1e-12) && p.Metric != c.metric {
				t.Errorf("plan %v stable %v metric %.17g, want %v %v %.17g", p.Levels, p.Stable, p.Metric, c.want, c.stable, c.metric)
			}
			all := c.b.Values
			rFull := stats.Mean(all)
			rPlan := stats.Mean(c.b.Prefix(nil, c.want))
			if res.Full.Result != rFull || p.Result != rPlan || p.Change != math.Abs(rPlan-rFull)/rFull {
				t.Errorf("r_full %v r_plan %v change %v, want %v %v", res.Full.Result, p.Result, p.Change, rFull, rPlan)
			}
			if rep.FullIterations != len(all) || rep.Plan.Iterations != c.want.Total() || rep.Plan.Time != time.Duration(c.want.Total())*time.Second {
				t.Errorf("iterations full %d plan %d (%v)", rep.FullIterations, rep.Plan.Iterations, rep.Plan.Time)
			}
			if c.stable && !math.IsNaN(res.Full.Metric) {
				t.Errorf("the full configuration's metric was computed: %v", res.Full.Metric)
			}
		})
	}
}

// TestOptimizeBaselines checks the baselines on a hand-built benchmark:
// the minimum is (1,3,1) — the first iteration of each fork — and the
// random configuration is a candidate, the same for the same seed.
func TestOptimizeBaselines(t *testing.T) {
	b := oneSuiteRun(t, "X", []float64{110, 100, 100}, []float64{100, 100, 100}, []float64{100, 100, 100})
	opts := DefaultOptions
	opts.Metric = CV
	opts.MinForks = 0 // the paper's text: any configuration
	rep, err := Optimize([]*Benchmark{b}, opts)
	if err != nil {
		t.Fatal(err)
	}
	m := rep.Results[0].Minimum
	if m.Levels != (bench.Levels{SuiteRuns: 1, Forks: 3, Iterations: 1}) || m.Result != stats.Mean([]float64{110, 100, 100}) || m.Metric != stats.CV([]float64{110, 100, 100}) || m.Stable {
		t.Errorf("minimum %+v", m)
	}
	r := rep.Results[0].Random
	if !slices.Contains(candidates(b.Levels, 0), r.Levels) {
		t.Errorf("random %v is not a candidate", r.Levels)
	}
	seen := map[bench.Levels]bool{}
	for seed := range uint64(40) {
		opts.Seed = seed
		a, _ := Optimize([]*Benchmark{b}, opts)
		again, _ := Optimize([]*Benchmark{b}, opts)
		if a.Results[0].Random != again.Results[0].Random {
			t.Fatalf("seed %d: random baseline %v then %v", seed, a.Results[0].Random.Levels, again.Results[0].Random.Levels)
		}
		seen[a.Results[0].Random.Levels] = true
	}
	// 40 draws from 4 candidates miss one with probability 4·(3/4)^40 < 1e-4.
	if len(seen) != len(candidates(b.Levels, 0)) {
		t.Errorf("random baseline drew %d of %d candidates in 40 seeds", len(seen), len(candidates(b.Levels, 0)))
	}
	if rep.Minimum.Iterations != 3 || !near(rep.Minimum.Saving, 1-3.0/9, 1e-15) {
		t.Errorf("minimum summary %+v", rep.Minimum)
	}
}

// TestSearchMatchesExhaustive requires the search, with its early stops and
// bounds, to give exactly what evaluating every configuration in full gives,
// on varied synthetic benchmarks: every metric, several shapes, noise from
// 0.05% to 20% with and without fork-to-fork variation, and thresholds
// around the metrics' values.
func TestSearchMatchesExhaustive(t *testing.T) {
	r := newRand(11)
	var bs []*Benchmark
	for _, l := range []bench.Levels{{SuiteRuns: 3, Forks: 5, Iterations: 5}, {SuiteRuns: 2, Forks: 3, Iterations: 4}, {SuiteRuns: 1, Forks: 1, Iterations: 9}, {SuiteRuns: 1, Forks: 4, Iterations: 1}, {SuiteRuns: 4, Forks: 1, Iterations: 1}, {SuiteRuns: 1, Forks: 1, Iterations: 2}} {
		for _, cv := range []float64{0.0005, 0.003, 0.01, 0.03, 0.2} {
			for _, between := range []float64{0, 0.5} {
				bs = append(bs, synth(r, fmt.Sprintf("%v/%v/%v", l, cv, between), l, 1e-6, cv, cv*between))
			}
		}
	}
	replicates := []int{400}
	if !testing.Short() {
		replicates = append(replicates, 10000)
	}
	for _, reps := range replicates {
		for _, m := range []Metric{CV, RMAD, RCIWMean, RCIWT, RCIWMedian} {
			if reps > 400 && m != RCIWMean {
				continue
			}
			for _, thr := range []float64{0.003, 0.01, 0.03} {
				opts := DefaultOptions
				opts.Metric, opts.Threshold, opts.Bootstrap.Replicates = m, thr, reps
				var searched, exhaustive, proven int
				for _, b := range bs {
					if reps > 400 && b.Levels != (bench.Levels{SuiteRuns: 3, Forks: 5, Iterations: 5}) {
						continue
					}
					cs := candidates(b.Levels, 0)
					e := newEvaluator(m, opts.Bootstrap)
					got := optimizeOne(e, b, cs, &opts, false)
					searched += e.evaluated
					proven += e.proven
					ex := newEvaluator(m, opts.Bootstrap)
					want := optimizeOne(ex, b, cs, &opts, true)
					exhaustive += ex.evaluated
					if !sameResult(got, want) {
						t.Errorf("%v reps=%d thr=%v %s: search %+v, exhaustive %+v", m, reps, thr, b.Key.Name, got.Plan, want.Plan)
					}
				}
				t.Logf("%v reps=%d thr=%v: %d configurations evaluated (%d stopped early), exhaustive %d", m, reps, thr, searched, proven, exhaustive)
				if m.bootstrapped() && thr == 0.01 && proven == 0 {
					t.Errorf("%v: no configuration stopped early; the bound is not exercised", m)
				}
			}
		}
	}
}

// sameResult compares results to the bit.
func sameResult(a, b Result) bool {
	eq := func(x, y Choice) bool {
		return x.Levels == y.Levels && x.Stable == y.Stable && same(x.Metric, y.Metric) && same(x.Result, y.Result) && same(x.Change, y.Change)
	}
	return a.Key == b.Key && eq(a.Full, b.Full) && eq(a.Plan, b.Plan) && eq(a.Minimum, b.Minimum) && eq(a.Random, b.Random)
}

// TestOptimizeDeterministic checks that results depend neither on the
// number of workers nor on the order of the benchmarks.
func TestOptimizeDeterministic(t *testing.T) {
	bs := suite(5, 24, bench.Levels{SuiteRuns: 3, Forks: 5, Iterations: 5})
	opts := DefaultOptions
	opts.Bootstrap.Replicates = 1000
	opts.Workers = 1
	one, err := Optimize(bs, opts)
	if err != nil {
		t.Fatal(err)
	}
	rev := slices.Clone(bs)
	slices.Reverse(rev)
	opts.Workers = 4
	four, err := Optimize(rev, opts)
	if err != nil {
		t.Fatal(err)
	}
	for k := range bs {
		if a, b := one.Results[k], four.Results[len(bs)-1-k]; !sameResult(a, b) {
			t.Errorf("%s: %+v with one worker, %+v with four in reverse order", a.Key, a.Plan, b.Plan)
		}
	}
	if one.Plan != four.Plan || one.Minimum != four.Minimum || one.Random != four.Random {
		t.Errorf("summaries differ: %+v, %+v", one.Plan, four.Plan)
	}
}

func TestOptimizeErrors(t *testing.T) {
	good := oneSuiteRun(t, "X", []float64{1, 2, 3})
	bad := &Benchmark{Key: bench.Key{Name: "Short"}, Levels: bench.Levels{SuiteRuns: 1, Forks: 1, Iterations: 3}, Values: []float64{1, 2}}
	for name, c := range map[string]struct {
		bs   []*Benchmark
		edit func(*Options)
		want string
	}{
		"metric":     {[]*Benchmark{good}, func(o *Options) { o.Metric = 0 }, "metric Metric(0): unknown stability metric"},
		"threshold":  {[]*Benchmark{good}, func(o *Options) { o.Threshold = 0 }, "threshold 0: "},
		"NaN":        {[]*Benchmark{good}, func(o *Options) { o.Threshold = math.NaN() }, "threshold NaN: "},
		"Inf":        {[]*Benchmark{good}, func(o *Options) { o.Threshold = math.Inf(1) }, "threshold +Inf: "},
		"level":      {[]*Benchmark{good}, func(o *Options) { o.Bootstrap.Level = 1 }, "level 1: "},
		"level NaN":  {[]*Benchmark{good}, func(o *Options) { o.Bootstrap.Level = math.NaN() }, "level NaN: "},
		"replicates": {[]*Benchmark{good}, func(o *Options) { o.Bootstrap.Replicates = 0 }, "reps 0: "},
		"few reps":   {[]*Benchmark{good}, func(o *Options) { o.Bootstrap.Replicates = MinReplicates - 1 }, "reps 99: "},
		"many reps":  {[]*Benchmark{good}, func(o *Options) { o.Bootstrap.Replicates = 1e12 }, "reps 1000000000000: "},
		"min-forks":  {[]*Benchmark{good}, func(o *Options) { o.MinForks = -1 }, "min-forks -1: "},
		"workers":    {[]*Benchmark{good}, func(o *Options) { o.Workers = -1 }, "workers -1: "},
		"iteration":  {[]*Benchmark{good}, func(o *Options) { o.IterTime = -1 }, "iteration time -1ns: "},
		"values":     {[]*Benchmark{bad}, func(*Options) {}, "Short: 2 values for levels 1,1,3"},
		"duplicate":  {[]*Benchmark{good, good}, func(*Options) {}, "benchmark p.X given twice"},
		"nil":        {[]*Benchmark{nil}, func(*Options) {}, "nil benchmark"},
	} {
		opts := DefaultOptions
		c.edit(&opts)
		if _, err := Optimize(c.bs, opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
		}
	}
	// Metrics that do not bootstrap neither check nor use the bootstrap.
	for _, b := range []stats.Bootstrap{{}, {Level: 0.99, Replicates: -1}, {Level: 0.99, Replicates: 1e12}} {
		opts := DefaultOptions
		opts.Metric, opts.Bootstrap = CV, b
		if _, err := Optimize([]*Benchmark{good}, opts); err != nil {
			t.Errorf("cv with bootstrap %+v: %v", b, err)
		}
	}
}

// TestNewPlan checks that a report's plan carries its settings and every
// benchmark's choice, and validates.
func TestNewPlan(t *testing.T) {
	bs := suite(3, 6, bench.Levels{SuiteRuns: 2, Forks: 3, Iterations: 4})
	opts := DefaultOptions
	opts.Bootstrap.Replicates = 500
	opts.IterTime = 50 * time.Millisecond
	rep, err := Optimize(bs, opts)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlan(rep)
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if p.Levels != (bench.Levels{SuiteRuns: 2, Forks: 3, Iterations: 4}) || p.IterTime != opts.IterTime || p.Metric != opts.Metric || p.Seed != opts.Seed || p.Bootstrap != opts.Bootstrap || len(p.Benchmarks) != len(bs) {
		t.Errorf("plan settings %+v", p)
	}
	for k, b := range p.Benchmarks {
		res := rep.Results[k]
		if b.Key != res.Key || b.Levels != res.Plan.Levels || !same(b.Metric, res.Plan.Metric) || b.Stable != res.Plan.Stable {
			t.Errorf("plan entry %+v, result %+v", b, res.Plan)
		}
	}
}
