package bisect

import (
	"context"
	"math/rand/v2"
)

// simOracle answers comparisons of a simulated history: commit k's code
// is Π steps[j] (j ≤ k) times as slow as commit 0's. A decided verdict is
// wrong with probability errRate; a comparison is inconclusive with
// probability undecidedSame when the two commits differ by less than
// the threshold and undecidedChanged when they differ by more.
type simOracle struct {
	steps                           map[int]float64
	threshold                       float64
	errRate                         float64
	undecidedSame, undecidedChanged float64
	fail                            map[int]bool
	rng                             *rand.Rand
	calls                           int
}

func (s *simOracle) truth(old, new int) (float64, Verdict) {
	r := 1.0
	for k, f := range s.steps {
		if k > old && k <= new {
			r *= f
		}
	}
	switch {
	case r > 1+s.threshold:
		return r, Slower
	case r < 1-s.threshold:
		return r, Faster
	}
	return r, NoChange
}

func (s *simOracle) Compare(_ context.Context, q Query) (Outcome, error) {
	s.calls++
	for _, c := range []int{q.Old, q.New} {
		if s.fail[c] {
			return Outcome{Failed: &Failure{Commit: c, Reason: "does not build"}}, nil
		}
	}
	r, v := s.truth(q.Old, q.New)
	und := s.undecidedSame
	if v != NoChange {
		und = s.undecidedChanged
	}
	switch {
	case s.rng.Float64() < und:
		v = Inconclusive
	case s.rng.Float64() < s.errRate:
		// The harmful error: a change where there is none (the way
		// looked for is taken to be slower), none where there is one.
		if v == NoChange {
			v = Slower
		} else {
			v = NoChange
		}
	}
	return Outcome{Rows: []Row{{Name: "BenchmarkX", Ratio: r, Lo: r * 0.99, Hi: r * 1.01, Verdict: v}}}, nil
}
