package optimize

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/mbench/mbench/stats"
)

// A Metric is one of Japke et al. 2025 §2's stability metrics: a dimensionless
// measure of variability, lower is more stable.
type Metric int

// The metrics. Each is computed on the measurements of a configuration
// pooled, as the paper does (no fork structure).
const (
	// CV is the coefficient of variation, stats.CV: sd/mean with the n−1
	// standard deviation (R's sd). The authors' code divides by n, which
	// makes its CV smaller by sqrt((n−1)/n), 18% at n = 3.
	CV Metric = iota + 1
	// RMAD is the relative median absolute deviation, stats.RMAD:
	// median(|x − median|)/median.
	RMAD
	// RCIWMean is RCIW₁, the relative width (Hi − Lo)/|mean| of the
	// percentile bootstrap interval of the mean, stats.Bootstrap.Percentile.
	RCIWMean
	// RCIWT is RCIW₂, the relative width (Hi − Lo)/|mean| of the bootstrap-t
	// interval of the mean, stats.Bootstrap.Studentized. Ties among very few
	// values make some of its replicates infinite: with 3 or 4 values the
	// interval is infinite, so this metric never chooses fewer than about 5
	// measurements.
	RCIWT
	// RCIWMedian is RCIW₃, the relative width (Hi − Lo)/|median| of the
	// percentile bootstrap interval of the median. The authors' code
	// resamples the mean here by mistake; this is the median's bootstrap,
	// as the paper defines it.
	RCIWMedian
)

// MetricNames lists the names ParseMetric accepts, in the order of the
// constants.
var MetricNames = []string{"cv", "rmad", "rciw-mean", "rciw-t", "rciw-median"}

// String returns the metric's name as ParseMetric accepts it.
func (m Metric) String() string {
	if m >= CV && m <= RCIWMedian {
		return MetricNames[m-CV]
	}
	return fmt.Sprintf("Metric(%d)", int(m))
}

// ParseMetric returns the Metric named s (one of MetricNames).
func ParseMetric(s string) (Metric, error) {
	for i, n := range MetricNames {
		if s == n {
			return CV + Metric(i), nil
		}
	}
	return 0, fmt.Errorf("unknown stability metric %q (want %s)", s, strings.Join(MetricNames, ", "))
}

// Stat returns the statistic that summarises a benchmark's result r when
// this metric is used: the mean for CV, RCIW₁ and RCIW₂, the median for
// RMAD and RCIW₃ (Japke et al. 2025 §4.2, "we use the mean for performance results
// when the stability metric is based on the mean").
func (m Metric) Stat() stats.Stat {
	if m == RMAD || m == RCIWMedian {
		return stats.StatMedian
	}
	return stats.StatMean
}

// bootstrapped reports whether m is an RCIW, computed by resampling.
func (m Metric) bootstrapped() bool { return m == RCIWMean || m == RCIWT || m == RCIWMedian }

// valid reports whether m is one of the constants.
func (m Metric) valid() bool { return m >= CV && m <= RCIWMedian }

// An evaluator computes one metric for many configurations, reusing its
// scratch: one evaluator per goroutine.
//
// The bootstrap metrics are exactly those of stats (Percentile, Studentized,
// and Interval.RelWidth) for a generator seeded per configuration, so that
// a configuration's metric does not depend on which others were evaluated
// before it. Two things make them cheaper than calling stats:
//
//   - The interval's two quantiles of the replicates are found by selection,
//     O(B), instead of sorting, O(B log B): sorting 10,000 replicates costs
//     several times the draws of a 3-value configuration.
//   - When a limit is given, the replicates are drawn in chunks and after
//     each chunk a lower bound of the final width is checked; once it exceeds
//     the limit the configuration is certainly unstable and the rest is not
//     drawn. The bound is exact, not a statistical guess: the final type 7
//     quantile Q(α/2) of B replicates lies at or below the order statistic
//     of index j = ⌊(B−1)·α/2⌋+1, which is at most the (j+1)-th smallest of
//     any k ≥ j+1 of them; likewise Q(1−α/2) lies at or above the
//     (B−⌊(B−1)(1−α/2)⌋)-th largest of any k of them. The width of the
//     interval is at least the difference of the two (times se for the
//     bootstrap-t), whatever the replicates still to come.
type evaluator struct {
	metric Metric
	boot   stats.Bootstrap
	pcg    *rand.PCG
	rng    *rand.Rand
	buf    []float64 // a configuration's measurements
	reps   []float64 // bootstrap replicates

	// Counters for tests: configurations evaluated, and of them those
	// proven unstable before all replicates were drawn.
	evaluated, proven int
}

func newEvaluator(m Metric, b stats.Bootstrap) *evaluator {
	pcg := rand.NewPCG(0, 0)
	e := &evaluator{metric: m, boot: b, pcg: pcg, rng: rand.New(pcg)}
	// Only the RCIWs use the bootstrap, and Options.Validate checks its
	// replicates only for them.
	if m.bootstrapped() {
		e.reps = make([]float64, b.Replicates)
	}
	return e
}

