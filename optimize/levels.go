package optimize

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/mbench/mbench/bench"
)

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
func candidates(full bench.Levels, minForks int) []bench.Levels {
	minForks = min(minForks, full.SuiteRuns*full.Forks)
	var out []bench.Levels
	for s := 1; s <= full.SuiteRuns; s++ {
		for i := 1; i <= full.Forks; i++ {
			for d := 1; d <= full.Iterations; d++ {
				if l := (bench.Levels{SuiteRuns: s, Forks: i, Iterations: d}); l.Total() >= MinMeasurements && s*i >= minForks {
					out = append(out, l)
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b bench.Levels) int { return cmp.Compare(a.Total(), b.Total()) })
	return out
}

// minimum returns the minimum baseline of Japke et al. 2025 §4.2, "always picks the
// smallest possible execution configuration": the cheapest candidate, and
// among equally cheap ones the one with the most forks, then the most suite
// runs. For the paper's (3, 5, 5) that is (1, 3, 1), the configuration the
// authors' code hard-codes: three processes, one iteration each. Without
// candidates it is full.
func minimum(full bench.Levels) bench.Levels {
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
// level: Values[((k·S + s)·F + i)·I + d] is the value of measurement
// iteration d of fork i of suite run s on instance k (all 0-based; S =
// Levels.SuiteRuns, F = Levels.Forks, I = Levels.Iterations). The
// measurements of a smaller configuration l are the prefix on every level:
// suite runs 0..l.SuiteRuns−1, forks 0..l.Forks−1 of each, iterations
// 0..l.Iterations−1 of each fork (Japke et al. 2025 §3.1, getMeasurements),
// on the first n instances (InstancePrefix).
type Benchmark struct {
	Key    bench.Key
	Levels bench.Levels
	// Instances is the number of instances (machines) the benchmark was
	// measured on, each in Levels; 0 means 1.
	Instances int
	Values    []float64
}

// NewBenchmark returns the benchmark whose value of suite run s, fork i,
// iteration d is values[s][i][d]. values must be rectangular, non-empty on
// every level, and finite.
func NewBenchmark(key bench.Key, values [][][]float64) (*Benchmark, error) {
	return NewInstancesBenchmark(key, [][][][]float64{values})
}

// NewInstancesBenchmark returns the benchmark measured on len(values)
// instances whose value of instance k, suite run s, fork i, iteration d is
// values[k][s][i][d]. values must be rectangular, non-empty on every level,
// and finite.
func NewInstancesBenchmark(key bench.Key, values [][][][]float64) (*Benchmark, error) {
	if len(values) == 0 || len(values[0]) == 0 || len(values[0][0]) == 0 || len(values[0][0][0]) == 0 {
		return nil, fmt.Errorf("benchmark %s: no values", key)
	}
	l := bench.Levels{SuiteRuns: len(values[0]), Forks: len(values[0][0]), Iterations: len(values[0][0][0])}
	b := &Benchmark{Key: key, Levels: l, Instances: len(values), Values: make([]float64, 0, len(values)*l.Total())}
	for k, runs := range values {
		where := ""
		if len(values) > 1 {
			where = fmt.Sprintf("instance %d, ", k)
		}
		if len(runs) != l.SuiteRuns {
			return nil, fmt.Errorf("benchmark %s: instance %d has %d suite runs, instance 0 has %d", key, k, len(runs), l.SuiteRuns)
		}
		for s, forks := range runs {
			if len(forks) != l.Forks {
				return nil, fmt.Errorf("benchmark %s: %ssuite run %d has %d forks, suite run 0 has %d", key, where, s, len(forks), l.Forks)
			}
			for i, iters := range forks {
				if len(iters) != l.Iterations {
					return nil, fmt.Errorf("benchmark %s: %ssuite run %d, fork %d has %d iterations, the first fork has %d", key, where, s, i, len(iters), l.Iterations)
				}
				b.Values = append(b.Values, iters...)
			}
		}
	}
	if err := b.validate(); err != nil {
		return nil, err
	}
	return b, nil
}

// instances returns the number of instances, at least 1.
func (b *Benchmark) instances() int { return max(1, b.Instances) }

// validate reports a benchmark whose levels or values cannot be used.
func (b *Benchmark) validate() error {
	if b == nil {
		return errors.New("nil benchmark")
	}
	if err := b.Levels.Validate(); err != nil {
		return fmt.Errorf("benchmark %s: %w", b.Key, err)
	}
	if b.Instances < 0 || b.Instances > bench.MaxIterations {
		return fmt.Errorf("benchmark %s: %d instances", b.Key, b.Instances)
	}
	if n := b.instances(); len(b.Values) != n*b.Levels.Total() {
		of := ""
		if n > 1 {
			of = fmt.Sprintf("%d instances of ", n)
		}
		return fmt.Errorf("benchmark %s: %d values for %slevels %v, want %d", b.Key, len(b.Values), of, b.Levels, n*b.Levels.Total())
	}
	for k, v := range b.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("benchmark %s: value %d is %v", b.Key, k, v)
		}
	}
	return nil
}

// Prefix appends to dst[:0] the measurements configuration l keeps on every
// instance, instance after instance, suite run after suite run, fork after
// fork, and returns it: InstancePrefix of all instances. It panics if l is
// not Within b.Levels.
func (b *Benchmark) Prefix(dst []float64, l bench.Levels) []float64 {
	return b.InstancePrefix(dst, b.instances(), l)
}

// InstancePrefix appends to dst[:0] the measurements configuration l keeps
// on the first n instances and returns it. It panics if l is not Within
// b.Levels or n is not between 1 and the number of instances.
func (b *Benchmark) InstancePrefix(dst []float64, n int, l bench.Levels) []float64 {
	dst = dst[:0]
	b.eachFork(n, l, func(_ int, fork []float64) { dst = append(dst, fork...) })
	return dst
}

// eachFork calls yield with the instance and the measurements of each fork
// configuration l keeps on the first n instances, in the order of the
// layout. It panics as InstancePrefix does.
func (b *Benchmark) eachFork(n int, l bench.Levels, yield func(k int, fork []float64)) {
	if !l.Within(b.Levels) || l.Validate() != nil || n < 1 || n > b.instances() {
		panic(fmt.Sprintf("optimize: %d instances of levels %v outside %d of %v", n, l, b.instances(), b.Levels))
	}
	f, d := b.Levels.Forks, b.Levels.Iterations
	for k := range n {
		base := k * b.Levels.Total()
		for s := range l.SuiteRuns {
			for i := range l.Forks {
				at := base + (s*f+i)*d
				yield(k, b.Values[at:at+l.Iterations])
			}
		}
	}
}

// instanceForks returns the measurements configuration l keeps on the first
// n instances, by instance, then fork: the layout of stats.Bootstrap.Nested.
func (b *Benchmark) instanceForks(n int, l bench.Levels) [][][]float64 {
	out := make([][][]float64, n)
	b.eachFork(n, l, func(k int, fork []float64) { out[k] = append(out[k], fork) })
	return out
}

// instanceData returns, for each of the benchmark's instances, the
// measurements configuration l keeps there as one group: the layout of
// stats.NewNestedSample for resampling instances and then measurements
// within each, pooled as Japke et al. 2025 pool them.
func (b *Benchmark) instanceData(l bench.Levels) [][][]float64 {
	out := make([][][]float64, b.instances())
	b.eachFork(len(out), l, func(k int, fork []float64) {
		if out[k] == nil {
			out[k] = [][]float64{nil}
		}
		out[k][0] = append(out[k][0], fork...)
	})
	return out
}
