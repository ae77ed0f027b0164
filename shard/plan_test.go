package shard

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
)

// randomSuite returns n distinct keys in a random order, some of them
// sub-benchmarks of one function, some at several GOMAXPROCS.
func randomSuite(rng *rand.Rand, n int) []bench.Key {
	seen := map[bench.Key]bool{}
	var keys []bench.Key
	for len(keys) < n {
		k := bench.Key{Package: fmt.Sprintf("example.com/p%d", rng.IntN(3)), Name: fmt.Sprintf("F%d", rng.IntN(2*n+1)), Procs: 1 << rng.IntN(3)}
		if rng.IntN(2) == 0 {
			k.Name += fmt.Sprintf("/n=%d", rng.IntN(50))
		}
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
}

func randomTimes(rng *rand.Rand, keys []bench.Key) map[bench.Key]time.Duration {
	times := map[bench.Key]time.Duration{}
	for _, k := range keys {
		times[k] = time.Duration(rng.ExpFloat64() * float64(time.Second))
	}
	return times
}

// TestPartitionProperties checks, for random suites and every n from 1 to
// 16, by hash and by time: every key in exactly one shard of 0..n-1, the
// same partition for the keys in another order and computed again, and by
// hash shards that differ by at most one key.
func TestPartitionProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 40; trial++ {
		keys := randomSuite(rng, rng.IntN(60))
		for n := 1; n <= 16; n++ {
			for _, times := range []map[bench.Key]time.Duration{nil, randomTimes(rng, keys)} {
				part := Partition(keys, n, times)
				if len(part) != len(keys) {
					t.Fatalf("%d keys, n %d: %d assigned", len(keys), n, len(part))
				}
				sizes := make([]int, n)
				for _, k := range keys {
					s, ok := part[k]
					if !ok || s < 0 || s >= n {
						t.Fatalf("n %d: key %v in shard %d (%v)", n, k, s, ok)
					}
					sizes[s]++
				}
				shuffled := slices.Clone(keys)
				rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
				// Duplicates, as versions of one key give, count once.
				shuffled = append(shuffled, shuffled[:len(shuffled)/3]...)
				for _, again := range []map[bench.Key]int{Partition(shuffled, n, times), Partition(keys, n, times)} {
					for _, k := range keys {
						if again[k] != part[k] {
							t.Fatalf("n %d: key %v in shard %d, then in %d", n, k, part[k], again[k])
						}
					}
				}
				if times == nil && len(keys) > 0 && slices.Max(sizes)-slices.Min(sizes) > 1 {
					t.Errorf("n %d, %d keys by hash: shard sizes %v", n, len(keys), sizes)
				}
			}
		}
	}
}

// TestNewPlanCovers checks that the plans of shards 1..n are disjoint,
// cover the suite and keep its order, and that their shares add up to 1.
func TestNewPlanCovers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 20; trial++ {
		keys := randomSuite(rng, 1+rng.IntN(40))
		for n := 1; n <= 16; n++ {
			for _, b := range []*Basis{{Why: "test"}, {Runs: []string{"r"}, Times: randomTimes(rng, keys)}} {
				var all []bench.Key
				share := 0.0
				for i := 1; i <= n; i++ {
					p := NewPlan(keys, Shard{Index: i, Count: n}, b)
					if p.Total != len(keys) || p.Suite != SuiteID(keys) {
						t.Fatalf("shard %d/%d: total %d, suite %s; want %d, %s", i, n, p.Total, p.Suite, len(keys), SuiteID(keys))
					}
					pos := -1
					for _, k := range p.Keys {
						j := slices.Index(keys, k)
						if j <= pos {
							t.Fatalf("shard %d/%d: keys out of the suite's order: %v", i, n, p.Keys)
						}
						pos = j
					}
					all = append(all, p.Keys...)
					share += p.Share
				}
				if len(all) != len(keys) {
					t.Fatalf("%d shards hold %d keys, the suite %d", n, len(all), len(keys))
				}
				slices.SortFunc(all, bench.Key.Compare)
				if len(slices.Compact(all)) != len(keys) {
					t.Fatalf("%d shards share keys", n)
				}
				if share < 0.999999 || share > 1.000001 {
					t.Errorf("%d shards: shares add up to %v", n, share)
				}
			}
		}
	}
}

