package stats

import (
	"fmt"
	"math"
)

// A Sequence plans the looks of a comparison that grows until its verdict
// is decided: the data are examined only after Looks[0], Looks[1], …
// rounds, and the interval at each look has confidence level
// 1 − Alpha/len(Looks).
//
// Looking after every round and stopping as soon as an interval excludes
// "no change" inflates the error rate far beyond the nominal one: with 25
// looks at 95%, an A/A comparison is flagged in about a third of cases
// (Armitage, McPherson & Rowe, "Repeated significance tests on accumulating
// data", J. R. Stat. Soc. A 132(2), 1969). Spending the error rate over a
// few planned looks bounds it: by the union bound, the chance that any of
// the intervals misses the true ratio is at most the sum of their miss
// rates,
//
//	P(∃ j: θ ∉ I_j) ≤ Σ_j α/J = α,
//
// whatever rule decides to stop, so the interval at the look where a
// comparison stops covers the true ratio with probability at least 1 − α
// and a verdict of slower or faster on an A/A pair has probability at most α.
// This is alpha spending (Lan & DeMets, "Discrete sequential boundaries for
// clinical trials", Biometrika 70(3), 1983) with equal shares, corrected by
// Bonferroni instead of the joint normal distribution of the looks: the
// looks of a benchmark comparison are not normal enough to trust the exact
// group-sequential boundaries, and with looks growing geometrically the
// price is small (five looks at α = 0.05 use 99% intervals: 1.31 times as
// wide as one 95% interval with the same data).
type Sequence struct {
	Alpha float64
	Looks []int
}

// SequenceGrowth is the factor between successive looks of NewSequence:
// each look adds about half the rounds there are, so a look costs at most
// a third more than the smallest sufficient one.
const SequenceGrowth = 1.5

// NewSequence returns the looks from min to max rounds, each about
// SequenceGrowth times the one before, with the last at max (a look that
// would fall within a fifth of max is moved to max). It panics unless
// 2 ≤ min ≤ max and 0 < alpha < 1.
func NewSequence(alpha float64, min, max int) Sequence {
	if !(alpha > 0 && alpha < 1) || min < 2 || max < min {
		panic(fmt.Sprintf("stats: NewSequence(%v, %d, %d): want 0 < alpha < 1 and 2 ≤ min ≤ max", alpha, min, max))
	}
	looks := []int{min}
	for {
		next := int(math.Ceil(float64(looks[len(looks)-1]) * SequenceGrowth))
		if float64(next)*1.2 >= float64(max) {
			break
		}
		looks = append(looks, next)
	}
	if looks[len(looks)-1] != max {
		looks = append(looks, max)
	}
	return Sequence{Alpha: alpha, Looks: looks}
}

// LookAlpha is the error rate spent at each look, Alpha/len(Looks).
func (s Sequence) LookAlpha() float64 {
	return s.Alpha / float64(len(s.Looks))
}

// IsLook reports whether n rounds is a planned look.
func (s Sequence) IsLook(n int) bool {
	for _, l := range s.Looks {
		if l == n {
			return true
		}
	}
	return false
}

// Next returns the first planned look after n rounds, or 0 when n is at or
// past the last.
func (s Sequence) Next(n int) int {
	for _, l := range s.Looks {
		if l > n {
			return l
		}
	}
	return 0
}
