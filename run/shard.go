package run

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/mbench/mbench/bench"
)

// A Shard is one part of a suite split across machines or CI jobs: part
// Index of Count, counting from 1. The zero Shard is the whole suite.
//
// The unit a suite is split into is the benchmark key: a leaf benchmark
// (sub-benchmarks included, each on its own) at one GOMAXPROCS. Every
// target runs by an anchored pattern that selects it alone (see Anchored),
// so the sub-benchmarks of one function may land in different shards; the
// function's own code before b.Run then runs in each of them, as it runs
// in every process that measures one of its sub-benchmarks anyway. All
// versions of a key, in a run of several labelled binaries, stay together.
type Shard = bench.Shard

// checkShard reports a shard bench.ParseShard would not return.
func checkShard(s Shard) error {
	if s.Whole() {
		return nil
	}
	_, err := bench.ParseShard(s.String())
	return err
}

// Partition splits the keys of a suite into n shards and returns the shard
// of each key, from 0 to n-1. Given the same set of keys and the same times
// it returns the same partition on every machine and whatever the order of
// keys; every key gets exactly one shard.
//
// With times, which must hold every key, it balances the shards by time
// with longest-processing-time-first (Graham, "Bounds on multiprocessing
// timing anomalies", SIAM J. Appl. Math. 1969): keys from the longest to
// the shortest (ties by key), each to the shard with the least time so far
// (ties to the lowest), which keeps the longest shard within 4/3 - 1/(3n)
// of the best possible. Without times (nil) it sorts the keys by the 64-bit
// FNV-1a hash of their String form and deals them out in turn: shards
// differ by at most one key, which a hash modulo n does not promise for a
// small suite, and a key keeps its shard as long as the keys hashing before
// it stay the same.
func Partition(keys []bench.Key, n int, times map[bench.Key]time.Duration) map[bench.Key]int {
	uniq := slices.Clone(keys)
	slices.SortFunc(uniq, bench.Key.Compare)
	uniq = slices.Compact(uniq)
	part := make(map[bench.Key]int, len(uniq))
	if n < 1 {
		return part
	}
	if times == nil {
		hashes := make(map[bench.Key]uint64, len(uniq))
		for _, k := range uniq {
			h := fnv.New64a()
			h.Write([]byte(k.String()))
			hashes[k] = h.Sum64()
		}
		slices.SortStableFunc(uniq, func(a, b bench.Key) int { return cmp.Compare(hashes[a], hashes[b]) })
		for i, k := range uniq {
			part[k] = i % n
		}
		return part
	}
	slices.SortStableFunc(uniq, func(a, b bench.Key) int { return cmp.Compare(times[b], times[a]) })
	load := make([]time.Duration, n)
	for _, k := range uniq {
		least := 0
		for s := 1; s < n; s++ {
			if load[s] < load[least] {
				least = s
			}
		}
		part[k] = least
		load[least] += times[k]
	}
	return part
}

// A ShardPlan is the part of a suite one shard measures, and how it was
// planned.
type ShardPlan struct {
	Shard Shard
	// Suite is bench.SuiteID of the whole suite's keys.
	Suite string
	// Basis is what balanced the partition; see FindBasis.
	Basis *Basis
	// Keys are the shard's keys, in the suite's order; Total counts the
	// suite's.
	Keys  []bench.Key
	Total int
	// Share is the shard's part of the suite's time in the basis, from 0
	// to 1; by hash it is the shard's part of the keys.
	Share float64

	in map[bench.Key]bool // Keys as a set
}

// PlanShard takes shard s out of the suite's keys (in the order of
// discovery; duplicates count once), balanced by the basis b.
func PlanShard(suite []bench.Key, s Shard, b *Basis) *ShardPlan {
	p := &ShardPlan{Shard: s, Suite: bench.SuiteID(suite), Basis: b}
	part := Partition(suite, s.Count, b.Times)
	p.Total = len(part)
	p.in = make(map[bench.Key]bool)
	seen := make(map[bench.Key]bool)
	var mine, total time.Duration
	for _, k := range suite {
		if seen[k] {
			continue
		}
		seen[k] = true
		total += b.Times[k]
		if part[k] == s.Index-1 {
			p.Keys = append(p.Keys, k)
			p.in[k] = true
			mine += b.Times[k]
		}
	}
	switch {
	case b.Times != nil && total > 0:
		p.Share = float64(mine) / float64(total)
	case p.Total > 0:
		p.Share = float64(len(p.Keys)) / float64(p.Total)
	}
	return p
}

