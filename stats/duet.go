package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// DuetWinsorFraction is the p of Winsorize that Bulej et al. 2020 §4 applies to
// every run: an extreme observation is replaced when it lies more than 20 %
// of the remaining observations' range outside that range.
const DuetWinsorFraction = 0.2

// Winsorize copies x into dst and replaces at most one extreme value, as
// Bulej et al. 2020 §4 does within each run ("replacing at most one observation in a
// run with its nearest neighbor when that observation is further than 20 %
// away from the min-max range of the remaining observations"). With x_(1) ≤
// x_(2) ≤ … ≤ x_(n) the sorted values, the maximum is an outlier when
//
//	x_(n) − x_(n−1) > p · (x_(n−1) − x_(1))
//
// and the minimum when
//
//	x_(2) − x_(1) > p · (x_(n) − x_(2))
//
// An outlying maximum is replaced by x_(n−1), an outlying minimum by x_(2);
// if both are outlying only the one further out relative to its remaining
// range is replaced (the maximum on a tie). The paper uses p = 0.2
// (DuetWinsorFraction). Values keep their positions; fewer than three values
// are copied unchanged, as no range of the others is then meaningful.
//
// dst is reused if it has the capacity (pass dst[:0] of a scratch slice to
// avoid allocation) and returned; it must not overlap x unless it is x. It
// panics if p is negative or NaN.
func Winsorize(dst, x []float64, p float64) []float64 {
	if !(p >= 0) {
		panic(fmt.Sprintf("stats: winsorizing fraction %v is negative or NaN", p))
	}
	dst = append(dst[:0], x...)
	n := len(x)
	if n < 3 {
		return dst
	}
	// Indices of the smallest and largest value, and the values of the
	// second smallest and second largest.
	imin, imax := 0, 0
	for i, v := range x {
		if v < x[imin] {
			imin = i
		}
		if v > x[imax] {
			imax = i
		}
	}
	if imin == imax { // all equal
		return dst
	}
	min2, max2 := math.Inf(1), math.Inf(-1)
	for i, v := range x {
		if i != imin && v < min2 {
			min2 = v
		}
		if i != imax && v > max2 {
			max2 = v
		}
	}
	lo, hi := x[imin], x[imax]
	exHi, wHi := hi-max2, max2-lo // excess of the maximum, range of the others
	exLo, wLo := min2-lo, hi-min2
	outHi := exHi > p*wHi
	outLo := exLo > p*wLo
	if outHi && outLo {
		// Compare exHi/wHi with exLo/wLo without dividing by a zero range.
		if exHi*wLo >= exLo*wHi {
			outLo = false
		} else {
			outHi = false
		}
	}
	switch {
	case outHi:
		dst[imax] = max2
	case outLo:
		dst[imin] = min2
	}
	return dst
}

// GeoMeanRatio returns the duet confidence interval of Bulej et al. 2020 §3 for the
// ratio of two workloads' execution times. runs[r] holds the paired ratio
// samples s_{r,i} = x_{r,i}/y_{r,i} of run r:
//
//	w_r      = Winsorize(runs[r], DuetWinsorFraction)      (Bulej et al. 2020 §4)
//	gms_r    = (Π_i w_{r,i})^(1/I_r)                       (§3 step 3)
//	ggms     = (Π_r gms_r)^(1/R)                           (§3 step 4)
//	for b = 1..B:
//	    gms*_b = R values drawn uniformly with replacement from gms
//	    θ*_b   = (Π gms*_b)^(1/R)                          (§3 step 5)
//	[Lo, Hi] = [Q(θ*, α/2), Q(θ*, 1−α/2)],  α = 1 − Level
//
// with Q the type 7 quantile and Center = ggms. Runs are the resampling
// unit, so the interval sees variance between runs but treats a run's
// geometric mean as exact. An interval that excludes 1 reports a
// difference; above 1, x is slower. Lo and Hi are NaN for fewer than two
// runs, an empty run, or a ratio that is NaN or not positive (Center is
// NaN in the latter two cases). It panics on an invalid Bootstrap or nil r.
func (b Bootstrap) GeoMeanRatio(runs [][]float64, r *rand.Rand) Interval {
	b.check(r)
	logGM := make([]float64, len(runs))
	var w []float64
	for i, run := range runs {
		w = Winsorize(w[:0], run, DuetWinsorFraction)
		gm := GeoMean(w)
		if math.IsNaN(gm) {
			return nanInterval(math.NaN(), b.Level)
		}
		logGM[i] = math.Log(gm)
	}
	center := math.Exp(Mean(logGM))
	if len(runs) < 2 {
		return nanInterval(center, b.Level)
	}
	R := len(runs)
	reps := make([]float64, b.Replicates)
	for i := range reps {
		var sum float64
		for range R {
			sum += logGM[r.IntN(R)]
		}
		reps[i] = math.Exp(sum / float64(R))
	}
	return b.percentile(center, reps)
}
