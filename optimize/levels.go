package optimize

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/mbench/mbench/bench"
)

// Levels is the model's configuration in Japke et al. 2025's levels (see
// bench.Levels): a configuration Optimize considers, chooses and plans.
type Levels = bench.Levels

// MinMeasurements is the fewest measurements a configuration must have to be
// considered: Algorithm 1 line 8 of Japke et al. 2025 ("numberOfRepetitions(e) ≥ 3"),
// because variance-based metrics need a few values. The authors' code counts
// suite runs × iterations only; the paper's text, followed here, counts
// every measurement, s·i·d.
const MinMeasurements = 3

// candidates returns every configuration within full with at least
// MinMeasurements measurements and min(minForks, full's s·i) processes,
// cheapest first; configurations of equal cost
// are in lexicographic order of (SuiteRuns, Forks, Iterations), the order in
// which the authors' code enumerates them and so breaks exact ties.
func candidates(full Levels, minForks int) []Levels {
	minForks = min(minForks, full.SuiteRuns*full.Forks)
	var out []Levels
	for s := 1; s <= full.SuiteRuns; s++ {
		for i := 1; i <= full.Forks; i++ {
			for d := 1; d <= full.Iterations; d++ {
				if l := (Levels{SuiteRuns: s, Forks: i, Iterations: d}); l.Total() >= MinMeasurements && s*i >= minForks {
					out = append(out, l)
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Levels) int { return cmp.Compare(a.Total(), b.Total()) })
	return out
}

// minimum returns the minimum baseline of Japke et al. 2025 §4.2, "always picks the
// smallest possible execution configuration": the cheapest candidate, and
// among equally cheap ones the one with the most forks, then the most suite
// runs. For the paper's (3, 5, 5) that is (1, 3, 1), the configuration the
// authors' code hard-codes: three processes, one iteration each. Without
// candidates it is full.
func minimum(full Levels) Levels {
	cs := candidates(full, 0)
	if len(cs) == 0 {
		return full
	}
	best := cs[0]
	for _, c := range cs[1:] {
		if c.Total() > best.Total() {
			break
		}
		if c.Forks > best.Forks || c.Forks == best.Forks && c.SuiteRuns > best.SuiteRuns {
			best = c
		}
	}
	return best
}

// A Benchmark is one benchmark's measurements from a full run, laid out by
// level: Values[(s·F + i)·I + d] is the value of measurement iteration d of
// fork i of suite run s (all 0-based; F = Levels.Forks, I =
// Levels.Iterations). The measurements of a smaller configuration l are the
// prefix on every level: suite runs 0..l.SuiteRuns−1, forks 0..l.Forks−1 of
// each, iterations 0..l.Iterations−1 of each fork (Japke et al. 2025 §3.1,
// getMeasurements).
type Benchmark struct {
	Key    bench.Key
	Levels Levels
	Values []float64
}

// NewBenchmark returns the benchmark whose value of suite run s, fork i,
// iteration d is values[s][i][d]. values must be rectangular, non-empty on
// every level, and finite.
func NewBenchmark(key bench.Key, values [][][]float64) (*Benchmark, error) {
	if len(values) == 0 || len(values[0]) == 0 || len(values[0][0]) == 0 {
		return nil, fmt.Errorf("benchmark %s: no values", key)
	}
	l := Levels{SuiteRuns: len(values), Forks: len(values[0]), Iterations: len(values[0][0])}
	b := &Benchmark{Key: key, Levels: l, Values: make([]float64, 0, l.Total())}
	for s, forks := range values {
		if len(forks) != l.Forks {
			return nil, fmt.Errorf("benchmark %s: suite run %d has %d forks, suite run 0 has %d", key, s, len(forks), l.Forks)
		}
		for i, iters := range forks {
			if len(iters) != l.Iterations {
				return nil, fmt.Errorf("benchmark %s: suite run %d, fork %d has %d iterations, the first fork has %d", key, s, i, len(iters), l.Iterations)
			}
			b.Values = append(b.Values, iters...)
		}
	}
	if err := b.validate(); err != nil {
		return nil, err
	}
	return b, nil
}

// validate reports a benchmark whose levels or values cannot be used.
func (b *Benchmark) validate() error {
	if b == nil {
		return errors.New("nil benchmark")
	}
	if err := b.Levels.Validate(); err != nil {
		return fmt.Errorf("benchmark %s: %w", b.Key, err)
	}
	if len(b.Values) != b.Levels.Total() {
		return fmt.Errorf("benchmark %s: %d values for levels %v, want %d", b.Key, len(b.Values), b.Levels, b.Levels.Total())
	}
	for k, v := range b.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("benchmark %s: value %d is %v", b.Key, k, v)
		}
	}
	return nil
}

// Prefix appends to dst[:0] the measurements configuration l keeps, suite run
// after suite run, fork after fork, and returns it. It panics if l is not
// Within b.Levels.
func (b *Benchmark) Prefix(dst []float64, l Levels) []float64 {
	if !l.Within(b.Levels) || l.Validate() != nil {
		panic(fmt.Sprintf("optimize: levels %v outside %v", l, b.Levels))
	}
	dst = dst[:0]
	f, n := b.Levels.Forks, b.Levels.Iterations
	for s := range l.SuiteRuns {
		for i := range l.Forks {
			at := (s*f + i) * n
			dst = append(dst, b.Values[at:at+l.Iterations]...)
		}
	}
	return dst
}
