package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Expand widens a percentile-bootstrap interval that rests on n independent
// units — forks, or blocks of consecutive iterations — so that it keeps its
// nominal coverage when n is small.
//
// A percentile bootstrap behaves like a normal interval computed with the
// plug-in variance, which divides by n: both are too narrow for few units.
// With 5 forks a nominal 99% hierarchical interval of a ratio lets through
// more than 1% false alarms in A/A comparisons; compare.TestFalsePositives
// holds the rate at 1% with Expand.
// When the units are exchangeable, the exact interval for a mean is
// Student's t over the unit means with n−1 degrees of freedom; for forks
// this holds whatever the split of variance between and within forks, since
// each fork mean has variance σ²_between + σ²_within/iterations. Expand
// matches the bootstrap to that interval, as Hesterberg's "expanded
// percentile interval" does (T. Hesterberg, What Teachers Should Know About
// the Bootstrap, The American Statistician 69(4), 2015, §4.3):
//
//	k   = sqrt(n/(n−1)) · t(n−1, 1−α/2) / z(1−α/2)
//	lo' = c · (lo/c)^k,  hi' = c · (hi/c)^k
//
// on the log scale around the centre c, so that the bounds of a positive
// statistic stay positive. n need not be whole (blocks of a sequence). The
// interval is returned unchanged when n <= 1 or it is not positive.
func Expand(iv Interval, n float64) Interval {
	return ExpandDF(iv, n, n-1)
}

// Expansion returns the factor k of Expand for n units at level 1−alpha.
func Expansion(n, alpha float64) float64 {
	return ExpansionDF(n, n-1, alpha)
}

// ExpansionDF is Expansion with df degrees of freedom for the t quantile,
//
//	k = sqrt(n/(n−1)) · t(df, 1−α/2) / z(1−α/2)
//
// for intervals, such as a ratio of two independent groups, whose variance
// is estimated from more than n−1 degrees of freedom (see WelchDF).
func ExpansionDF(n, df, alpha float64) float64 {
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(1 - alpha/2)
	z := distuv.UnitNormal.Quantile(1 - alpha/2)
	return math.Sqrt(n/(n-1)) * t / z
}

// ExpandDF is Expand with the factor ExpansionDF(n, df, alpha).
func ExpandDF(iv Interval, n, df float64) Interval {
	if math.IsNaN(iv.Lo) || n <= 1 || df <= 0 || math.IsNaN(df) || iv.Center <= 0 || iv.Lo <= 0 {
		return iv
	}
	k := ExpansionDF(n, df, 1-iv.Level)
	iv.Lo = iv.Center * math.Pow(iv.Lo/iv.Center, k)
	iv.Hi = iv.Center * math.Pow(iv.Hi/iv.Center, k)
	return iv
}

// WelchDF returns the Welch–Satterthwaite degrees of freedom of the
// difference of the means of two independent samples a and b (for a ratio,
// pass the logarithms of the unit means of each side):
//
//	v_a = s²_a/n_a,  v_b = s²_b/n_b
//	df  = (v_a + v_b)² / (v_a²/(n_a−1) + v_b²/(n_b−1))
//
// It lies between min(n_a, n_b)−1 and n_a+n_b−2. When both variances are
// zero it returns n_a+n_b−2; with fewer than two values on a side, NaN.
// (B. L. Welch, Biometrika 34, 1947; R: the df of t.test(a, b).)
func WelchDF(a, b []float64) float64 {
	na, nb := float64(len(a)), float64(len(b))
	if na < 2 || nb < 2 {
		return math.NaN()
	}
	va, vb := variance(a)/na, variance(b)/nb
	if va+vb == 0 {
		return na + nb - 2
	}
	return (va + vb) * (va + vb) / (va*va/(na-1) + vb*vb/(nb-1))
}

// variance is the sample variance with the n−1 denominator.
func variance(x []float64) float64 {
	sd := StdDev(x)
	return sd * sd
}
