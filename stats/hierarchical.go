package stats

import (
	"math/rand/v2"
	"slices"
)

// Hierarchical returns the two-level bootstrap confidence interval of the
// mean or median of data measured in several processes (forks), following
// Kalibera & Jones ("Quantifying performance changes with effect size
// confidence intervals", 2012; Laaber et al. 2020 ref. [27]) and Ren et al. (2010) as
// Laaber et al. 2020 §4.2.3 and §5.4.1 use them through the authors' tool pa:
//
//	for b = 1..B:
//	    draw G groups g_1..g_G uniformly with replacement from groups
//	    for each g_k draw |g_k| values uniformly with replacement from g_k
//	    θ*_b = stat(all drawn values pooled)
//	[Lo, Hi] = [Q(θ*, α/2), Q(θ*, 1−α/2)],  α = 1 − Level
//
// with Q the type 7 quantile and Center = stat(all values of all groups
// pooled). Resampling the groups is what lets the interval see variance
// between processes; with a single group it reduces to Percentile. Indices
// are drawn uniformly (pa draws them non-uniformly; see papers/README.md).
// Resampling both levels slightly overstates the within-group share of the
// variance (Ren et al.), erring on the conservative side.
//
// Lo and Hi are NaN if any group is empty or contains NaN, or there are
// fewer than two values in all. It panics on an invalid Bootstrap, Stat, or
// nil r.
func (b Bootstrap) Hierarchical(groups [][]float64, s Stat, r *rand.Rand) Interval {
	b.check(r)
	s.check()
	p, ok := newPool(groups, s)
	if !ok {
		return nanInterval(pooledStat(groups, s), b.Level)
	}
	reps := make([]float64, b.Replicates)
	for i := range reps {
		reps[i] = p.hier(r)
	}
	return b.percentile(p.full(), reps)
}

// HierarchicalRatio returns the bootstrap confidence interval of the ratio
// stat(num)/stat(den) of two independently measured sets of processes, the
// "ratio of means" interval of Laaber et al. 2020 §5.4.1's A/A tests:
//
//	for b = 1..B:
//	    num*_b, den*_b = independent two-level resamples of num and den,
//	                     each drawn as in Hierarchical
//	    θ*_b = stat(num*_b) / stat(den*_b)
//	[Lo, Hi] = [Q(θ*, α/2), Q(θ*, 1−α/2)],  α = 1 − Level
//
// with Center = stat(num pooled)/stat(den pooled). An interval that
// excludes 1 indicates a difference; a ratio above 1 means num is larger
// (slower, for times). Lo and Hi are NaN under the conditions of
// Hierarchical for either side, or if a replicate is 0/0. It panics on an
// invalid Bootstrap, Stat, or nil r.
func (b Bootstrap) HierarchicalRatio(num, den [][]float64, s Stat, r *rand.Rand) Interval {
	b.check(r)
	s.check()
	pn, okn := newPool(num, s)
	pd, okd := newPool(den, s)
	if !okn || !okd {
		return nanInterval(pooledStat(num, s)/pooledStat(den, s), b.Level)
	}
	reps := make([]float64, b.Replicates)
	for i := range reps {
		// Two statements fix the order of the draws, so a seed
		// reproduces the same interval.
		n := pn.hier(r)
		reps[i] = n / pd.hier(r)
	}
	return b.percentile(pn.full()/pd.full(), reps)
}

// pooledStat returns stat of all values of groups pooled (NaN if there are
// none), the center reported with an interval the data cannot support.
func pooledStat(groups [][]float64, s Stat) float64 {
	return s.Of(slices.Concat(groups...))
}
