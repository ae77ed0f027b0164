package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
	"math/rand/v2"
	"slices"
)

// Nested returns the three-level bootstrap confidence interval of the mean
// or median of data measured on several instances (machines), in several
// forks (processes) on each: data[k][j] holds the iterations of fork j on
// instance k. It is Hierarchical with one more level on top, the nested
// resampling of Davison & Hinkley (Bootstrap Methods and their Application,
// 1997, §3.8) and Ren et al. (2010):
//
//	for b = 1..B:
//	    draw K instances uniformly with replacement from the K of data
//	    for each drawn instance draw its F_k forks uniformly with replacement
//	    for each drawn fork draw its iterations uniformly with replacement
//	    θ*_b = stat(all drawn values pooled)
//	[Lo, Hi] = [Q(θ*, α/2), Q(θ*, 1−α/2)],  α = 1 − Level
//
// with Center = stat(all values pooled). Instances of one cloud instance
// type differ by a few percent (Japke et al. 2025, and the studies of cloud
// performance variability it builds on), and resampling them is what lets
// the interval see it.
//
// With one instance it is Hierarchical(data[0]) exactly: the same replicates
// for the same generator, since the instance level draws nothing then. With
// two or more, the percentile interval rests on K independent units, and
// with few of them (2–5 instances) it is far too narrow: a resample of 2
// instances has only 3 distinct instance compositions. Nested widens it as
// compare widens fork intervals, by ExpandDF with the degrees of freedom
// df NestedDF gives, as df+1 units: K−1 (Student's t over the instance
// means) when the instances differ by more than their forks' noise
// explains, K−1 plus the forks' degrees of freedom when they agree, so that
// instances that agree are not penalised as if each were a single value.
//
// Lo and Hi are NaN if there is no instance, an instance without forks, an
// empty fork, a NaN, or fewer than two values in all. It panics on an
// invalid Bootstrap, Stat, or nil r.
func (b Bootstrap) Nested(data [][][]float64, s Stat, r *rand.Rand) Interval {
	b.check(r)
	s.check()
	p, ok := newNestedPool(data, s)
	if !ok {
		return nanInterval(nestedStat(data, s), b.Level)
	}
	reps := make([]float64, b.Replicates)
	k := p.instances()
	for i := range reps {
		reps[i] = p.nested(r, k)
	}
	iv := b.percentile(p.full(), reps)
	if k < 2 {
		return iv
	}
	_, df := NestedDF(data)
	if math.IsNaN(df) {
		// A fork mean that is not positive has no logarithm: count
		// the instances alone, the more cautious of NestedDF's answers.
		df = float64(k - 1)
	}
	return ExpandDF(iv, df+1, df)
}

