package shard

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/mbench/mbench/bench"
)

// maxSpan bounds the time one iteration, fork or gap between forks counts
// for in Times: more than a day is not plausible, and the bound keeps the
// sums from overflowing.
const maxSpan = 24 * time.Hour

// Times returns the wall time each benchmark took in run r, as well as
// the run's data tell it, in whole nanoseconds so that the same run gives
// the same times on every machine and in any order of its measurements.
//
// When every measurement has its start and end on the wall clock (runs
// mbench measured), a benchmark's time is the sum over its forks of the
// fork's span, from its first iteration's start (the process's start: the
// first iteration's time counts from it) to its last iteration's end,
// warm-up included, plus the gap before the fork: from the end of the
// fork that ran before it to its start, the process's exit and, at a
// benchmark's first fork, its calibration. Forks are taken in the order
// they started (ties by key and fork); the first fork of the run has no
// fork before it, its gap holding the run's build and discovery as well,
// and is given the median gap of the others instead.
//
// Otherwise (go test output, an -o results file) it is the sum
// over the benchmark's iterations of operations times seconds per op,
// plus, for each of its forks, the run's overhead per fork: the run's
// wall time less the time of all its iterations, spread evenly over its
// forks; without the run's start and end, no overhead.
func Times(r *bench.Run) map[bench.Key]time.Duration {
	if forks := timedForks(r.Measurements); forks != nil {
		return forkTimes(forks)
	}
	return iterationTimes(r)
}

// A timedFork is the span of one fork of a benchmark on the wall clock.
type timedFork struct {
	key        bench.Key
	id         bench.ForkID
	start, end time.Time
}

// timedForks returns the forks of ms in the order they started, nil
// unless every measurement has a start and an end.
func timedForks(ms []bench.Measurement) []timedFork {
	type forkKey struct {
		key bench.Key
		id  bench.ForkID
	}
	at := map[forkKey]int{}
	var forks []timedFork
	for i := range ms {
		m := &ms[i]
		if m.Start.IsZero() || m.End.IsZero() || m.End.Before(m.Start) {
			return nil
		}
		fk := forkKey{m.Key, m.Coord.ForkID()}
		j, ok := at[fk]
		if !ok {
			at[fk] = len(forks)
			forks = append(forks, timedFork{key: m.Key, id: fk.id, start: m.Start, end: m.End})
			continue
		}
		f := &forks[j]
		if m.Start.Before(f.start) {
			f.start = m.Start
		}
		if m.End.After(f.end) {
			f.end = m.End
		}
	}
	slices.SortFunc(forks, func(a, b timedFork) int {
		return cmp.Or(a.start.Compare(b.start), a.end.Compare(b.end), a.key.Compare(b.key),
			cmp.Compare(a.id.Version, b.id.Version), cmp.Compare(a.id.Instance, b.id.Instance),
			cmp.Compare(a.id.SuiteRun, b.id.SuiteRun), cmp.Compare(a.id.Fork, b.id.Fork))
	})
	return forks
}

// forkTimes sums the spans of forks, in the order they started, and the
// gaps before them by benchmark.
func forkTimes(forks []timedFork) map[bench.Key]time.Duration {
	times := make(map[bench.Key]time.Duration)
	gaps := make([]time.Duration, len(forks))
	var latest time.Time // the end of the forks so far
	for i, f := range forks {
		if i > 0 && f.start.After(latest) {
			// Forks that overlap (several at once) have no gap.
			gaps[i] = bounded(f.start.Sub(latest))
		}
		if f.end.After(latest) {
			latest = f.end
		}
		times[f.key] = addSat(times[f.key], bounded(f.end.Sub(f.start)))
	}
	if len(gaps) > 1 {
		sorted := slices.Sorted(slices.Values(gaps[1:]))
		gaps[0] = sorted[len(sorted)/2]
	}
	for i, f := range forks {
		times[f.key] = addSat(times[f.key], gaps[i])
	}
	return times
}

// iterationTimes is Times for a run whose measurements are not all timed.
func iterationTimes(r *bench.Run) map[bench.Key]time.Duration {
	times := make(map[bench.Key]time.Duration)
	forks := make(map[bench.Key]map[bench.ForkID]bool)
	var all time.Duration
	nforks := 0
	for i := range r.Measurements {
		m := &r.Measurements[i]
		if forks[m.Key] == nil {
			forks[m.Key] = map[bench.ForkID]bool{}
		}
		if id := m.Coord.ForkID(); !forks[m.Key][id] {
			forks[m.Key][id] = true
			nforks++
		}
		sec, ok := m.Get("sec/op")
		d := float64(m.N) * sec
		if !ok || !(d >= 0) {
			// Not a time: the key counts, at 0.
			times[m.Key] += 0
			continue
		}
		it := time.Duration(math.Min(d, maxSpan.Seconds()) * 1e9)
		times[m.Key] = addSat(times[m.Key], it)
		all = addSat(all, it)
	}
	if r.Start.IsZero() || r.End.IsZero() || !r.End.After(r.Start) || nforks == 0 {
		return times
	}
	perFork := max(r.End.Sub(r.Start)-all, 0) / time.Duration(nforks)
	for k, ids := range forks {
		times[k] = addSat(times[k], perFork*time.Duration(len(ids)))
	}
	return times
}

// bounded returns d within 0 and maxSpan.
func bounded(d time.Duration) time.Duration { return min(max(d, 0), maxSpan) }

// addSat returns a+b, both not negative, or the longest Duration when the
// sum overflows.
func addSat(a, b time.Duration) time.Duration {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
