package stats

import (
	"math"
	"math/rand/v2"
)

// Replicates fills dst with len(dst) ordinary bootstrap replicates of the
// mean or median of x,
//
//	x*_b = n values drawn uniformly with replacement from x
//	θ*_b = stat(x*_b),  b = 1..len(dst)
//
// drawn exactly as Percentile draws them: Percentile(x, s, r) is the pair of
// type 7 quantiles of the Replicates returned by a generator seeded as r,
// bit for bit. Each replicate takes n draws r.IntN(n), so successive calls
// with the same r continue one sequence: two calls filling k replicates each
// give the replicates of one call filling 2k. That lets a caller look at the
// replicates as they accumulate, for example to stop once the interval is
// certain to be wider than it needs, and still get the exact interval when
// it does not stop.
//
// It reports false, leaving dst unchanged and r undrawn, if x has fewer than
// two values or a NaN. It allocates its scratch once per call, never per
// replicate. It panics on an unknown Stat or nil r.
func Replicates(dst, x []float64, s Stat, r *rand.Rand) bool {
	s.check()
	if r == nil {
		panic("stats: nil *rand.Rand")
	}
	p, ok := newPool([][]float64{x}, s)
	if !ok {
		return false
	}
	for i := range dst {
		dst[i] = p.iid(r)
	}
	return true
}

// StudentizedReplicates fills dst with len(dst) bootstrap-t replicates of the
// mean of x,
//
//	t*_b = (mean(x*_b) − mean(x)) / (sd(x*_b)/√n),  b = 1..len(dst)
//
// drawn exactly as Studentized draws them, so that Studentized(x, r) is
//
//	[mean(x) − Q(t*, 1−α/2)·se,  mean(x) − Q(t*, α/2)·se],  se = sd(x)/√n
//
// of the replicates returned by a generator seeded as r, bit for bit. A
// replicate whose values are all equal is 0 if its mean is mean(x) and ±Inf
// otherwise, as in Studentized. Successive calls with the same r continue one
// sequence, as with Replicates.
//
// It reports false, leaving dst unchanged and r undrawn, if x has fewer than
// two values or a NaN. It allocates its scratch once per call, never per
// replicate. It panics on a nil r.
func StudentizedReplicates(dst, x []float64, r *rand.Rand) bool {
	if r == nil {
		panic("stats: nil *rand.Rand")
	}
	n := len(x)
	if n < 2 || hasNaN(x) {
		return false
	}
	mean := Mean(x)
	// Deviations from the mean keep the one-pass variance of each
	// replicate accurate when the spread is tiny next to the level, as
	// with nanosecond timings of 1e9 ± 1.
	d := make([]float64, n)
	for i, v := range x {
		d[i] = v - mean
	}
	nf := float64(n)
	for i := range dst {
		var sum, sumSq float64
		for range n {
			v := d[r.IntN(n)]
			sum += v
			sumSq += v * v
		}
		ss := sumSq - sum*sum/nf
		switch {
		case ss > 0:
			dst[i] = sum / nf / math.Sqrt(ss/(nf-1)/nf)
		case sum == 0:
			dst[i] = 0
		default:
			dst[i] = math.Inf(int(math.Copysign(1, sum)))
		}
	}
	return true
}

// HierarchicalReplicates fills dst with len(dst) two-level bootstrap
// replicates of the mean or median of groups, drawn exactly as Hierarchical
// draws them, so that Hierarchical(groups, s, r) is the pair of type 7
// quantiles of the replicates returned by a generator seeded as r. Callers
// that combine several samples' replicates into one statistic, such as a
// slope fitted through several benchmarks, need the replicates themselves.
//
// It reports false, leaving dst unchanged and r undrawn, under the
// conditions for which Hierarchical returns NaN bounds. It panics on an
// unknown Stat or nil r.
func HierarchicalReplicates(dst []float64, groups [][]float64, s Stat, r *rand.Rand) bool {
	s.check()
	if r == nil {
		panic("stats: nil *rand.Rand")
	}
	p, ok := newPool(groups, s)
	if !ok {
		return false
	}
	for i := range dst {
		dst[i] = p.hier(r)
	}
	return true
}