// NestedRatio returns the bootstrap confidence interval of the ratio
// stat(num)/stat(den) of two independently measured sets of instances,
// each resampled as Nested resamples it:
//
//	for b = 1..B:
//	    num*_b, den*_b = independent three-level resamples of num and den
//	    θ*_b = stat(num*_b) / stat(den*_b)
//	[Lo, Hi] = [Q(θ*, α/2), Q(θ*, 1−α/2)],  α = 1 − Level
//
// with Center = stat(num pooled)/stat(den pooled). When both sides have one
// instance it is HierarchicalRatio(num[0], den[0]) exactly, unwidened, as
// callers already widen that by forks. Otherwise the interval is widened by
// ExpandDF with the Welch–Satterthwaite combination of the two sides'
// NestedDF (variances of the log means, as WelchDF combines them) and
// min(df_num, df_den)+1 units. When both sides have several instances, one
// preliminary test on the two sides' mean squares pooled decides for both
// whether instances differ: both versions ran on machines of one kind. A
// side with no variance estimate (one fork on one instance) leaves the
// other side's degrees of freedom to widen by. Lo and Hi are NaN under the
// conditions of Nested for either side, or if a replicate is 0/0. It panics on an invalid
// Bootstrap, Stat, or nil r.
func (b Bootstrap) NestedRatio(num, den [][][]float64, s Stat, r *rand.Rand) Interval {
	b.check(r)
	s.check()
	pn, okn := newNestedPool(num, s)
	pd, okd := newNestedPool(den, s)
	if !okn || !okd {
		return nanInterval(nestedStat(num, s)/nestedStat(den, s), b.Level)
	}
	kn, kd := pn.instances(), pd.instances()
	reps := make([]float64, b.Replicates)
	for i := range reps {
		// Two statements fix the order of the draws, so a seed
		// reproduces the same interval.
		n := pn.nested(r, kn)
		reps[i] = n / pd.nested(r, kd)
	}
	iv := b.percentile(pn.full()/pd.full(), reps)
	if kn < 2 && kd < 2 {
		return iv
	}
	vn, dfn, vd, dfd := ratioDF(num, den)
	if math.IsNaN(vn) || math.IsNaN(vd) {
		// A side without a variance estimate (a single fork on a
		// single instance) cannot enter Welch's combination; the
		// other side's degrees of freedom bound the widening.
		df := minKnown(dfn, dfd)
		return ExpandDF(iv, df+1, df)
	}
	df := dfn + dfd
	if vn+vd > 0 {
		df = (vn + vd) * (vn + vd) / (vn*vn/dfn + vd*vd/dfd)
	}
	return ExpandDF(iv, min(dfn, dfd)+1, df)
}

// minKnown returns the smaller of a and b that is not NaN (NaN if both
// are).
func minKnown(a, b float64) float64 {
	switch {
	case math.IsNaN(a):
		return b
	case math.IsNaN(b):
		return a
	}
	return min(a, b)
}

// NestedDF returns the estimated variance v of the logarithm of the mean of
// data (instances → forks → iterations, as Nested takes it) and the degrees
// of freedom df of that estimate, from the log fork means y_kj:
//
//	m_k  = mean_j y_kj                         the instance means, k = 1..K
//	s²_b = var(m_k)                            K−1 degrees of freedom
//	s²_w = Σ_kj (y_kj − m_k)² / Σ_k (F_k − 1)  df_w = Σ_k (F_k − 1)
//	h    = mean_k 1/F_k
//
// s²_b estimates σ²_I + h·σ²_W, the instances' own variance plus their
// forks' noise, s²_w the forks' noise σ²_W. A preliminary F test decides
// which to use (Bozivich, Bancroft & Hartley, "Power of analysis of variance
// test procedures for certain incompletely specified models", Ann. Math.
// Statist. 27, 1956, who recommend its level 0.25 for pooling):
//
//	F = s²_b / (h·s²_w) > F(K−1, df_w; 0.75):  v = s²_b/K,    df = K−1
//	otherwise (instances agree):              v = h·s²_w/K,  df = K−1+df_w
//
// so that instances that differ make the interval Student's t over K−1
// degrees of freedom, while instances that agree within their forks' noise
// are pooled and judged by all their forks, as a single instance's would be.
// The test errs: with 2 instances it pools about one time in four when the
// instances differ by far more than the forks' noise (see
// TestNestedCoverage for what that costs). When no instance has two forks
// (df_w = 0) it is v = s²_b/K with K−1; for one instance v = var(y_1j)/F_1
// with F_1 − 1. Both are NaN when a fork mean is not positive or there are
// too few forks for a variance.
func NestedDF(data [][][]float64) (v, df float64) {
	ms, ok := meanSquares(data)
	if !ok {
		return math.NaN(), math.NaN()
	}
	return ms.split(ms.k > 1 && ms.differ())
}

// nestedMS holds the mean squares of NestedDF for one set of instances.
type nestedMS struct {
	k      int     // instances
	sb, sw float64 // s²_b (NaN for one instance), s²_w (NaN when df_w = 0)
	h      float64 // mean of 1/F_k
	dfw    int     // Σ (F_k − 1)
}

