package duet

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/run"
)

// RunFree runs spec without the probe: both processes start together, each
// pinned to its CPU, and run their iterations free; the k-th result line of
// one side is paired with the k-th of the other. It is the fallback for
// test binaries built without the probe (prebuilt binaries, or a toolchain
// whose testing package the probe does not patch). Iterations drift apart
// as their durations differ, so the pairing is looser than RunPair's; the
// Start of an iteration is estimated as the moment its result line arrived
// minus its timed duration, so Skew still measures how far apart paired
// iterations ran. There is no filler: a side that finishes first idles.
// Side.Env, onPair and cancellation work as in RunPair.
func RunFree(parent context.Context, spec PairSpec, onPair func(Pair) bool) (PairStats, error) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	var (
		mu      sync.Mutex
		lists   [2][]Iteration
		stats   PairStats
		skews   skewAcc
		stopped bool
	)
	deliver := func() {
		for stats.Pairs < min(len(lists[0]), len(lists[1])) {
			p := Pair{Index: stats.Pairs, Old: lists[0][stats.Pairs], New: lists[1][stats.Pairs]}
			stats.Pairs++
			skews.add(p)
			if !onPair(p) {
				stopped = true
				cancel()
				return
			}
		}
	}
	sides := [2]Side{spec.Old, spec.New}
	var errs [2]error
	first := -1 // the side that failed first; its failure stopped the other
	var wg sync.WaitGroup
	for s := range 2 {
		wg.Go(func() {
			errs[s] = run.RunFork(ctx, spec.forkSpec(sides[s]), func(m *bench.Measurement) bool {
				sec, _ := m.Get("sec/op")
				d := time.Duration(sec * float64(m.N) * 1e9)
				it := Iteration{Key: m.Key, N: m.N, Duration: d, End: m.End, Start: m.End.Add(-d), StartCPU: -1, EndCPU: -1, GCs: -1}
				if v, ok := m.Get("B/op"); ok {
					it.MemBytes = uint64(v * float64(m.N))
				}
				if v, ok := m.Get("allocs/op"); ok {
					it.MemAllocs = uint64(v * float64(m.N))
				}
				it.Extra = extra(m)
				mu.Lock()
				defer mu.Unlock()
				if stopped {
					return false
				}
				lists[s] = append(lists[s], it)
				deliver()
				return !stopped
			})
			if errs[s] != nil {
				mu.Lock()
				if first < 0 && ctx.Err() == nil {
					first = s
				}
				mu.Unlock()
				cancel()
			}
		})
	}
	wg.Wait()
	stats.Skew = skews.summary()
	switch {
	case stopped:
		return stats, nil
	case parent.Err() != nil:
		return stats, parent.Err()
	case first >= 0:
		return stats, fmt.Errorf("%s side: %w", [2]string{"old", "new"}[first], errs[first])
	case len(lists[0]) != len(lists[1]):
		return stats, fmt.Errorf("the sides printed %d and %d results: they do not run the same benchmarks", len(lists[0]), len(lists[1]))
	}
	return stats, nil
}

// extra returns the b.ReportMetric values of m, keyed by the unit as the
// benchmark reported it, as a probed side's Iteration.Extra is: every value
// but the time, B/op, allocs/op and MB/s that testing computes itself.
func extra(m *bench.Measurement) map[string]float64 {
	var x map[string]float64
	for _, v := range m.Values {
		switch v.Unit {
		case "sec/op", "B/op", "allocs/op", "B/s":
			continue
		}
		unit, val := v.Unit, v.Value
		if v.OrigUnit != "" {
			unit, val = v.OrigUnit, v.OrigValue
		}
		if x == nil {
			x = make(map[string]float64)
		}
		x[unit] = val
	}
	return x
}
