package optimize

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
)

// TestMetricKnown checks CV and RMAD on small samples derived by hand
// (R: sd(x)/mean(x) and mad(x, constant = 1)/median(x) give the same);
// tolerance 1e-14 relative, rounding only.
//
//	x = 1, 2, 3, 4:   mean 2.5, sd = sqrt(5/3), CV = sqrt(5/3)/2.5;
//	                  |x − 2.5| = 1.5, .5, .5, 1.5, MAD = 1, RMAD = 1/2.5
//	x = 2, 4, 4, 4, 5, 5, 7, 9:  mean 5, Σ(x−5)² = 32, sd = sqrt(32/7);
//	                  median 4.5, |x − 4.5| sorted .5 ×5, 2.5, 2.5, 4.5,
//	                  MAD = .5, RMAD = 1/9
func TestMetricKnown(t *testing.T) {
	a := []float64{1, 2, 3, 4}
	b := []float64{2, 4, 4, 4, 5, 5, 7, 9}
	for _, c := range []struct {
		m    Metric
		x    []float64
		want float64
	}{
		{CV, a, math.Sqrt(5.0/3) / 2.5},
		{RMAD, a, 0.4},
		{CV, b, math.Sqrt(32.0/7) / 5},
		{RMAD, b, 1.0 / 9},
	} {
		e := newEvaluator(c.m, stats.DefaultBootstrap)
		got, exact := e.value(c.x, math.NaN(), 1, 2)
		if !exact || !near(got, c.want, 1e-14) {
			t.Errorf("%v(%v) = %.17g (exact %v), want %.17g", c.m, c.x, got, exact, c.want)
		}
	}
}

