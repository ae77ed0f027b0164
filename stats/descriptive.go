package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// Mean returns the arithmetic mean of x,
//
//	mean = 1/n · Σ x_i
//
// It is gonum's stat.Mean. It returns NaN for empty x.
func Mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return stat.Mean(x, nil)
}

// StdDev returns the sample standard deviation of x with the n−1 denominator,
//
//	sd = sqrt(1/(n−1) · Σ (x_i − mean)²)
//
// as R's sd(x) does. It uses gonum's stat.StdDev, which corrects the two-pass
// sum for rounding. It returns NaN for n < 2, where the sample variance is
// undefined.
func StdDev(x []float64) float64 {
	if len(x) < 2 {
		return math.NaN()
	}
	return stat.StdDev(x, nil)
}

// CV returns the coefficient of variation of x, the stability metric CV of
// Japke et al. 2025 §2 and Laaber et al. 2020 §4.2.3,
//
//	CV = sd / mean
//
// with sd the n−1 sample standard deviation. It is NaN for n < 2 and ±Inf for
// a zero mean.
func CV(x []float64) float64 {
	return StdDev(x) / Mean(x)
}

// Median returns the sample median of x, Quantile(x, 0.5), which is R's
// median(x): the middle order statistic for odd n and the mean of the two
// middle ones for even n. It does not modify x. It returns NaN for empty x
// or x containing NaN.
func Median(x []float64) float64 {
	return Quantile(x, 0.5)
}

// Quantile returns the p-quantile of x by R's default definition,
// quantile(x, p, type = 7), which is also NumPy's default ("linear"):
//
//	h = (n−1)·p
//	Q(p) = x_(⌊h⌋) + (h − ⌊h⌋)·(x_(⌊h⌋+1) − x_(⌊h⌋))
//
// with x_(k) the k-th smallest value, counted from 0. It does not modify x
// (it sorts a copy). It returns NaN for empty x or x containing NaN, and
// panics if p is outside [0, 1].
func Quantile(x []float64, p float64) float64 {
	if !(p >= 0 && p <= 1) {
		panic("stats: quantile probability outside [0,1]")
	}
	if len(x) == 0 || hasNaN(x) {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	return quantileSorted(s, p)
}

// quantileSorted is Quantile for ascending, NaN-free, non-empty s. Like R's
// quantile.default it interpolates only between distinct neighbours and
// weights them as (1−f)·lo + f·hi, so a quantile between two equal infinite
// values stays infinite instead of becoming Inf−Inf = NaN; bootstrap-t
// replicates can be infinite.
func quantileSorted(s []float64, p float64) float64 {
	h := float64(len(s)-1) * p
	lo := int(h)
	f := h - float64(lo)
	if f == 0 || lo+1 >= len(s) || s[lo] == s[lo+1] {
		return s[lo]
	}
	return (1-f)*s[lo] + f*s[lo+1]
}

// MAD returns the median absolute deviation of x, unscaled,
//
//	MAD = median(|x_i − median(x)|)
//
// which is R's mad(x, constant = 1). R's default constant 1.4826 makes MAD
// estimate a normal standard deviation; Japke et al. 2025 §2 uses the plain median
// distance. It does not modify x and returns NaN for empty x or x containing
// NaN.
func MAD(x []float64) float64 {
	if len(x) == 0 || hasNaN(x) {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	m := quantileSorted(s, 0.5)
	for i, v := range s {
		s[i] = math.Abs(v - m)
	}
	slices.Sort(s)
	return quantileSorted(s, 0.5)
}

// RMAD returns the relative median absolute deviation of x, the stability
// metric RMAD of Japke et al. 2025 §2,
//
//	RMAD = MAD / median
//
// with the unscaled MAD. It is NaN for empty x and ±Inf or NaN for a zero
// median.
func RMAD(x []float64) float64 {
	return MAD(x) / Median(x)
}

// GeoMean returns the geometric mean of x,
//
//	GM = exp(1/n · Σ log x_i)
//
// computed in log space so long products of ratios cannot overflow; it is
// the per-run aggregate of Bulej et al. 2020 §3 step (3). It returns NaN for empty x
// or if any x_i ≤ 0 or is NaN.
func GeoMean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	var sum float64
	for _, v := range x {
		if !(v > 0) {
			return math.NaN()
		}
		sum += math.Log(v)
	}
	return math.Exp(sum / float64(len(x)))
}

// hasNaN reports whether x contains a NaN.
func hasNaN(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) {
			return true
		}
	}
	return false
}