// TestPartitionLPT checks the longest-processing-time-first partition on
// known times: a case worked by hand, and random small cases against the
// best partition found by trying them all, within Graham's bound
// 4/3 - 1/(3n).
func TestPartitionLPT(t *testing.T) {
	k := func(name string) bench.Key { return bench.Key{Package: "p", Name: name, Procs: 4} }
	// 7 6 5 4 3 on two shards: 7→0, 6→1, 5→1 (6<7), 4→0 (7<11), 3→0
	// (11=11, the lower): 14 and 11. The best is 13 and 12 (7+6 against
	// 5+4+3), within the bound 4/3-1/6 = 7/6: 14 ≤ 13·7/6.
	times := map[bench.Key]time.Duration{k("A"): 7, k("B"): 6, k("C"): 5, k("D"): 4, k("E"): 3}
	keys := []bench.Key{k("E"), k("D"), k("C"), k("B"), k("A")}
	part := Partition(keys, 2, times)
	want := map[bench.Key]int{k("A"): 0, k("B"): 1, k("C"): 1, k("D"): 0, k("E"): 0}
	for key, s := range want {
		if part[key] != s {
			t.Errorf("%v in shard %d, want %d (partition %v)", key, part[key], s, part)
		}
	}
	p := NewPlan(keys, Shard{Index: 1, Count: 2}, &Basis{Runs: []string{"x"}, Times: times})
	if got := fmt.Sprintf("%.4f", p.Share); got != fmt.Sprintf("%.4f", 14.0/25) {
		t.Errorf("share of shard 1/2 = %s, want 14/25", got)
	}

	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 200; trial++ {
		n := 2 + rng.IntN(3)
		keys := randomSuite(rng, 1+rng.IntN(8))
		times := map[bench.Key]time.Duration{}
		for _, k := range keys {
			times[k] = time.Duration(1 + rng.IntN(100))
		}
		part := Partition(keys, n, times)
		load := make([]time.Duration, n)
		for _, k := range keys {
			load[part[k]] += times[k]
		}
		best := bestMakespan(keys, n, times)
		bound := (4.0/3 - 1/(3*float64(n))) * float64(best)
		if got := float64(slices.Max(load)); got > bound+1e-9 {
			t.Errorf("n %d, times %v: longest shard %v, best %v: beyond the bound %v", n, times, got, best, bound)
		}
	}
}

// bestMakespan returns the least time of the longest shard over every
// partition of keys into n shards.
func bestMakespan(keys []bench.Key, n int, times map[bench.Key]time.Duration) time.Duration {
	best := time.Duration(1<<63 - 1)
	load := make([]time.Duration, n)
	var try func(i int)
	try = func(i int) {
		if i == len(keys) {
			best = min(best, slices.Max(load))
			return
		}
		for s := range n {
			load[s] += times[keys[i]]
			if load[s] < best {
				try(i + 1)
			}
			load[s] -= times[keys[i]]
		}
	}
	try(0)
	return best
}

func TestSuiteIDOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	keys := randomSuite(rng, 30)
	id := SuiteID(keys)
	if !strings.HasPrefix(id, "30:") || len(id) != len("30:")+8 {
		t.Fatalf("SuiteID = %q, want 30:<8 hex digits>", id)
	}
	shuffled := slices.Clone(keys)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	if got := SuiteID(append(shuffled, keys[0])); got != id {
		t.Errorf("SuiteID of the keys shuffled, one twice = %q, want %q", got, id)
	}
	if got := SuiteID(keys[1:]); got == id {
		t.Errorf("SuiteID without a key = %q, the same as with it", got)
	}
}

func TestTimes(t *testing.T) {
	k := bench.Key{Name: "A"}
	r := &bench.Run{}
	for i, n := range []int{1000, 2000} {
		r.Measurements = append(r.Measurements, bench.Measurement{Key: k, N: n, Coord: bench.Coord{Iteration: i}, Values: []bench.Value{{Value: 1e-6, Unit: "sec/op"}}})
	}
	r.Measurements = append(r.Measurements, bench.Measurement{Key: bench.Key{Name: "B"}, N: 5, Values: []bench.Value{{Value: 3, Unit: "B/op"}}})
	got := Times(r)
	if got[k] != 3*time.Millisecond {
		t.Errorf("time of A = %v, want 3ms", got[k])
	}
	if d, ok := got[bench.Key{Name: "B"}]; !ok || d != 0 {
		t.Errorf("time of B, without sec/op = %v, %v; want 0, true", d, ok)
	}
}

// wallRun is a run of one benchmark L of long iterations and few forks
// and four benchmarks S1 to S4 of many forks of short iterations, timed as
// mbench times them: 2s of build and discovery, then forks one after the
// other, each after a gap of 500ms (the previous process's exit and a
// calibration), its first iteration 300ms longer than the others (the
// process's start). The run ends 1s after its last fork.
func wallRun() *bench.Run {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := &bench.Run{Start: t0}
	now := t0.Add(2 * time.Second)
	fork := func(name string, f, iters int, iter time.Duration) {
		now = now.Add(500 * time.Millisecond)
		for i := range iters {
			m := bench.Measurement{
				Key: bench.Key{Name: name}, N: 1000, Start: now,
				Coord:  bench.Coord{Fork: f + 1, Iteration: i},
				Values: []bench.Value{{Value: iter.Seconds() / 1000, Unit: "sec/op"}},
			}
			if i == 0 {
				now = now.Add(300 * time.Millisecond)
			}
			now = now.Add(iter)
			m.End = now
			r.Measurements = append(r.Measurements, m)
		}
	}
	for f := range 5 {
		for _, s := range []string{"S1", "S2", "S3", "S4"} {
			fork(s, f, 2, 20*time.Millisecond)
		}
		if f == 2 {
			fork("L", 0, 3, time.Second)
		}
	}
	r.End = now.Add(time.Second)
	return r
}

