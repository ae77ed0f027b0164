package stop

import (
	"fmt"
	"math"

	"github.com/mbench/mbench/stats"
)

// KLD is Laaber et al. 2020's Kullback-Leibler criterion (§4.2.3, after He et al.):
// the statistic is the probability p that the measurements without the
// latest iteration (or fork) and the measurements with it come from the same
// distribution, stats.KLSimilarity on Points grid points, and a series is
// stable when the mean p over the window exceeds Threshold (stable^prob).
//
// Warmup computes, after n values v_1 … v_n of the fork and window s,
//
//	p_x = KLSimilarity(v_1 … v_x−1, v_1 … v_x),  n−s < x ≤ n
//
// and is stable iff mean(p_x) > t. The distributions grow from the fork's
// first warm-up iteration, as in He et al. and the authors' JMH fork, not
// from the window's start as Laaber et al. 2020's Eq. (1) writes: in JMH an iteration
// carries thousands of invocation samples, in Go one number, and the KDE of
// the 2 to 6 numbers of Eq. (1)'s window moves so much with each added value
// that p stays below 0.99 on stationary noise. Grown from the fork's start,
// p passes after about as many stationary values as the warm-up the paper
// reports for KLD (14.1 ± 6.9 iterations, §5.4.2). The smallest p_x needs
// two values before it, so Warmup needs Window+2 values.
//
// Forks computes one probability (a fork window of 2, as the authors' JMH
// fork; see the package comment),
//
//	p = KLSimilarity(M_1 ∪ … ∪ M_f−1, M_1 ∪ … ∪ M_f)
//
// and is stable iff p > t. It needs two forks.
//
// KLSimilarity is undefined when a sample has no spread (identical values,
// which Go's rounded ns/op can produce for very fast operations). Then p is 1
// if both samples consist of one and the same value and 0 otherwise: a
// distribution that is still gaining its first spread is not yet stable.
//
// Build it with New, which checks the fields; the methods assume valid ones.
type KLD struct {
	Window    int
	Threshold float64
	Points    int

	memo *prefixMemo[float64] // see memoizer; nil outside a Controller
}

func (c KLD) memoized() Criterion {
	c.memo = newValueMemo()
	return c
}

func (c KLD) validate() error {
	if err := checkWindow(c.Window); err != nil {
		return err
	}
	if !(c.Threshold > 0 && c.Threshold < 1) {
		return fmt.Errorf("KLDThreshold %v: want a probability in (0, 1)", c.Threshold)
	}
	if c.Points < 2 {
		return fmt.Errorf("KLDPoints %d < 2", c.Points)
	}
	return nil
}

func (c KLD) warmupWindow() int { return c.Window + 1 }

// Name returns "kld".
func (KLD) Name() string { return "kld" }

// Warmup checks the mean similarity of the last Window growth steps of the
// fork's warm-up; it needs Window+2 values.
func (c KLD) Warmup(values []float64) Decision {
	n, s := len(values), c.Window
	if n < s+2 {
		return needMore("kld", s+2, n, "warm-up values")
	}
	if c.memo != nil {
		c.memo.sync(values)
	}
	var sum float64
	for x := n - s + 1; x <= n; x++ {
		sum += c.memo.get(x, func() float64 { return similarity(values[:x-1], values[:x], c.Points) })
	}
	return c.decision(sum / float64(s))
}

// Forks checks the similarity of all measurements of forks 1..f−1 and
// 1..f; it needs two forks.
func (c KLD) Forks(forks [][]float64) Decision {
	f := len(forks)
	if f < 2 {
		return needMore("kld", 2, f, "forks")
	}
	all := pooled(forks)
	before := all[:len(all)-len(forks[f-1])]
	return c.decision(similarity(before, all, c.Points))
}

func (c KLD) decision(p float64) Decision {
	d := Decision{Value: p, Stable: p > c.Threshold}
	rel := "<="
	if d.Stable {
		rel = ">"
	}
	d.Detail = fmt.Sprintf("kld p %.4f %s %.4g", p, rel, c.Threshold)
	return d
}

// similarity is stats.KLSimilarity with the zero-spread cases decided as
// the KLD doc comment says.
func similarity(a, b []float64, points int) float64 {
	p := stats.KLSimilarity(a, b, points)
	if !math.IsNaN(p) {
		return p
	}
	if len(a) > 0 && len(b) > 0 && constant(a, a[0]) && constant(b, a[0]) {
		return 1
	}
	return 0
}

// constant reports whether every value of x equals v.
func constant(x []float64, v float64) bool {
	for _, y := range x {
		if y != v {
			return false
		}
	}
	return true
}