// meanSquares returns the mean squares of the log fork means of data. It
// reports false for no instance, an instance without forks, a fork mean
// that is not positive, or a single instance with a single fork.
func meanSquares(data [][][]float64) (nestedMS, bool) {
	ms := nestedMS{k: len(data), sb: math.NaN(), sw: math.NaN()}
	if ms.k == 0 {
		return ms, false
	}
	var means []float64
	var ss float64
	for _, inst := range data {
		if len(inst) == 0 {
			return ms, false
		}
		ys := make([]float64, len(inst))
		for j, f := range inst {
			m := Mean(f)
			if !(m > 0) {
				return ms, false
			}
			ys[j] = math.Log(m)
		}
		mk := Mean(ys)
		for _, y := range ys {
			ss += (y - mk) * (y - mk)
		}
		ms.dfw += len(ys) - 1
		ms.h += 1 / float64(len(ys))
		means = append(means, mk)
	}
	ms.h /= float64(ms.k)
	if ms.dfw > 0 {
		ms.sw = ss / float64(ms.dfw)
	}
	if ms.k > 1 {
		ms.sb = variance(means)
	}
	return ms, ms.k > 1 || ms.dfw > 0
}

// differ is the preliminary test of NestedDF: whether the instances differ
// by more than their forks' noise explains.
func (ms nestedMS) differ() bool {
	return differ(ms.sb, ms.h*ms.sw, float64(ms.k-1), float64(ms.dfw))
}

// differ reports whether the between-instance mean square sb exceeds the
// within-instance one sw (scaled to the instance means) at level
// poolAlpha, with df1 and df2 degrees of freedom; true when there is no
// within-instance estimate to pool with.
func differ(sb, sw, df1, df2 float64) bool {
	switch {
	case df1 < 1:
		return false
	case df2 < 1:
		return true
	case sw == 0:
		return sb > 0
	}
	return sb/sw > distuv.F{D1: df1, D2: df2}.Quantile(1-poolAlpha)
}

// split returns v and df of NestedDF given the preliminary test's answer.
func (ms nestedMS) split(differ bool) (v, df float64) {
	kf := float64(ms.k)
	switch {
	case ms.k == 1:
		return ms.h * ms.sw, float64(ms.dfw)
	case differ || ms.dfw == 0:
		return ms.sb / kf, kf - 1
	}
	return ms.h * ms.sw / kf, kf - 1 + float64(ms.dfw)
}

// poolAlpha is the level of NestedDF's preliminary test of whether
// instances differ, the 0.25 Bozivich, Bancroft & Hartley recommend for a
// test that decides whether to pool mean squares.
const poolAlpha = 0.25

// A NestedSample is data of several instances (instances → forks →
// iterations) laid out once for many three-level replicates, for callers
// that look at replicates as they accumulate (see Replicates).
type NestedSample struct {
	p *pool
}

// NewNestedSample lays out data for resampling with statistic s. It reports
// false under the conditions in which Nested returns NaN bounds. It panics
// on an unknown Stat.
func NewNestedSample(data [][][]float64, s Stat) (*NestedSample, bool) {
	s.check()
	p, ok := newNestedPool(data, s)
	if !ok {
		return nil, false
	}
	return &NestedSample{p}, true
}

// Instances returns the number of instances.
func (n *NestedSample) Instances() int { return n.p.instances() }

// Replicates fills dst with len(dst) replicates in which m instances are
// drawn uniformly with replacement from those of n (m need not equal their
// number: m of K is the spread of a result measured on m instances of the
// kind the K represent), then forks and iterations within each as Nested
// draws them. With m equal to the number of instances, they are Nested's
// replicates for a generator seeded as r. Successive calls with the same r
// continue one sequence. No replicate allocates. It panics on m < 1 or a
// nil r.
func (n *NestedSample) Replicates(dst []float64, m int, r *rand.Rand) {
	if m < 1 {
		panic("stats: fewer than one instance per replicate")
	}
	if r == nil {
		panic("stats: nil *rand.Rand")
	}
	for i := range dst {
		dst[i] = n.p.nested(r, m)
	}
}

