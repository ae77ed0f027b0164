package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Bootstrap holds the settings shared by the bootstrap confidence intervals.
// The resampling is written by hand (see pool) so that no replicate
// allocates: all scratch space is allocated once per call, and the cost of a
// call is Replicates × (number of values drawn) uniform draws r.IntN.
type Bootstrap struct {
	Level      float64 // two-sided confidence level in (0,1)
	Replicates int
}

// DefaultBootstrap is the setting of Japke et al. 2025 §2 (99 %, 10,000 bootstrap
// samples) and of Laaber et al. 2020 §5.4.1's A/A tests (10,000 iterations); paper
// 000's run-time RCIW criterion uses 1,000 replicates to save time.
var DefaultBootstrap = Bootstrap{Level: 0.99, Replicates: 10000}

// MaxReplicates is the most bootstrap replicates a command accepts. Every
// interval holds its replicates in memory, 8 bytes each, and draws
// Replicates × n values; a million, a hundred times the default, keeps that
// to 8 MB and seconds per interval, while a typo of a few more zeros would
// exhaust memory.
const MaxReplicates = 1_000_000

// check panics if b or r cannot be used.
func (b Bootstrap) check(r *rand.Rand) {
	if !(b.Level > 0 && b.Level < 1) {
		panic(fmt.Sprintf("stats: confidence level %v outside (0,1)", b.Level))
	}
	if b.Replicates < 1 {
		panic(fmt.Sprintf("stats: %d bootstrap replicates, need at least 1", b.Replicates))
	}
	if r == nil {
		panic("stats: nil *rand.Rand")
	}
}

// percentile returns the percentile interval of the replicates reps (which
// it sorts in place): the α/2 and 1−α/2 quantiles, α = 1 − Level, by R's
// type 7 definition (Quantile). NaN replicates (0/0 ratios) give NaN bounds.
func (b Bootstrap) percentile(center float64, reps []float64) Interval {
	if hasNaN(reps) {
		return nanInterval(center, b.Level)
	}
	slices.Sort(reps)
	a := (1 - b.Level) / 2
	return Interval{
		Center: center,
		Lo:     quantileSorted(reps, a),
		Hi:     quantileSorted(reps, 1-a),
		Level:  b.Level,
	}
}

// Percentile returns the percentile bootstrap confidence interval of the
// mean or median of x (Efron & Tibshirani 1993 §13.3; Japke et al. 2025 §2, where
// its relative width is RCIW1 for the mean and RCIW3 for the median):
//
//	x*_b      = n values drawn uniformly with replacement from x, b = 1..B
//	θ*_b      = stat(x*_b)
//	[Lo, Hi]  = [Q(θ*, α/2), Q(θ*, 1−α/2)],  α = 1 − Level
//
// with Q the type 7 quantile and Center = stat(x). It treats the values as
// independent; use Hierarchical for data from several processes and
// BlockRatio for autocorrelated sequences. Lo and Hi are NaN if x has fewer
// than two values or a NaN. It panics on an invalid Bootstrap, Stat, or nil r.
func (b Bootstrap) Percentile(x []float64, s Stat, r *rand.Rand) Interval {
	b.check(r)
	s.check()
	p, ok := newPool([][]float64{x}, s)
	if !ok {
		return nanInterval(s.Of(x), b.Level)
	}
	reps := make([]float64, b.Replicates)
	for i := range reps {
		reps[i] = p.iid(r)
	}
	return b.percentile(p.full(), reps)
}

// Studentized returns the bootstrap-t confidence interval of the mean of x
// (Efron & Tibshirani 1993 §12.5; Japke et al. 2025 §2, where its relative width is
// RCIW2):
//
//	se        = sd(x)/√n
//	t*_b      = (mean(x*_b) − mean(x)) / (sd(x*_b)/√n)
//	[Lo, Hi]  = [mean(x) − Q(t*, 1−α/2)·se,  mean(x) − Q(t*, α/2)·se]
//
// with sd the n−1 standard deviation and Q the type 7 quantile. A replicate
// whose values are all equal has sd = 0; its t* is 0 if its mean equals
// mean(x) and ±Inf otherwise, so tiny or heavily tied samples can yield
// infinite bounds rather than a falsely narrow interval. Lo and Hi are NaN if
// x has fewer than two values or a NaN. It panics on an invalid Bootstrap or
// nil r.
func (b Bootstrap) Studentized(x []float64, r *rand.Rand) Interval {
	b.check(r)
	n := len(x)
	mean := Mean(x)
	if n < 2 || hasNaN(x) {
		return nanInterval(mean, b.Level)
	}
	reps := make([]float64, b.Replicates)
	StudentizedReplicates(reps, x, r)
	nf := float64(n)
	slices.Sort(reps)
	se := StdDev(x) / math.Sqrt(nf)
	a := (1 - b.Level) / 2
	return Interval{
		Center: mean,
		Lo:     mean - quantileSorted(reps, 1-a)*se,
		Hi:     mean - quantileSorted(reps, a)*se,
		Level:  b.Level,
	}
}
