package plot

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mbench/mbench/bench"
)

// TraceOf returns the values in the tidy unit of benchmark key, version
// version, in run r, for Trace: one TraceFork per fork (process) in the
// order the forks appear in r, which is the order they ran in for stored
// runs, each with its warm-up iterations first, then its measurement
// iterations, in iteration order.
func TraceOf(r *bench.Run, key bench.Key, version, unit string) []TraceFork {
	type it struct {
		m *bench.Measurement
		v float64
	}
	var ids []bench.ForkID
	byFork := make(map[bench.ForkID][]it)
	for i := range r.Measurements {
		m := &r.Measurements[i]
		if m.Key != key || m.Coord.Version != version {
			continue
		}
		v, ok := m.Get(unit)
		if !ok {
			continue
		}
		id := m.Coord.ForkID()
		if _, seen := byFork[id]; !seen {
			ids = append(ids, id)
		}
		byFork[id] = append(byFork[id], it{m, v})
	}
	forks := make([]TraceFork, len(ids))
	for k, id := range ids {
		its := byFork[id]
		slices.SortStableFunc(its, func(a, b it) int {
			// Warmup > Measure: warm-up first.
			if a.m.Coord.Phase != b.m.Coord.Phase {
				return int(b.m.Coord.Phase) - int(a.m.Coord.Phase)
			}
			return a.m.Coord.Iteration - b.m.Coord.Iteration
		})
		for _, x := range its {
			forks[k].Values = append(forks[k].Values, x.v)
			if x.m.Coord.Phase == bench.Warmup {
				forks[k].Warmup++
			}
		}
	}
	return forks
}

// StoppedAfter returns the number of forks after which the stopping
// criterion found benchmark key (of version) stable in run r, or 0 when it
// did not (a static configuration, f_max reached first) or r does not say.
// It reads the reason `mbench run` stores with each benchmark, the setting
// bench.StopSetting, which begins "stable after N forks" when the
// criterion fired.
func StoppedAfter(r *bench.Run, key bench.Key, version string) int {
	var n int
	if _, err := fmt.Sscanf(r.Settings[bench.StopSetting(key, version)], "stable after %d forks", &n); err != nil {
		return 0
	}
	return n
}

// RunTrace draws the trace of the first benchmark of r, in the order of
// the input, that match accepts and that has values in the tidy unit. It
// returns the names of all benchmarks that match ("Sum-4", "Sum-4 (new)"
// for a version), the drawn one first; the figure is nil when none does.
func RunTrace(r *bench.Run, match func(bench.Key) bool, unit string) (*Figure, []string) {
	type target struct {
		key     bench.Key
		version string
	}
	var targets []target
	var names []string
	for i := range r.Measurements {
		m := &r.Measurements[i]
		t := target{m.Key, m.Coord.Version}
		if _, ok := m.Get(unit); !ok || !match(m.Key) || slices.Contains(targets, t) {
			continue
		}
		targets = append(targets, t)
		name := strings.TrimPrefix(m.Key.FullName(), "Benchmark")
		if t.version != "" {
			name += " (" + t.version + ")"
		}
		names = append(names, name)
	}
	if len(targets) == 0 {
		return nil, nil
	}
	t := targets[0]
	return Trace(names[0]+": iterations by fork", unit, TraceOf(r, t.key, t.version, unit), StoppedAfter(r, t.key, t.version)), names
}

// Names returns the names of keys as figures show them, without
// "Benchmark" and without the package path that they all share, which it
// returns as common, to be stated once in a title or caption rather than
// on every row. Keys of several packages keep what follows the longest
// path they share, in whole elements: "internal/codec.Decode-8" under
// "example.com/project". common is "" when they share no path.
func Names(keys []bench.Key) (common string, names []string) {
	same := true
	for i, k := range keys {
		if i == 0 {
			common = k.Package
			continue
		}
		same = same && k.Package == keys[0].Package
		common = sharedPath(common, k.Package)
	}
	if !same && slices.ContainsFunc(keys, func(k bench.Key) bool { return k.Package == common }) {
		// A package that is the shared path itself keeps its last
		// element, so that it is named among the others.
		common = common[:max(strings.LastIndex(common, "/"), 0)]
	}
	names = make([]string, len(keys))
	for i, k := range keys {
		name := strings.TrimPrefix(k.FullName(), "Benchmark")
		if !same && k.Package != "" {
			name = strings.TrimPrefix(strings.TrimPrefix(k.Package, common), "/") + "." + name
		}
		names[i] = name
	}
	return common, names
}

// sharedPath returns the longest path of whole elements that both a and b
// begin with.
func sharedPath(a, b string) string {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return strings.Join(as[:n], "/")
}
