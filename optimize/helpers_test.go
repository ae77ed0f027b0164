package optimize

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/mbench/mbench/bench"
)

// newRand returns a generator with a fixed seed, so every test is
// reproducible.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x6f7074))
}

// synth returns a benchmark of levels l whose values are lognormal around
// level: each fork's level varies by relative spread between, each
// iteration within its fork by relative spread within.
func synth(r *rand.Rand, name string, l bench.Levels, level, within, between float64) *Benchmark {
	b := &Benchmark{Key: bench.Key{Package: "example.com/synth", Name: name, Procs: 2}, Levels: l}
	for range l.SuiteRuns * l.Forks {
		f := level * math.Exp(between*r.NormFloat64())
		for range l.Iterations {
			b.Values = append(b.Values, f*math.Exp(within*r.NormFloat64()))
		}
	}
	return b
}

// suite returns n synthetic benchmarks of levels l whose noise is spread
// log-uniformly from 0.05% to 20% — from the quietest Go benchmarks to
// noisy ones — a fifth of it between forks.
func suite(seed uint64, n int, l bench.Levels) []*Benchmark {
	r := newRand(seed)
	out := make([]*Benchmark, n)
	for k := range out {
		cv := 0.0005 * math.Pow(400, r.Float64())
		out[k] = synth(r, fmt.Sprintf("B%04d", k), l, 1e-6*math.Exp(3*r.NormFloat64()), cv, cv/5)
	}
	return out
}

// same reports whether a and b are equal or both NaN.
func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// near reports whether got is within relative tolerance tol of want.
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Abs(want)
}