// TestMetricMatchesStats requires the RCIWs to be those of stats'
// intervals to the bit, for samples with ties and without, for any number
// of replicates, and whether or not a limit makes the evaluator draw in
// chunks and check its bound. The limit 1e300 is reached only by infinite
// widths (bootstrap-t on few values with ties), which must stop early with
// a bound that is above the limit and no larger than the width.
func TestMetricMatchesStats(t *testing.T) {
	src := newRand(1)
	for _, n := range []int{2, 3, 4, 5, 8, 25, 75} {
		x := make([]float64, n)
		ties := make([]float64, n)
		for i := range x {
			x[i] = 100 * math.Exp(0.02*src.NormFloat64())
			ties[i] = math.Round(x[i])
		}
		for _, data := range [][]float64{x, ties} {
			for _, reps := range []int{1, 2, 7, 400, 2000} {
				b := stats.Bootstrap{Level: 0.99, Replicates: reps}
				for _, m := range []Metric{RCIWMean, RCIWT, RCIWMedian} {
					e := newEvaluator(m, b)
					for seed := range uint64(3) {
						r := rand.New(rand.NewPCG(seed, 99))
						var want float64
						if m == RCIWT {
							want = b.Studentized(data, r).RelWidth()
						} else {
							want = b.Percentile(data, m.Stat(), r).RelWidth()
						}
						for _, limit := range []float64{math.NaN(), 1e300} {
							got, exact := e.value(data, limit, seed, 99)
							// An early stop must be a lower bound above the limit.
							if exact && !same(got, want) || !exact && !(got > limit && got <= want) {
								t.Errorf("%v n=%d reps=%d seed=%d limit=%v: %v (exact %v), stats %v", m, n, reps, seed, limit, got, exact, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestMetricNormalTheory compares the RCIWs of a large normal sample with
// their normal-theory widths: 2·z(0.995)·s/√n relative to the mean for the
// mean's intervals, and 2·z(0.995)·sqrt(π/2)·s/√n relative to the median
// for the median's (the asymptotic standard error of the median of a normal
// sample). Tolerances: 5% for the mean (the 0.5% quantiles of 10,000
// replicates have a relative error of about 1.3%), 10% for the median,
// whose bootstrap distribution is discrete.
func TestMetricNormalTheory(t *testing.T) {
	const n, z = 2000, 2.5758293035489004
	r := newRand(7)
	x := make([]float64, n)
	for i := range x {
		x[i] = 100 + r.NormFloat64()
	}
	s := stats.StdDev(x) / math.Sqrt(n)
	for _, c := range []struct {
		m    Metric
		want float64
		tol  float64
	}{
		{RCIWMean, 2 * z * s / stats.Mean(x), 0.05},
		{RCIWT, 2 * z * s / stats.Mean(x), 0.05},
		{RCIWMedian, 2 * z * math.Sqrt(math.Pi/2) * s / stats.Median(x), 0.10},
	} {
		got, _ := newEvaluator(c.m, stats.DefaultBootstrap).value(x, math.NaN(), 3, 4)
		if !near(got, c.want, c.tol) {
			t.Errorf("%v = %.5g, normal theory %.5g (tolerance %v)", c.m, got, c.want, c.tol)
		}
	}
}

// TestMetricSeeded checks that a seed reproduces a bootstrap metric and
// another seed changes it.
func TestMetricSeeded(t *testing.T) {
	x := synth(newRand(2), "x", bench.Levels{SuiteRuns: 1, Forks: 1, Iterations: 30}, 100, 0.02, 0).Values
	for _, m := range []Metric{RCIWMean, RCIWT, RCIWMedian} {
		e := newEvaluator(m, stats.Bootstrap{Level: 0.99, Replicates: 1000})
		a, _ := e.value(x, math.NaN(), 1, 1)
		b, _ := e.value(x, math.NaN(), 1, 1)
		c, _ := e.value(x, math.NaN(), 2, 1)
		if a != b || a == c {
			t.Errorf("%v: seed 1 gives %v then %v, seed 2 %v", m, a, b, c)
		}
	}
}

func TestMetricBadData(t *testing.T) {
	for _, m := range []Metric{CV, RMAD, RCIWMean, RCIWT, RCIWMedian} {
		e := newEvaluator(m, stats.Bootstrap{Level: 0.99, Replicates: 100})
		bad := [][]float64{{1, math.NaN(), 3}}
		if m != RMAD { // RMAD of one value is 0/x = 0
			bad = append(bad, []float64{5})
		}
		for _, x := range bad {
			if v, _ := e.value(x, 0.01, 1, 1); !math.IsNaN(v) {
				t.Errorf("%v(%v) = %v, want NaN", m, x, v)
			}
		}
	}
}

func TestMetricNames(t *testing.T) {
	for _, name := range MetricNames {
		m, err := ParseMetric(name)
		if err != nil || m.String() != name || !m.valid() {
			t.Errorf("ParseMetric(%q) = %v, %v", name, m, err)
		}
	}
	if _, err := ParseMetric("rciw"); err == nil {
		t.Error("ParseMetric(rciw) accepted")
	}
	if Metric(0).valid() || Metric(0).String() != "Metric(0)" {
		t.Error("the zero Metric is valid")
	}
	for m, want := range map[Metric]stats.Stat{CV: stats.StatMean, RMAD: stats.StatMedian, RCIWMean: stats.StatMean, RCIWT: stats.StatMean, RCIWMedian: stats.StatMedian} {
		if m.Stat() != want {
			t.Errorf("%v.Stat() = %v, want %v", m, m.Stat(), want)
		}
	}
}

// TestQuantile7 checks the selection against sorting: kth's value and
// partition, and quantile7 against stats.Quantile to the bit, on data with
// many ties and infinities as bootstrap-t replicates have.
func TestQuantile7(t *testing.T) {
	r := newRand(3)
	for trial := range 300 {
		n := 1 + r.IntN(60)
		x := make([]float64, n)
		for i := range x {
			switch r.IntN(8) {
			case 0:
				x[i] = math.Inf(1)
			case 1:
				x[i] = math.Inf(-1)
			default:
				x[i] = float64(r.IntN(5+trial%20)) / 3
			}
		}
		sorted := slices.Clone(x)
		slices.Sort(sorted)
		k := r.IntN(n)
		y := slices.Clone(x)
		if v := kth(y, k); v != sorted[k] || y[k] != v {
			t.Fatalf("kth(%v, %d) = %v, sorted %v", x, k, v, sorted[k])
		}
		for i := range y {
			if i < k && y[i] > y[k] || i > k && y[i] < y[k] {
				t.Fatalf("kth(%v, %d) left %v unpartitioned", x, k, y)
			}
		}
		for _, p := range []float64{0, 0.005, 0.25, 0.5, 0.995, 1, r.Float64()} {
			if got, want := quantile7(slices.Clone(x), p), stats.Quantile(x, p); !same(got, want) {
				t.Fatalf("quantile7(%v, %v) = %v, stats.Quantile %v", x, p, got, want)
			}
		}
	}
}