func TestTimesWall(t *testing.T) {
	r := wallRun()
	// S: 5 forks of 500ms + 300ms + 2×20ms; L: 500ms + 300ms + 3×1s. The
	// first fork's gap holds the build: it counts the median gap, 500ms.
	want := map[bench.Key]time.Duration{{Name: "L"}: 3800 * time.Millisecond}
	for _, s := range []string{"S1", "S2", "S3", "S4"} {
		want[bench.Key{Name: s}] = 4200 * time.Millisecond
	}
	if got := Times(r); !maps.Equal(got, want) {
		t.Errorf("Times = %v, want %v", got, want)
	}
	// The order of the measurements does not matter.
	shuffled := *r
	shuffled.Measurements = slices.Clone(r.Measurements)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled.Measurements), func(i, j int) {
		shuffled.Measurements[i], shuffled.Measurements[j] = shuffled.Measurements[j], shuffled.Measurements[i]
	})
	if got := Times(&shuffled); !maps.Equal(got, want) {
		t.Errorf("Times of the measurements shuffled = %v, want %v", got, want)
	}

	// Balanced by wall time, L shares a shard; by iteration time alone
	// (3s against 200ms each) it would take one of two shards alone.
	suite := slices.Collect(maps.Keys(want))
	slices.SortFunc(suite, bench.Key.Compare)
	p := NewPlan(suite, Shard{Index: 1, Count: 2}, &Basis{Runs: []string{"r"}, Times: Times(r)})
	q := NewPlan(suite, Shard{Index: 2, Count: 2}, &Basis{Runs: []string{"r"}, Times: Times(r)})
	for _, sp := range []*Plan{p, q} {
		if sp.Has(bench.Key{Name: "L"}) && len(sp.Keys) == 1 {
			t.Errorf("shard %v holds L alone: %v", sp.Shard, sp)
		}
		if len(sp.Keys) < 2 || sp.Share > 0.6 {
			t.Errorf("shard %v: %v, want at least 2 benchmarks and at most 60%%", sp.Shard, sp)
		}
	}
}

func TestTimesWithoutTimestamps(t *testing.T) {
	r := wallRun()
	for i := range r.Measurements {
		r.Measurements[i].Start, r.Measurements[i].End = time.Time{}, time.Time{}
	}
	// The run took 23.6s: 2s, 21 forks of 500ms and their spans (20 of
	// 340ms, one of 3.3s), 1s. Its iterations took 3.8s; the rest is
	// spread over the 21 forks.
	perFork := (23600*time.Millisecond - 3800*time.Millisecond) / 21
	want := map[bench.Key]time.Duration{{Name: "L"}: 3*time.Second + perFork}
	for _, s := range []string{"S1", "S2", "S3", "S4"} {
		want[bench.Key{Name: s}] = 200*time.Millisecond + 5*perFork
	}
	if got := Times(r); !maps.Equal(got, want) {
		t.Errorf("Times without measurement times = %v, want %v", got, want)
	}
	// Without the run's start and end, iteration time alone.
	r.Start, r.End = time.Time{}, time.Time{}
	want = map[bench.Key]time.Duration{{Name: "L"}: 3 * time.Second}
	for _, s := range []string{"S1", "S2", "S3", "S4"} {
		want[bench.Key{Name: s}] = 200 * time.Millisecond
	}
	if got := Times(r); !maps.Equal(got, want) {
		t.Errorf("Times without any times = %v, want %v", got, want)
	}
	p := NewPlan(slices.Collect(maps.Keys(want)), Shard{Index: 1, Count: 2}, &Basis{Runs: []string{"r"}, Times: want})
	if !p.Has(bench.Key{Name: "L"}) || len(p.Keys) != 1 {
		t.Errorf("by iteration time alone, shard 1/2 = %v, want L alone", p)
	}
}

func TestTimesOverlap(t *testing.T) {
	// Two forks at once (and one measurement without sec/op): no gap
	// between them, each its span.
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := &bench.Run{Measurements: []bench.Measurement{
		{Key: bench.Key{Name: "A"}, N: 1, Start: t0, End: t0.Add(3 * time.Second)},
		{Key: bench.Key{Name: "B"}, N: 1, Start: t0.Add(time.Second), End: t0.Add(2 * time.Second)},
		{Key: bench.Key{Name: "B"}, N: 1, Start: t0.Add(4 * time.Second), End: t0.Add(5 * time.Second), Coord: bench.Coord{Fork: 1}},
	}}
	// Gaps: none for B's first fork, 1s before its second; A's, the
	// first, the median of the two, 1s.
	want := map[bench.Key]time.Duration{{Name: "A"}: 4 * time.Second, {Name: "B"}: 3 * time.Second}
	if got := Times(r); !maps.Equal(got, want) {
		t.Errorf("Times of overlapping forks = %v, want %v", got, want)
	}
}