// Has reports whether the shard measures k.
func (p *ShardPlan) Has(k bench.Key) bool { return p.in[k] }

// Settings are the run settings that record the shard (bench.SettingShard
// and the two beside it).
func (p *ShardPlan) Settings() map[string]string {
	return map[string]string{
		bench.SettingShard:      p.Shard.String(),
		bench.SettingShardBasis: p.Basis.ID(),
		bench.SettingShardSuite: p.Suite,
	}
}

// String describes the plan in a line: "shard 2/4: 31 of 120 benchmarks,
// planned 24% of the suite's time (basis: run 3f2a…)".
func (p *ShardPlan) String() string {
	head := fmt.Sprintf("shard %s: %d of %d benchmarks", p.Shard, len(p.Keys), p.Total)
	if len(p.Keys) == 0 {
		return head + ": more shards than benchmarks; the run records the shard and measures nothing"
	}
	if p.Basis.Times == nil {
		return fmt.Sprintf("%s (by hash: %s)", head, p.Basis.Why)
	}
	return fmt.Sprintf("%s, planned %.0f%% of the suite's time (basis: %s)", head, 100*p.Share, p.Basis)
}

// A Basis is what a suite's partition is balanced by: the time each
// benchmark took in stored runs, or, without Times, a stable hash.
type Basis struct {
	// Runs are the ids of the runs the times come from, newest first;
	// File names a results file they come from instead.
	Runs []string
	File string
	// Label is the runs' label.
	Label string
	// Times holds the time each benchmark of the suite took in the
	// basis; nil for a partition by hash. Estimated counts the suite's
	// benchmarks the basis did not measure, given the median time of
	// those it did.
	Times     map[bench.Key]time.Duration
	Estimated int
	// Why says, for a partition by hash, why there are no times.
	Why string
}

// ID identifies the basis in the run's settings (bench.SettingShardBasis):
// the ids of its runs, sorted and comma-separated; for a file, "file:" and a hash of
// the times it holds, which every machine computes alike; "hash" without
// times.
func (b *Basis) ID() string {
	switch {
	case b.Times == nil:
		return bench.ShardBasisHash
	case len(b.Runs) > 0:
		return strings.Join(slices.Sorted(slices.Values(b.Runs)), ",")
	}
	keys := make([]bench.Key, 0, len(b.Times))
	for k := range b.Times {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, bench.Key.Compare)
	h := fnv.New32a()
	for _, k := range keys {
		fmt.Fprintf(h, "%s %d\n", k, b.Times[k])
	}
	return fmt.Sprintf("file:%08x", h.Sum32())
}

// String names the basis for people: "run 3f2a…", "runs a, b (label x)",
// "file old.txt".
func (b *Basis) String() string {
	var s string
	switch {
	case b.Times == nil:
		return "hash"
	case b.File != "":
		s = "file " + b.File
	case len(b.Runs) == 1:
		s = "run " + b.Runs[0]
	default:
		s = "runs " + strings.Join(b.Runs, ", ")
	}
	if b.Label != "" {
		s += " (label " + b.Label + ")"
	}
	if b.Estimated > 0 {
		s += fmt.Sprintf("; %d benchmarks new to it planned at its median time", b.Estimated)
	}
	return s
}

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

// shard keeps of the prepared targets those of the job's shard.
func (p *Prepared) shard() error {
	j := &p.Job
	if j.Shard.Whole() {
		return nil
	}
	suite := keysOf(p.Targets)
	b, err := FindBasis(j.ShardRuns, j.ShardBasis, suite, j.Label)
	if err != nil {
		return err
	}
	p.Shard = PlanShard(suite, j.Shard, b)
	p.Targets = slices.DeleteFunc(p.Targets, func(t Target) bool { return !p.Shard.Has(t.Key) })
	return nil
}
