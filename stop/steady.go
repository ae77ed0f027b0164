package stop

import (
	"fmt"
	"math"
)

// PerOp holds the per-op figures of one iteration that the steady-state
// rule watches: seconds, bytes allocated and allocations per op. NaN marks
// a figure that was not measured; Unmeasured has none.
type PerOp struct {
	Sec, Bytes, Allocs float64
}

// Unmeasured is an iteration of which no per-op figure is known. The
// steady-state rule finds every such iteration steady, so a runner that
// has only the criterion's metric gets the warm-up of the criterion alone.
var Unmeasured = PerOp{Sec: math.NaN(), Bytes: math.NaN(), Allocs: math.NaN()}

func (p PerOp) unmeasured() bool {
	return math.IsNaN(p.Sec) && math.IsNaN(p.Bytes) && math.IsNaN(p.Allocs)
}

// Steady is the steady-state rule of warm-up: when a fork measures what a
// long `go test -benchtime` run measures. A process's first operations can
// cost far more than the rest: buffers and caches are allocated and filled
// on first use, the heap grows, pages are touched for the first time. `go
// test` spreads that cost over the hundreds of operations of its one timed
// run; a runner that times many short iterations must instead discard
// iterations until they stop changing. Two iterations, an earlier a and a
// later b, agree when
//
//	|B/op(a) − B/op(b)|           ≤ max(Bytes,  Rel · max(B/op(a), B/op(b)))
//	|allocs/op(a) − allocs/op(b)| ≤ max(Allocs, Rel · max(allocs/op(a), allocs/op(b)))
//	sec/op(a)                     ≤ Steep · sec/op(b)
//
// each over the figures both iterations have. Memory must stay put, in
// either direction; time may rise or fall a little, but a fall by more than
// the factor Steep says that a was still warming up.
type Steady struct {
	Rel    float64 // B/op and allocs/op agree within this fraction of the larger
	Bytes  float64 // and always within this many bytes per op
	Allocs float64 // and this many allocations per op
	Steep  float64 // time per op falling by more than this factor is warm-up
}

// DefaultSteady is the rule mbench run applies.
//
//   - Rel 10%: the warm-up this rule is for moves B/op by multiples (a
//     parser allocating megabytes on its first document and nothing
//     afterwards);
//     a per-op figure that varies by a few percent from iteration to
//     iteration (maps growing at different points, a pool refilled after
//     the testing package's GC between iterations) is not warm-up, and
//     must not hold a fork in warm-up until -wi-max.
//   - Bytes 16, Allocs 1: the testing package prints B/op and allocs/op
//     as whole numbers, truncated, and the runtime's tiny allocator
//     takes memory in blocks of 16 bytes, so iterations of a few
//     operations that allocate the same can differ by one unit of either.
//   - Steep 1.25: between two iterations of one process, noise with a
//     coefficient of variation of 10% (the threshold of run's "noisy"
//     warning) makes the earlier one more than 25% slower in one pair in
//     17 (log-normal: P(Z > ln 1.25 / (0.1·√2)) = 5.7%), which costs one
//     more warm-up iteration; cold iterations are slower by factors.
var DefaultSteady = Steady{Rel: 0.10, Bytes: 16, Allocs: 1, Steep: 1.25}

// Agree returns "" when iteration a is in the state of iteration b under
// the rule, and otherwise the unit of the first figure that tells them
// apart: "B/op", "allocs/op" or "sec/op" (a slower than b by more than
// Steep). Figures missing (NaN) in either iteration are not compared.
func (s Steady) Agree(a, b PerOp) string {
	near := func(x, y, abs float64) bool {
		return math.IsNaN(x) || math.IsNaN(y) || math.Abs(x-y) <= math.Max(abs, s.Rel*math.Max(x, y))
	}
	switch {
	case !near(a.Bytes, b.Bytes, s.Bytes):
		return "B/op"
	case !near(a.Allocs, b.Allocs, s.Allocs):
		return "allocs/op"
	case a.Sec > s.Steep*b.Sec: // false when either is NaN
		return "sec/op"
	}
	return ""
}

// Settled applies DefaultSteady to the iterations of one fork, in order,
// given as their B/op, allocs/op and sec/op; a nil slice is a figure not
// measured, and the others must have the same length. It returns warm, the
// number of iterations up to and including the first that agrees with the
// one before it, and ok; or the number of iterations and false when no two
// consecutive iterations agree. warm counts the two iterations that show
// the steady state: a runner deciding as iterations arrive knows the state
// only when the second has ended, and has by then reported both as warm-up.
// A runner that decides after the fork may keep the pair, discarding
// warm−2. Settled panics if the lengths differ.
func Settled(bytesPerOp, allocsPerOp, secPerOp []float64) (warm int, ok bool) {
	return DefaultSteady.Settled(bytesPerOp, allocsPerOp, secPerOp)
}

// Settled is the package's Settled under rule s.
func (s Steady) Settled(bytesPerOp, allocsPerOp, secPerOp []float64) (warm int, ok bool) {
	n := -1
	for _, col := range [][]float64{bytesPerOp, allocsPerOp, secPerOp} {
		if col == nil {
			continue
		}
		if n >= 0 && len(col) != n {
			panic(fmt.Sprintf("stop: Settled of %d and %d iterations", n, len(col)))
		}
		n = len(col)
	}
	at := func(col []float64, i int) float64 {
		if col == nil {
			return math.NaN()
		}
		return col[i]
	}
	st := NewSteadyState(s)
	for i := range max(n, 0) {
		if steady, _ := st.Add(PerOp{Sec: at(secPerOp, i), Bytes: at(bytesPerOp, i), Allocs: at(allocsPerOp, i)}); steady {
			return i + 1, true
		}
	}
	return max(n, 0), false
}

// A SteadyState follows the warm-up of the forks of one benchmark through
// a Steady rule. Within a fork, an iteration is steady when it agrees with
// the one before it. Steady state is a property of the benchmark, not of
// the process: once a fork has found it, the iterations that showed it are
// the reference, and an iteration of a later fork that agrees with the
// reference is steady too. A later fork whose first iteration is warm
// therefore ends warm-up after one iteration rather than two. Controller
// keeps one; a runner without a Controller can keep its own. A
// SteadyState is not safe for concurrent use.
type SteadyState struct {
	rule   Steady
	n      int   // iterations of the current fork
	prev   PerOp // the current fork's latest iteration
	ref    PerOp // an iteration found steady
	hasRef bool
}

// NewSteadyState returns a SteadyState under rule s, before its first fork.
func NewSteadyState(s Steady) *SteadyState {
	return &SteadyState{rule: s}
}

// StartFork begins a new fork: its first iteration has none before it.
func (s *SteadyState) StartFork() {
	s.n = 0
}

// Add records the next iteration of the current fork and reports whether
// it is steady. If not, moved is the unit that changed (see Steady.Agree),
// or "" for a fork's first iteration when no earlier fork has found the
// steady state: one iteration shows no change. An iteration of which
// nothing is measured (Unmeasured) is steady.
func (s *SteadyState) Add(op PerOp) (steady bool, moved string) {
	s.n++
	prev := s.prev
	s.prev = op
	if op.unmeasured() {
		return true, ""
	}
	if s.n > 1 && !prev.unmeasured() {
		if moved = s.rule.Agree(prev, op); moved == "" {
			s.ref, s.hasRef = op, true
			return true, ""
		}
	}
	if s.hasRef {
		m := s.rule.Agree(op, s.ref)
		if m == "" {
			return true, ""
		}
		if moved == "" {
			moved = m
		}
	}
	return false, moved
}
