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
// A benchmark measured on several instances (Coord.Instance: runs on
// several machines gathered under one label) gets the instance as its
// outermost level: instances in increasing order of name, each laid out as
// above with the same Forks and Iterations, and each cut to the number of
// complete suite runs of the instance with fewest, so that every instance
// contributes the same rectangle; an instance without a complete suite run
// is left out, with a warning.
//
// Collect fails if a benchmark has two measurements with the same
// coordinates, or if full has a negative field. Benchmarks are returned in
// the order of bench.Key.Compare.
func Collect(ms []bench.Measurement, unit string, full bench.Levels) ([]*Benchmark, []error, error) {
	if full.SuiteRuns < 0 || full.Forks < 0 || full.Iterations < 0 {
		return nil, nil, fmt.Errorf("collect: levels %v: a level is negative", full)
	}
	byKey := map[bench.Key][]*instanceRuns{}
	for k := range ms {
		m := &ms[k]
		if m.Coord.Phase != bench.Measure {
			continue
		}
		insts := byKey[m.Key]
		h := slices.IndexFunc(insts, func(in *instanceRuns) bool { return in.name == m.Coord.Instance })
		if h < 0 {
			insts = append(insts, &instanceRuns{name: m.Coord.Instance})
			byKey[m.Key] = insts
			h = len(insts) - 1
		}
		in := insts[h]
		i := slices.IndexFunc(in.suites, func(s *suiteRun) bool { return s.id == m.Coord.SuiteRun })
		if i < 0 {
			in.suites = append(in.suites, &suiteRun{id: m.Coord.SuiteRun})
			i = len(in.suites) - 1
		}
		s := in.suites[i]
		j := slices.IndexFunc(s.forks, func(f *forkRun) bool { return f.id == m.Coord.Fork })
		if j < 0 {
			s.forks = append(s.forks, &forkRun{id: m.Coord.Fork})
			j = len(s.forks) - 1
		}
		f := s.forks[j]
		if slices.ContainsFunc(f.iters, func(it iterValue) bool { return it.at == m.Coord.Iteration }) {
			where := ""
			if m.Coord.Instance != "" {
				where = fmt.Sprintf("instance %q, ", m.Coord.Instance)
			}
			return nil, nil, fmt.Errorf("benchmark %s: two measurements at %ssuite run %d, fork %d, iteration %d", m.Key, where, m.Coord.SuiteRun, m.Coord.Fork, m.Coord.Iteration)
		}
		v, ok := m.Get(unit)
		f.iters = append(f.iters, iterValue{m.Coord.Iteration, v, ok})
	}

	keys := make([]bench.Key, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, bench.Key.Compare)
	var out []*Benchmark
	var warnings []error
	for _, key := range keys {
		b, ws := collectOne(key, byKey[key], unit, full)
		warnings = append(warnings, ws...)
		if b != nil {
			out = append(out, b)
		}
	}
	return out, warnings, nil
}

// The measurements of one benchmark as Collect gathers them.
type (
	instanceRuns struct {
		name   string
		suites []*suiteRun
	}
	suiteRun struct {
		id    int
		forks []*forkRun
	}
	forkRun struct {
		id    int
		iters []iterValue
	}
	iterValue struct {
		at int
		v  float64
		ok bool // the measurement has a value in unit
	}
)

