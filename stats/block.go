package stats

import (
	"fmt"
	"math/rand/v2"
)

// BlockLength returns the block length BlockRatio uses for a sequence of n
// values,
//
//	l = ⌈n^(1/3)⌉, at most n
//
// The n^(1/3) rate is the MSE-optimal order of the block length for
// estimating the variance of a mean (Hall, Horowitz & Jing, Biometrika 1995;
// Lahiri, Resampling Methods for Dependent Data, 2003, ch. 7). For two-sided
// interval endpoints the optimal order is n^(1/5), but that gives shorter
// blocks, which see less of a level shift; the longer n^(1/3) blocks are
// chosen deliberately. Without an estimate of the dependence the constant is
// taken as 1. The rule gives l = 2 for n = 2..8, so blocks always keep
// neighbours together, 4 for 50 values and 10 for 1,000. It panics for
// n < 1.
func BlockLength(n int) int {
	if n < 1 {
		panic(fmt.Sprintf("stats: block length for %d values", n))
	}
	// Integer search rather than math.Cbrt, so that exact cubes such as
	// 27 give exactly 3.
	l := 1
	for l*l*l < n {
		l++
	}
	return l
}

// BlockRatio returns a moving-block bootstrap confidence interval of the
// ratio stat(num)/stat(den) for two sequences without process structure
// whose consecutive values are dependent, such as level shifts that last
// several iterations of one benchmark process:
//
//	l_x = BlockLength(len(x)) for x = num, den
//	for b = 1..B:
//	    x*_b = blocks x[s], x[s+1], …, x[s+l_x−1] (indices mod len(x)), s
//	           uniform in 0..len(x)−1, concatenated and cut to len(x);
//	           drawn independently for num and den
//	    θ*_b = stat(num*_b) / stat(den*_b)
//	[Lo, Hi] = [Q(θ*, α/2), Q(θ*, 1−α/2)],  α = 1 − Level
//
// with Q the type 7 quantile and Center = stat(num)/stat(den). The blocks
// wrap around (the circular block bootstrap of Politis & Romano 1992, a
// variant of Künsch's 1989 moving blocks) so that every value is equally
// likely to be drawn and the resampled mean is centred on the sample mean.
//
// Keeping runs of neighbours together lets the interval see dependence that
// lasts about a block; it cannot see variance between processes. A single
// process's sequence carries no information about how much another process
// (another fork, another boot, another machine) would differ, so for
// benchmarks whose level changes from process to process this interval is
// too narrow: measure several processes and use HierarchicalRatio.
//
// Lo and Hi are NaN if either side has fewer than two values or a NaN, or a
// replicate is 0/0. It panics on an invalid Bootstrap, Stat, or nil r.
func (b Bootstrap) BlockRatio(num, den []float64, s Stat, r *rand.Rand) Interval {
	b.check(r)
	s.check()
	pn, okn := newPool([][]float64{num}, s)
	pd, okd := newPool([][]float64{den}, s)
	if !okn || !okd {
		return nanInterval(s.Of(num)/s.Of(den), b.Level)
	}
	ln, ld := BlockLength(len(num)), BlockLength(len(den))
	reps := make([]float64, b.Replicates)
	for i := range reps {
		n := pn.block(r, ln)
		reps[i] = n / pd.block(r, ld)
	}
	return b.percentile(pn.full()/pd.full(), reps)
}
