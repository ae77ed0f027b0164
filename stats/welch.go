package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Welch returns Welch's confidence interval, at level, of the difference
// of the means mean(b) − mean(a) of two independent samples whose
// variances may differ, and the two-sided p-value of the test that the
// difference is 0:
//
//	d  = mean(b) − mean(a),  se = √(s²_a/n_a + s²_b/n_b)
//	[Lo, Hi] = d ∓ t(df, 1−α/2) · se,  df = WelchDF(a, b),  α = 1 − level
//	p  = 2 · P(T_df > |d| / se)
//
// (B. L. Welch, Biometrika 34, 1947; R: t.test(b, a)$conf.int and
// $p.value.) When both samples are constant, se is 0: the interval is the
// point d and p is 0 for d ≠ 0, 1 for d = 0. With fewer than two values on
// a side, Lo, Hi and p are NaN.
func Welch(a, b []float64, level float64) (iv Interval, p float64) {
	d := Mean(b) - Mean(a)
	if len(a) < 2 || len(b) < 2 {
		return nanInterval(d, level), math.NaN()
	}
	se := math.Sqrt(variance(a)/float64(len(a)) + variance(b)/float64(len(b)))
	if se == 0 {
		p = 1
		if d != 0 {
			p = 0
		}
		return Interval{Center: d, Lo: d, Hi: d, Level: level}, p
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: WelchDF(a, b)}
	half := t.Quantile(1-(1-level)/2) * se
	return Interval{Center: d, Lo: d - half, Hi: d + half, Level: level}, 2 * t.CDF(-math.Abs(d)/se)
}