// collectOne lays out one benchmark's measurements on its instances insts;
// nil when nothing is complete, which a warning says.
func collectOne(key bench.Key, insts []*instanceRuns, unit string, full bench.Levels) (*Benchmark, []error) {
	slices.SortFunc(insts, func(a, b *instanceRuns) int { return cmp.Compare(a.name, b.name) })
	want := full
	for _, in := range insts {
		slices.SortFunc(in.suites, func(a, b *suiteRun) int { return cmp.Compare(a.id, b.id) })
		for _, s := range in.suites {
			slices.SortFunc(s.forks, func(a, b *forkRun) int { return cmp.Compare(a.id, b.id) })
			if full.Forks == 0 {
				want.Forks = max(want.Forks, len(s.forks))
			}
			for _, f := range s.forks {
				f.iters = slices.DeleteFunc(f.iters, func(it iterValue) bool { return !it.ok })
				slices.SortFunc(f.iters, func(a, b iterValue) int { return cmp.Compare(a.at, b.at) })
				if full.Iterations == 0 {
					want.Iterations = max(want.Iterations, len(f.iters))
				}
			}
		}
	}
	if want.Forks == 0 || want.Iterations == 0 {
		return nil, []error{fmt.Errorf("benchmark %s: no measurements in %s; left out", key, unit)}
	}
	var warnings []error
	multi := len(insts) > 1
	var kept []string
	var runs [][][]float64 // per kept instance, per complete suite run, its values
	for _, in := range insts {
		name := fmt.Sprintf("benchmark %s", key)
		if multi {
			name = fmt.Sprintf("benchmark %s, instance %q", key, in.name)
		}
		suites, ws := layoutInstance(name, in, want, full)
		warnings = append(warnings, ws...)
		if len(suites) > 0 {
			kept = append(kept, in.name)
			runs = append(runs, suites)
		}
	}
	if len(runs) == 0 {
		if multi {
			warnings = append(warnings, fmt.Errorf("benchmark %s: no instance has a complete suite run; left out", key))
		}
		return nil, warnings
	}
	used := len(runs[0])
	for _, r := range runs {
		used = min(used, len(r))
	}
	for k, r := range runs {
		if len(r) > used {
			warnings = append(warnings, fmt.Errorf("benchmark %s: instance %q has %d complete suite runs, another only %d; using the first %d of each", key, kept[k], len(r), used, used))
		}
	}
	b := &Benchmark{Key: key, Levels: want}
	b.Levels.SuiteRuns = used
	if len(runs) > 1 {
		b.Instances = len(runs)
	}
	for _, r := range runs {
		for _, vs := range r[:used] {
			b.Values = append(b.Values, vs...)
		}
	}
	return b, warnings
}

// layoutInstance returns the values of each complete suite run of one
// instance in levels want (at most full.SuiteRuns of them when that is
// set), with warnings that begin with name.
func layoutInstance(name string, in *instanceRuns, want, full bench.Levels) ([][]float64, []error) {
	var warnings []error
	var out [][]float64
	var dropped []string
	extra := false
	for _, s := range in.suites {
		if full.SuiteRuns > 0 && len(out) == full.SuiteRuns {
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
		var values []float64
		for _, f := range s.forks[:want.Forks] {
			if len(f.iters) > want.Iterations {
				extra = true
			}
			for _, it := range f.iters[:want.Iterations] {
				values = append(values, it.v)
			}
		}
		out = append(out, values)
	}
	used := len(out)
	if extra {
		warnings = append(warnings, fmt.Errorf("%s: more measurements than levels %v; the extra ones are ignored", name, full))
	}
	if used == 0 {
		warnings = append(warnings, fmt.Errorf("%s: no complete suite run of %d forks × %d iterations (%s); left out", name, want.Forks, want.Iterations, strings.Join(dropped, ", ")))
		return nil, warnings
	}
	if len(dropped) > 0 || used < full.SuiteRuns {
		why := strings.Join(dropped, ", ")
		if used+len(dropped) < full.SuiteRuns {
			why = strings.Join(append(dropped, fmt.Sprintf("%d of %d suite runs missing", full.SuiteRuns-used-len(dropped), full.SuiteRuns)), ", ")
		}
		warnings = append(warnings, fmt.Errorf("%s: using %d complete suite runs of %d forks × %d iterations; %s", name, used, want.Forks, want.Iterations, why))
	}
	return out, warnings
}

// incomplete says why a suite run of forks forks (iters(i) measurement
// iterations in fork i) cannot fill levels want, or "" if it can.
func incomplete(forks int, want bench.Levels, iters func(i int) int) string {
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
