package stats

import (
	"math"
	"math/rand/v2"
)

// RoundRatio returns the confidence interval of the ratio new/old of two
// versions measured in interleaved rounds: in round k one process of each
// version ran, back to back, old[k] holding the old process's iterations and
// new[k] the new one's. A change of the machine's speed that is slower than
// a round moves both processes of the round alike and cancels in the round's
// ratio, which is what makes the randomized multiple interleaved trials of
// Abedi & Brecht ("Conducting repeatable experiments in highly variable
// cloud computing environments", ICPE 2017) and of Japke et al. (µOpTime,
// 2025) sensitive on a drifting machine:
//
//	d_k      = log(mean(new_k) / mean(old_k))              k = 1..R
//	Center   = exp(Σ_k d_k / R)      (the geometric mean of the round ratios)
//	for b = 1..B:
//	    draw R rounds k_1..k_R uniformly with replacement
//	    for each k_j redraw the iterations of old_k and of new_k uniformly
//	    with replacement, within their own process
//	    θ*_b = exp(Σ_j d*_{k_j} / R)
//	[Lo, Hi] = [Q(θ*, α/2), Q(θ*, 1−α/2)],  α = 1 − Level
//
// widened by Expand for R rounds (Student's t with R−1 degrees of freedom,
// the exact interval for the mean of exchangeable round log-ratios). Rounds
// are the independent unit; redrawing iterations within each process as
// well (the second level of Hierarchical) counts the within-process noise
// twice, erring on the conservative side.
//
// Lo and Hi are NaN for fewer than two rounds, an empty process, or values
// that are not positive (Center is NaN then too when a ratio is undefined).
// It panics on an invalid Bootstrap or nil r.
func (b Bootstrap) RoundRatio(old, new [][]float64, r *rand.Rand) Interval {
	b.check(r)
	rounds := min(len(old), len(new))
	logs := make([]float64, rounds)
	for k := range rounds {
		if len(old[k]) == 0 || len(new[k]) == 0 || !positive(old[k]) || !positive(new[k]) {
			return nanInterval(math.NaN(), b.Level)
		}
		logs[k] = math.Log(Mean(new[k]) / Mean(old[k]))
	}
	center := math.Exp(Mean(logs))
	if rounds < 2 {
		return nanInterval(center, b.Level)
	}
	reps := make([]float64, b.Replicates)
	for i := range reps {
		var sum float64
		for range rounds {
			k := r.IntN(rounds)
			// Two statements fix the order of the draws, so a seed
			// reproduces the same interval.
			n := drawMean(new[k], r)
			sum += math.Log(n / drawMean(old[k], r))
		}
		reps[i] = math.Exp(sum / float64(rounds))
	}
	return Expand(b.percentile(center, reps), float64(rounds))
}

// drawMean returns the mean of len(x) values drawn uniformly with
// replacement from x.
func drawMean(x []float64, r *rand.Rand) float64 {
	var s float64
	for range x {
		s += x[r.IntN(len(x))]
	}
	return s / float64(len(x))
}

// positive reports whether every value of x is above zero (and not NaN).
func positive(x []float64) bool {
	for _, v := range x {
		if !(v > 0) {
			return false
		}
	}
	return true
}
