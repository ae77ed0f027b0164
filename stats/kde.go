package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// KDE is a one-dimensional Gaussian kernel density estimate,
//
//	f(v) = 1/(n·h) · Σ φ((v − x_i)/h),  φ(z) = exp(−z²/2)/√(2π)
//
// with the bandwidth h of SciPy's gaussian_kde(x, bw_method='silverman'):
//
//	h = (n·(d+2)/4)^(−1/(d+4)) · sd = (3n/4)^(−1/5) · sd    (d = 1)
//
// with sd the n−1 sample standard deviation. This is Silverman's normal
// reference rule as SciPy implements it, not the robust variant
// 0.9·min(sd, IQR/1.34)·n^(−1/5) of R's bw.nrd0; it is chosen so the whole
// KLSimilarity pipeline can be checked against SciPy. For data of several
// modes it oversmooths, which for a similarity probability errs towards
// "similar".
type KDE struct {
	x []float64
	h float64
}

// NewKDE returns the kernel density estimate of x. It copies x. For fewer
// than two values, a NaN, or a zero standard deviation the bandwidth is NaN
// or 0 and At returns NaN.
func NewKDE(x []float64) *KDE {
	k := &KDE{x: slices.Clone(x), h: math.NaN()}
	if n := len(x); n >= 2 && !hasNaN(x) {
		k.h = math.Pow(0.75*float64(n), -0.2) * stat.StdDev(x, nil)
	}
	return k
}

// Bandwidth returns h, the standard deviation of the Gaussian kernel.
func (k *KDE) Bandwidth() float64 { return k.h }

// At returns the density estimate at v.
func (k *KDE) At(v float64) float64 {
	if !(k.h > 0) {
		return math.NaN()
	}
	var sum float64
	for _, x := range k.x {
		z := (v - x) / k.h
		sum += math.Exp(-0.5 * z * z)
	}
	return sum / (float64(len(k.x)) * k.h * math.Sqrt(2*math.Pi))
}

// KLSimilarity returns the probability that samples a and b come from the
// same distribution, built from the Kullback-Leibler divergence as Laaber et al. 2020
// §4.2.3 does after He et al. (ESEC/FSE 2019), in the form of the authors'
// published code (papers/README.md, "Known differences"):
//
//	lo = min over a, b of Q1 − 1.5·IQR,  hi = max over a, b of Q3 + 1.5·IQR
//	v_j = lo + j·(hi − lo)/(points − 1),  j = 0..points−1
//	P_j = f(v_j)/Σ f(v),  Q_j = g(v_j)/Σ g(v)   (f, g: KDE of a, b)
//	KL(P‖Q) = Σ P_j · log2(P_j/Q_j)
//	p = 2^(−KL(P‖Q)) · 2^(−KL(Q‖P))
//
// with quartiles by the type 7 quantile. p is in [0, 1]; 1 means the
// estimated densities agree on the grid, 0 that one has mass where the other
// has (numerically) none. Outliers beyond the 1.5·IQR fences are excluded
// only by the grid's extent; they still widen the bandwidth. The paper uses
// points = 1,000 and stops once the mean p over its window exceeds 0.99
// (§5.3.2). The KL sums are gonum's stat.KullbackLeibler, converted from nats.
//
// It returns NaN if either sample has fewer than two values, a NaN, or zero
// spread. It panics if points < 2.
func KLSimilarity(a, b []float64, points int) float64 {
	if points < 2 {
		panic(fmt.Sprintf("stats: KL similarity on %d grid points, need at least 2", points))
	}
	ka, kb := NewKDE(a), NewKDE(b)
	if !(ka.h > 0 && kb.h > 0) {
		return math.NaN()
	}
	loA, hiA := fences(a)
	loB, hiB := fences(b)
	lo, hi := math.Min(loA, loB), math.Max(hiA, hiB)
	if !(hi > lo) {
		return math.NaN()
	}
	p := make([]float64, points)
	q := make([]float64, points)
	step := (hi - lo) / float64(points-1)
	var sp, sq float64
	for j := range points {
		v := lo + float64(j)*step
		if j == points-1 {
			v = hi
		}
		p[j], q[j] = ka.At(v), kb.At(v)
		sp += p[j]
		sq += q[j]
	}
	for j := range points {
		p[j] /= sp
		q[j] /= sq
	}
	kl := (stat.KullbackLeibler(p, q) + stat.KullbackLeibler(q, p)) / math.Ln2
	return math.Exp2(-kl)
}

// fences returns Tukey's fences Q1 − 1.5·IQR and Q3 + 1.5·IQR of x.
func fences(x []float64) (lo, hi float64) {
	s := slices.Clone(x)
	slices.Sort(s)
	q1, q3 := quantileSorted(s, 0.25), quantileSorted(s, 0.75)
	iqr := q3 - q1
	return q1 - 1.5*iqr, q3 + 1.5*iqr
}
