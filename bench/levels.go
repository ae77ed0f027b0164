package bench

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Levels is a fixed configuration in Japke et al. 2025's repetition levels,
// outermost first: SuiteRuns suite runs, Forks forks (processes) of the
// benchmark in each suite run — the paper's "iterations", each at its own
// random position in the suite run — and Iterations consecutive measurement
// iterations in each fork — the paper's "duration", cut into slices of one
// iteration time each so that shorter durations can be simulated from
// prefixes. `mbench run -levels` executes it, `mbench optimize` chooses
// one per benchmark.
type Levels struct {
	SuiteRuns, Forks, Iterations int
}

// Total returns the number of measurement iterations of l, s·i·d. It is the
// cost of l in units of one iteration time; warm-up iterations and process
// start-up are not counted (Japke et al. 2025 counts the measurement phase only).
func (l Levels) Total() int { return l.SuiteRuns * l.Forks * l.Iterations }

// String returns l as "S,I,D", the form of `mbench run -levels`.
func (l Levels) String() string {
	return fmt.Sprintf("%d,%d,%d", l.SuiteRuns, l.Forks, l.Iterations)
}

// MaxIterations bounds Total: at the shortest iteration time mbench uses,
// a millisecond, more iterations would run for over eleven days, so more is
// a mistake; and a larger product of three levels could overflow int.
const MaxIterations = 1_000_000_000

// Validate reports a level that is not positive, or levels that ask for
// more than MaxIterations measurement iterations in all.
func (l Levels) Validate() error {
	if l.SuiteRuns < 1 || l.Forks < 1 || l.Iterations < 1 {
		return fmt.Errorf("levels %v: every level must be at least 1", l)
	}
	// Each factor is at most MaxIterations, so no product below
	// overflows int64.
	total := int64(1)
	for _, n := range []int{l.SuiteRuns, l.Forks, l.Iterations} {
		if n > MaxIterations {
			total = MaxIterations + 1
			break
		}
		total *= int64(n)
		if total > MaxIterations {
			break
		}
	}
	if total > MaxIterations {
		return fmt.Errorf("levels %v: more than %d iterations in all", l, MaxIterations)
	}
	return nil
}

// Within reports whether l asks for no more than full on every level, so
// that its measurements are a prefix of full's.
func (l Levels) Within(full Levels) bool {
	return l.SuiteRuns <= full.SuiteRuns && l.Forks <= full.Forks && l.Iterations <= full.Iterations
}

// ParseLevels parses "S,I,D", three positive integers whose product is at
// most MaxIterations.
func ParseLevels(s string) (Levels, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return Levels{}, errors.New("want S,I,D: suite runs, forks per suite run, iterations per fork")
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v < 1 {
			return Levels{}, fmt.Errorf("%q is not a positive integer", p)
		}
		n[i] = v
	}
	l := Levels{SuiteRuns: n[0], Forks: n[1], Iterations: n[2]}
	if err := l.Validate(); err != nil {
		return Levels{}, err
	}
	return l, nil
}
