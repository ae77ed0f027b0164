package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Trend fits a straight line to y against its index, y_i ≈ a + b·i for
// i = 0 … n−1, by least squares, and tests whether the slope b differs from
// zero:
//
//	b  = Σ (i − ī)(y_i − ȳ) / Σ (i − ī)²
//	se = sqrt( Σ (y_i − a − b·i)² / (n − 2) / Σ (i − ī)² )
//	p  = P(|T| ≥ |b / se|),  T ~ Student's t with n − 2 degrees of freedom
//
// as R's summary(lm(y ~ seq_along(y))) reports for the slope. A small p is
// evidence that the series drifts in one direction, such as a warm-up that
// has not settled; a large one is no evidence either way. The test weighs
// the size of a drift against the scatter around the line, so a decay of 50%
// stands out among 1% noise even in a handful of values.
//
// Values on an exact line give p = 0 (or 1 when the line is flat). Trend
// returns NaN for both results when y has fewer than 3 values, which leave
// no degree of freedom for the scatter, or contains NaN.
func Trend(y []float64) (slope, p float64) {
	n := len(y)
	if n < 3 || hasNaN(y) {
		return math.NaN(), math.NaN()
	}
	xm := float64(n-1) / 2
	ym := Mean(y)
	var sxx, sxy float64
	for i, v := range y {
		dx := float64(i) - xm
		sxx += dx * dx
		sxy += dx * (v - ym)
	}
	slope = sxy / sxx
	var sse float64
	for i, v := range y {
		r := v - ym - slope*(float64(i)-xm)
		sse += r * r
	}
	// Rounding leaves a residual of about ε·|y| on values that lie on a
	// line; below that the scatter is zero and the test is decided by the
	// slope alone.
	if sse <= float64(n)*square(1e-12*ym) {
		if math.Abs(slope) <= 1e-12*math.Abs(ym) {
			return slope, 1
		}
		return slope, 0
	}
	df := float64(n - 2)
	t := slope / math.Sqrt(sse/df/sxx)
	return slope, 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.CDF(-math.Abs(t))
}

func square(x float64) float64 { return x * x }
