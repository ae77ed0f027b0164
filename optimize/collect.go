package optimize

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mbench/mbench/bench"
)

// Collect lays out the measurement-phase values in unit (a tidy unit such as
// "sec/op") of each benchmark in ms as a Benchmark, by the coordinates `mbench
// run -levels` gives them:
//
//   - suite run s is the rank of Coord.SuiteRun among the benchmark's suite
//     runs, in increasing order;
//   - fork i is the rank of the fork within its suite run, in increasing
//     order of Coord.Fork (a counter of the benchmark's forks across suite
//     runs);
//   - iteration d is the rank of the measurement iteration within its fork,
//     in increasing order of Coord.Iteration (which counts warm-up iterations
//     too).
//
// Warm-up iterations are ignored, and so is a measurement without a value in
// unit, which leaves a hole in its fork.
//
// full gives the levels the run was made with; a zero field is inferred, per
// benchmark, from the data: Forks as the most forks of any suite run,
// Iterations as the most measurement iterations of any fork, SuiteRuns as
// the number of complete suite runs. A suite run is complete when it has at
// least Forks forks whose first Iterations measurement iterations are all
// there; only complete suite runs are used, in order, at most SuiteRuns of
// them, and only the first Forks forks and Iterations iterations of each. So
// an interrupted run yields the largest complete rectangle S'×I×D, S' ≤ S,
// of each benchmark: dropped suite runs and ignored extra data come back as
// warnings naming the benchmark, and a benchmark without a complete suite run
// is left out with a warning.
//
// Collect fails if a benchmark has measurements from more than one instance
// (optimize one machine's run at a time) or two measurements with the same
// coordinates, or if full has a negative field. Benchmarks are returned in
// the order of bench.Key.Compare.
func Collect(ms []bench.Measurement, unit string, full Levels) ([]*Benchmark, []error, error) {
	if full.SuiteRuns < 0 || full.Forks < 0 || full.Iterations < 0 {
		return nil, nil, fmt.Errorf("collect: levels %v: a level is negative", full)
	}
	type iter struct {
		at int
		v  float64
		ok bool // the measurement has a value in unit
	}
	type fork struct {
		id    int
		iters []iter
	}
	type suite struct {
		id    int
		forks []*fork
	}
	type data struct {
		instance string
		suites   []*suite
	}
	byKey := map[bench.Key]*data{}
	for k := range ms {
		m := &ms[k]
		if m.Coord.Phase != bench.Measure {
			continue
		}
		d := byKey[m.Key]
		if d == nil {
			d = &data{instance: m.Coord.Instance}
			byKey[m.Key] = d
		}
		if m.Coord.Instance != d.instance {
			return nil, nil, fmt.Errorf("benchmark %s: measurements from instances %q and %q; optimize one instance's run at a time", m.Key, d.instance, m.Coord.Instance)
		}
		i := slices.IndexFunc(d.suites, func(s *suite) bool { return s.id == m.Coord.SuiteRun })
		if i < 0 {
			d.suites = append(d.suites, &suite{id: m.Coord.SuiteRun})
			i = len(d.suites) - 1
		}
		s := d.suites[i]
		j := slices.IndexFunc(s.forks, func(f *fork) bool { return f.id == m.Coord.Fork })
		if j < 0 {
			s.forks = append(s.forks, &fork{id: m.Coord.Fork})
			j = len(s.forks) - 1
		}
		f := s.forks[j]
		if slices.ContainsFunc(f.iters, func(it iter) bool { return it.at == m.Coord.Iteration }) {
			return nil, nil, fmt.Errorf("benchmark %s: two measurements at suite run %d, fork %d, iteration %d", m.Key, m.Coord.SuiteRun, m.Coord.Fork, m.Coord.Iteration)
		}
		v, ok := m.Get(unit)
		f.iters = append(f.iters, iter{m.Coord.Iteration, v, ok})
	}

	keys := make([]bench.Key, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, bench.Key.Compare)
	var out []*Benchmark
	var warnings []error
	for _, key := range keys {
		d := byKey[key]
		slices.SortFunc(d.suites, func(a, b *suite) int { return cmp.Compare(a.id, b.id) })
		want := full
		for _, s := range d.suites {
			slices.SortFunc(s.forks, func(a, b *fork) int { return cmp.Compare(a.id, b.id) })
			if full.Forks == 0 {
				want.Forks = max(want.Forks, len(s.forks))
			}
			for _, f := range s.forks {
				f.iters = slices.DeleteFunc(f.iters, func(it iter) bool { return !it.ok })
				slices.SortFunc(f.iters, func(a, b iter) int { return cmp.Compare(a.at, b.at) })
				if full.Iterations == 0 {
					want.Iterations = max(want.Iterations, len(f.iters))
				}
			}
		}
		if want.Forks == 0 || want.Iterations == 0 {
			warnings = append(warnings, fmt.Errorf("benchmark %s: no measurements in %s; left out", key, unit))
			continue
		}
		var values []float64
		var dropped []string
		extra := false
		used := 0
		for _, s := range d.suites {
			if full.SuiteRuns > 0 && used == full.SuiteRuns {
				extra = true
				continue
			}
			if why := incomplete(len(s.forks), want, func(i int) int { return len(s.forks[i].iters) }); why != "" {
				dropped = append(dropped, fmt.Sprintf("suite run %d %s", s.id, why))
				continue
			}
			if len(s.forks) > want.Forks {
				extra = true
			}
			for _, f := range s.forks[:want.Forks] {
				if len(f.iters) > want.Iterations {
					extra = true
				}
				for _, it := range f.iters[:want.Iterations] {
					values = append(values, it.v)
				}
			}
			used++
		}
		if extra {
			warnings = append(warnings, fmt.Errorf("benchmark %s: more measurements than levels %v; the extra ones are ignored", key, full))
		}
		if used == 0 {
			warnings = append(warnings, fmt.Errorf("benchmark %s: no complete suite run of %d forks × %d iterations (%s); left out", key, want.Forks, want.Iterations, strings.Join(dropped, ", ")))
			continue
		}
		if len(dropped) > 0 || used < full.SuiteRuns {
			why := strings.Join(dropped, ", ")
			if used+len(dropped) < full.SuiteRuns {
				why = strings.Join(append(dropped, fmt.Sprintf("%d of %d suite runs missing", full.SuiteRuns-used-len(dropped), full.SuiteRuns)), ", ")
			}
			warnings = append(warnings, fmt.Errorf("benchmark %s: using %d complete suite runs of %d forks × %d iterations; %s", key, used, want.Forks, want.Iterations, why))
		}
		want.SuiteRuns = used
		out = append(out, &Benchmark{Key: key, Levels: want, Values: values})
	}
	return out, warnings, nil
}

// incomplete says why a suite run of forks forks (iters(i) measurement
// iterations in fork i) cannot fill levels want, or "" if it can.
func incomplete(forks int, want Levels, iters func(i int) int) string {
	if forks < want.Forks {
		return fmt.Sprintf("has %d of %d forks", forks, want.Forks)
	}
	for i := range want.Forks {
		if n := iters(i); n < want.Iterations {
			return fmt.Sprintf("has %d of %d iterations in its fork %d", n, want.Iterations, i+1)
		}
	}
	return ""
}