// Center returns the statistic of all values pooled.
func (n *NestedSample) Center() float64 { return n.p.full() }

// newNestedPool lays out data as a pool whose groups are the forks, instance
// after instance, with inst marking where each instance's forks begin.
func newNestedPool(data [][][]float64, s Stat) (*pool, bool) {
	if len(data) == 0 {
		return nil, false
	}
	var groups [][]float64
	inst := make([]int, 0, len(data)+1)
	for _, forks := range data {
		if len(forks) == 0 {
			return nil, false
		}
		inst = append(inst, len(groups))
		groups = append(groups, forks...)
	}
	inst = append(inst, len(groups))
	p, ok := newPool(groups, s)
	if !ok {
		return nil, false
	}
	p.inst = inst
	return p, true
}

// instances returns the number of instances of a pool made by
// newNestedPool.
func (p *pool) instances() int { return len(p.inst) - 1 }

// nested draws one three-level replicate: m instances uniformly with
// replacement, within each its forks and within each fork its values. With
// one instance nothing is drawn for the instance level, so that the draws
// are those of hier.
func (p *pool) nested(r *rand.Rand, m int) float64 {
	k := p.instances()
	for range m {
		i := 0
		if k > 1 {
			i = r.IntN(k)
		}
		g0, g := p.inst[i], p.inst[i+1]-p.inst[i]
		for range g {
			j := g0 + r.IntN(g)
			lo, n := p.start[j], p.start[j+1]-p.start[j]
			for range n {
				p.draw(lo + r.IntN(n))
			}
		}
	}
	return p.value()
}

// ratioDF returns NestedDF of each side of a ratio, with one preliminary
// test for both when both have several instances: the two versions ran on
// machines of one kind, whose variance is one, and a joint test keeps the
// two sides from being judged differently by chance. Its mean squares are
// the two sides' pooled by their degrees of freedom.
func ratioDF(num, den [][][]float64) (vn, dfn, vd, dfd float64) {
	mn, okn := meanSquares(num)
	md, okd := meanSquares(den)
	if !okn || !okd || mn.k < 2 || md.k < 2 {
		vn, dfn = sideDF(mn, okn)
		vd, dfd = sideDF(md, okd)
		return vn, dfn, vd, dfd
	}
	b1, b2 := float64(mn.k-1), float64(md.k-1)
	w1, w2 := float64(mn.dfw), float64(md.dfw)
	sb := (b1*mn.sb + b2*md.sb) / (b1 + b2)
	var sw float64
	if w1+w2 > 0 {
		sw = (w1*mn.h*zeroNaN(mn.sw) + w2*md.h*zeroNaN(md.sw)) / (w1 + w2)
	}
	d := differ(sb, sw, b1+b2, w1+w2)
	vn, dfn = mn.split(d)
	vd, dfd = md.split(d)
	return vn, dfn, vd, dfd
}

// sideDF is NestedDF of one side of a ratio given its mean squares. When
// they could not be computed the variance is NaN, and so are the degrees of
// freedom, except that several instances count K−1, the more cautious of
// NestedDF's answers.
func sideDF(ms nestedMS, ok bool) (v, df float64) {
	switch {
	case ok:
		return ms.split(ms.k > 1 && ms.differ())
	case ms.k > 1:
		return math.NaN(), float64(ms.k - 1)
	}
	return math.NaN(), math.NaN()
}

// zeroNaN returns x, or 0 for NaN.
func zeroNaN(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

// nestedStat returns stat of all values of data pooled (NaN if there are
// none).
func nestedStat(data [][][]float64, s Stat) float64 {
	var all []float64
	for _, forks := range data {
		all = append(all, slices.Concat(forks...)...)
	}
	return s.Of(all)
}