// boundSlack keeps the early stop sound under rounding: the final width is
// computed with interpolations and differences that can land a few ulps
// below the order statistics the bound uses.
const boundSlack = 1e-9

// value returns the metric of x with the generator seeded (s1, s2). If limit
// is not NaN and the metric is certainly above limit before every replicate
// is drawn, it returns a lower bound of the metric that is above limit and
// exact = false; otherwise the metric itself and exact = true.
func (e *evaluator) value(x []float64, limit float64, s1, s2 uint64) (v float64, exact bool) {
	e.evaluated++
	switch e.metric {
	case CV:
		return stats.CV(x), true
	case RMAD:
		return stats.RMAD(x), true
	}
	e.pcg.Seed(s1, s2)
	var center float64
	var fill func(dst []float64) bool
	switch e.metric {
	case RCIWMean, RCIWMedian:
		s := e.metric.Stat()
		center = s.Of(x)
		fill = func(dst []float64) bool { return stats.Replicates(dst, x, s, e.rng) }
	case RCIWT:
		center = stats.Mean(x)
		fill = func(dst []float64) bool { return stats.StudentizedReplicates(dst, x, e.rng) }
	default:
		panic(fmt.Sprintf("optimize: unknown metric %d", int(e.metric)))
	}
	// se scales the replicates to the interval: 1 for the percentile
	// intervals, sd/√n for the bootstrap-t.
	se := 1.0
	if e.metric == RCIWT {
		se = stats.StdDev(x) / math.Sqrt(float64(len(x)))
	}
	return e.width(center, se, e.metric == RCIWT, fill, limit)
}

// nestedValue returns the metric of a configuration of a benchmark measured
// on several instances: data holds each instance's measurements of the
// configuration (one group per instance), and m is the configuration's
// number of instances. Its bootstrap draws m instances uniformly with
// replacement from all of them, and the measurements of each drawn instance
// as Percentile does, so that the interval's width is the spread of the
// result a run on m instances of this kind would give: for m = 1 it
// includes the differences between instances whole. RCIW₁ and RCIW₃ are
// the relative widths of its percentile interval of the mean and the
// median; RCIW₂ uses the percentile interval of the mean too, the
// bootstrap-t having no three-level form here. CV and RMAD, which need no
// resampling, are those of the first m instances' measurements pooled.
// limit, s1, s2 and the results are those of value.
func (e *evaluator) nestedValue(data [][][]float64, m int, limit float64, s1, s2 uint64) (v float64, exact bool) {
	switch e.metric {
	case CV, RMAD:
		var x []float64
		for _, inst := range data[:m] {
			x = append(x, inst[0]...)
		}
		return e.value(x, limit, s1, s2)
	}
	e.evaluated++
	ns, ok := stats.NewNestedSample(data, e.metric.Stat())
	if !ok {
		return math.NaN(), true
	}
	e.pcg.Seed(s1, s2)
	fill := func(dst []float64) bool {
		ns.Replicates(dst, m, e.rng)
		return true
	}
	return e.width(ns.Center(), 1, false, fill, limit)
}

// width returns the relative width of the interval of the replicates fill
// draws around center (se scales a bootstrap-t's), stopping early, as value
// describes, when limit is not NaN.
func (e *evaluator) width(center, se float64, studentized bool, fill func(dst []float64) bool, limit float64) (v float64, exact bool) {
	nB := e.boot.Replicates
	reps := e.reps[:nB]
	a := (1 - e.boot.Level) / 2
	jlo := min(int(float64(nB-1)*a)+1, nB-1)
	jhi := int(float64(nB-1) * (1 - a))
	done := 0
	for _, k := range [...]int{nB / 20, nB / 10, nB / 5, nB / 2, nB} {
		if k <= done || k < nB && (math.IsNaN(limit) || k < jlo+1 || k < nB-jhi) {
			continue
		}
		if !fill(reps[done:k]) {
			return math.NaN(), true
		}
		done = k
		if k == nB {
			break
		}
		// Both selections only reorder reps[:k]; the final quantiles
		// depend on the set of replicates, not their order.
		upper := kth(reps[:k], jlo)        // ≥ the final Q(α/2)
		lower := kth(reps[:k], k-(nB-jhi)) // ≤ the final Q(1−α/2)
		if bound := (lower - upper) * se / math.Abs(center); bound*(1-boundSlack)-boundSlack > limit {
			e.proven++
			return bound, false
		}
	}
	if hasNaN(reps) {
		return math.NaN(), true
	}
	var iv stats.Interval
	if studentized {
		iv = stats.Interval{Center: center, Lo: center - quantile7(reps, 1-a)*se, Hi: center - quantile7(reps, a)*se}
	} else {
		iv = stats.Interval{Center: center, Lo: quantile7(reps, a), Hi: quantile7(reps, 1-a)}
	}
	return iv.RelWidth(), true
}

// hasNaN reports whether x holds a NaN.
func hasNaN(x []float64) bool {
	for _, v := range x {
		if v != v {
			return true
		}
	}
	return false
}
