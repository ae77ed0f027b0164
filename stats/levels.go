package stats

import (
	"math"
	"slices"
)

// The paired estimators (RoundRatio, TurnRatio, GeoMeanRatio) are means of
// ratios, and a mean of ratios is not the ratio of the two sides' plain
// means: a table that showed each version's mean beside the paired change
// could show the new version higher and the change negative. The functions
// below return, for each estimator, one figure per version built from the
// very values its centre is built from, so that new/old of the two figures
// is the estimator's Center (up to rounding) and a table of them agrees
// with itself.

// RoundLevels returns the per-version figures of RoundRatio's centre: the
// geometric mean over rounds of each version's process mean,
//
//	Old = exp(mean_k log mean(old_k)),  New = exp(mean_k log mean(new_k))
//
// so that New/Old = exp(mean_k d_k), RoundRatio's Center. Both are NaN
// when that centre is: no rounds, an empty process, or a value that is not
// positive.
func RoundLevels(old, new [][]float64) (o, n float64) {
	rounds := min(len(old), len(new))
	if rounds == 0 {
		return math.NaN(), math.NaN()
	}
	var lo, ln float64
	for k := range rounds {
		if len(old[k]) == 0 || len(new[k]) == 0 || !positive(old[k]) || !positive(new[k]) {
			return math.NaN(), math.NaN()
		}
		lo += math.Log(Mean(old[k]))
		ln += math.Log(Mean(new[k]))
	}
	return math.Exp(lo / float64(rounds)), math.Exp(ln / float64(rounds))
}

// TurnLevels returns the per-version figures of TurnRatio's centre. A
// round's median log-ratio d_k is that of its middle pair of iterations
// by log-ratio (for an even count, the mean of its two middle pairs'), so
// it is the difference of that pair's logarithms; over rounds,
//
//	a_k, b_k = the pairs of round k at ranks ⌊(n_k−1)/2⌋ and ⌈(n_k−1)/2⌉ by log(new/old)
//	Old = exp(mean_k (log old_k[a_k] + log old_k[b_k]) / 2)
//	New = exp(mean_k (log new_k[a_k] + log new_k[b_k]) / 2)
//
// so that New/Old = exp(mean_k d_k), TurnRatio's Center. Pairs whose
// log-ratios tie give the same d_k; the first in the round's order is
// taken. Both are NaN when TurnRatio's Center is.
func TurnLevels(old, new [][]float64) (o, n float64) {
	rounds := min(len(old), len(new))
	if rounds == 0 {
		return math.NaN(), math.NaN()
	}
	var lo, ln float64
	for k := range rounds {
		m := min(len(old[k]), len(new[k]))
		if m == 0 || !positive(old[k][:m]) || !positive(new[k][:m]) {
			return math.NaN(), math.NaN()
		}
		idx := make([]int, m)
		logs := make([]float64, m)
		for i := range m {
			idx[i] = i
			logs[i] = math.Log(new[k][i] / old[k][i])
		}
		slices.SortStableFunc(idx, func(i, j int) int { return compareFloat(logs[i], logs[j]) })
		a, b := idx[(m-1)/2], idx[m/2]
		lo += (math.Log(old[k][a]) + math.Log(old[k][b])) / 2
		ln += (math.Log(new[k][a]) + math.Log(new[k][b])) / 2
	}
	return math.Exp(lo / float64(rounds)), math.Exp(ln / float64(rounds))
}

// GeoMeanLevels returns the per-version figures of GeoMeanRatio's centre
// for runs of paired values, whose ratios runs[r][i] = new[r][i]/old[r][i]
// GeoMeanRatio takes. Winsorize replaces at most one ratio of a run by
// its nearest neighbour's value; here the pair is replaced by that
// neighbour pair, so that each run's geometric mean of ratios is the ratio
// of its sides' geometric means over the same pairs:
//
//	P_r = the pairs of run r, the winsorized one replaced by its neighbour
//	Old = exp(mean_r mean_{i∈P_r} log old_r[i]),  New likewise
//
// and New/Old is GeoMeanRatio's Center. Both are NaN when that centre is
// (an empty run, a value that is not positive); old[r] and new[r] must
// have the same length.
func GeoMeanLevels(old, new [][]float64) (o, n float64) {
	if len(old) == 0 || len(old) != len(new) {
		return math.NaN(), math.NaN()
	}
	var lo, ln float64
	var ratios, w []float64
	for r := range old {
		if len(old[r]) == 0 || len(old[r]) != len(new[r]) || !positive(old[r]) || !positive(new[r]) {
			return math.NaN(), math.NaN()
		}
		ratios = ratios[:0]
		for i := range old[r] {
			ratios = append(ratios, new[r][i]/old[r][i])
		}
		w = Winsorize(w[:0], ratios, DuetWinsorFraction)
		var so, sn float64
		for i := range ratios {
			j := i
			if w[i] != ratios[i] {
				if at := slices.Index(ratios, w[i]); at >= 0 {
					j = at
				}
			}
			so += math.Log(old[r][j])
			sn += math.Log(new[r][j])
		}
		lo += so / float64(len(ratios))
		ln += sn / float64(len(ratios))
	}
	return math.Exp(lo / float64(len(old))), math.Exp(ln / float64(len(old)))
}

// compareFloat orders two numbers that are not NaN.
func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
