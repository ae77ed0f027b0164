package shard

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"slices"
	"time"

	"github.com/mbench/mbench/bench"
)

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
	uniq := uniqueKeys(keys)
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

// A Plan is the part of a suite one shard measures, and how it was
// planned.
type Plan struct {
	Shard Shard
	// Suite is SuiteID of the whole suite's keys.
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

// Take plans shard s of suite, the keys of the benchmarks in the order of
// their discovery, balanced by the basis ref names or FindBasis finds in
// src for runs labelled own (see FindBasis). It returns nil for the whole
// suite.
func Take(src Source, s Shard, ref string, suite []bench.Key, own ...string) (*Plan, error) {
	if s.Whole() {
		return nil, nil
	}
	b, err := FindBasis(src, ref, suite, own...)
	if err != nil {
		return nil, err
	}
	return NewPlan(suite, s, b), nil
}

// NewPlan takes shard s out of the suite's keys (in the order of
// discovery; duplicates count once), balanced by the basis b.
func NewPlan(suite []bench.Key, s Shard, b *Basis) *Plan {
	p := &Plan{Shard: s, Suite: SuiteID(suite), Basis: b}
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
func (p *Plan) Has(k bench.Key) bool { return p.in[k] }

// Empty reports whether the shard holds none of the suite's benchmarks:
// with more shards than benchmarks, some measure nothing, and their runs
// record only the shard.
func (p *Plan) Empty() bool { return len(p.Keys) == 0 }

// Settings are the run settings that record the shard
// (bench.SettingShard and the two beside it), which Claimed reads back.
func (p *Plan) Settings() map[string]string {
	return map[string]string{
		bench.SettingShard:      p.Shard.String(),
		bench.SettingShardBasis: p.Basis.ID(),
		bench.SettingShardSuite: p.Suite,
	}
}

// String describes the plan in a line: "shard 2/4: 31 of 120 benchmarks,
// planned 24% of the suite's time (basis: run 3f2a…)".
func (p *Plan) String() string {
	head := fmt.Sprintf("shard %s: %d of %d benchmarks", p.Shard, len(p.Keys), p.Total)
	if p.Empty() {
		return head + ": more shards than benchmarks; the run records the shard and measures nothing"
	}
	if p.Basis.Times == nil {
		return fmt.Sprintf("%s (by hash: %s)", head, p.Basis.Why)
	}
	return fmt.Sprintf("%s, planned %.0f%% of the suite's time (basis: %s)", head, 100*p.Share, p.Basis)
}

func uniqueKeys(keys []bench.Key) []bench.Key {
	u := slices.Clone(keys)
	slices.SortFunc(u, bench.Key.Compare)
	return slices.Compact(u)
}
