package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// TurnRatio returns the confidence interval, at level, of the ratio
// new/old of two versions measured in turns: in round k one process of
// each version ran at the same time, taking turns iteration by iteration,
// so that old[k][i] and new[k][i] were timed one right after the other
// (the order alternating with i), and a slow phase of the machine that
// lasts longer than two iterations slows both alike. Each round gives the
// median of its paired log-ratios, which a slow phase that hits one
// iteration of a pair cannot move far; the rounds, which are independent
// pairs of processes, give Student's t interval of their mean:
//
//	d_k    = median_i log(new_k[i] / old_k[i])     i < min(len(old_k), len(new_k))
//	Center = exp(mean_k d_k)
//	[Lo, Hi] = exp(mean_k d_k ∓ t(R−1, 1−α/2) · sd_k(d_k) / √R),  α = 1 − level
//
// The estimand is the geometric mean over processes of the median ratio of
// adjacent iterations. A change that scales every iteration by 1+f, the
// same on every process, has exactly 1+f there; so does no change, 1,
// when the noise of a pair is exchangeable between its two turns, which
// the alternating order makes so.
//
// Lo and Hi are NaN for fewer than two rounds, a round without a pair, or
// values that are not positive (Center is NaN then too when a round's
// ratio is undefined).
func TurnRatio(old, new [][]float64, level float64) Interval {
	rounds := min(len(old), len(new))
	d := make([]float64, rounds)
	for k := range rounds {
		n := min(len(old[k]), len(new[k]))
		if n == 0 || !positive(old[k][:n]) || !positive(new[k][:n]) {
			return nanInterval(math.NaN(), level)
		}
		logs := make([]float64, n)
		for i := range n {
			logs[i] = math.Log(new[k][i] / old[k][i])
		}
		d[k] = Median(logs)
	}
	center := Mean(d)
	if rounds < 2 {
		return nanInterval(math.Exp(center), level)
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(rounds - 1)}.Quantile(1 - (1-level)/2)
	half := t * StdDev(d) / math.Sqrt(float64(rounds))
	return Interval{Center: math.Exp(center), Lo: math.Exp(center - half), Hi: math.Exp(center + half), Level: level}
}
