package shard

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mbench/mbench/bench"
)

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

// A StoredRun summarises a run of a result store for FindBasis.
type StoredRun struct {
	ID, Label string
	// Complete is set for a run that ended with every benchmark
	// measured; FindBasis takes no other.
	Complete bool
	// Benchmarks counts the distinct benchmarks the run measured.
	Benchmarks int
}

// A Source is the result store a shard's basis is looked for in;
// *store.Store is one.
type Source interface {
	// StoredRuns lists the stored runs, newest first.
	StoredRuns() ([]StoredRun, error)
	// Load returns a run with its measurements.
	Load(id string) (*bench.Run, error)
	// Resolve returns the id of the run ref names: an id, an id prefix,
	// a label (its newest run) or "latest".
	Resolve(ref string) (string, error)
}

// maxBasisLoads bounds the runs FindBasis loads looking for one that
// covers the suite, so that a store of many other suites does not make
// every shard read all of it.
const maxBasisLoads = 32

// FindBasis finds what the partition of suite is balanced by, for a run
// labelled own (a session of two versions stored as two runs has two
// labels). Every shard of the suite must find the same basis, also while
// the others write into the same store, so the basis never comes from
// runs of an own label: those are the shards being measured.
//
// When ref is "", the basis is the newest label, not an own one, whose
// complete runs together measured every benchmark of the suite: one run of
// the whole suite, or the shards of an earlier sharded run of it. Without
// one (or without src) the partition is by hash. Runs of another label
// that complete while the shards start can change what is newest: give
// ref to rule that out.
//
// When ref is not "", it names the basis: a results file (in either
// format bench.ReadFile reads), or in src a run (id, id prefix) or a label,
// whose complete runs are taken together. Benchmarks of the suite it did
// not measure are planned at the median time of those it did; a basis that
// measured none of them is an error.
func FindBasis(src Source, ref string, suite []bench.Key, own ...string) (*Basis, error) {
	if ref != "" {
		b, err := namedBasis(src, ref, suite)
		if err != nil {
			return nil, fmt.Errorf("-shard-basis %s: %w", ref, err)
		}
		return b, nil
	}
	if src == nil {
		return &Basis{Why: "no result store"}, nil
	}
	runs, err := src.StoredRuns()
	if err != nil {
		return nil, fmt.Errorf("looking for the basis of the shards: %w", err)
	}
	loads := 0
	for _, group := range byLabel(runs) {
		if slices.Contains(own, group[0].Label) {
			continue
		}
		measured := 0
		for _, r := range group {
			measured += r.Benchmarks
		}
		if measured < len(uniqueKeys(suite)) {
			continue
		}
		if loads += len(group); loads > maxBasisLoads {
			break
		}
		b, err := groupBasis(src, group)
		if err != nil {
			return nil, fmt.Errorf("looking for the basis of the shards: %w", err)
		}
		if fill(b, suite) == 0 {
			return b, nil
		}
	}
	return &Basis{Why: "no stored run of this suite"}, nil
}

// namedBasis loads the basis ref names.
func namedBasis(src Source, ref string, suite []bench.Key) (*Basis, error) {
	var b *Basis
	if _, err := os.Stat(ref); err == nil || !errors.Is(err, fs.ErrNotExist) {
		r, _, err := bench.ReadFile(ref)
		if err != nil {
			return nil, err
		}
		b = &Basis{File: ref, Times: Times(r)}
	} else {
		if src == nil {
			return nil, errors.New("no such file, and no result store")
		}
		id, err := src.Resolve(ref)
		if err != nil {
			return nil, fmt.Errorf("no such file, and %v", err)
		}
		runs, err := src.StoredRuns()
		if err != nil {
			return nil, err
		}
		group := []StoredRun{{ID: id}}
		for _, g := range byLabel(runs) {
			if g[0].Label == ref {
				// A label: all its complete runs, the shards of a
				// sharded run among them.
				group = g
			}
		}
		if b, err = groupBasis(src, group); err != nil {
			return nil, err
		}
	}
	if n := len(uniqueKeys(suite)); fill(b, suite) == n && n > 0 {
		return nil, errors.New("measured none of the suite's benchmarks")
	}
	return b, nil
}

// byLabel groups the complete runs among runs (newest first) by label,
// the label of the newest run first.
func byLabel(runs []StoredRun) [][]StoredRun {
	var groups [][]StoredRun
	at := map[string]int{}
	for _, r := range runs {
		if !r.Complete {
			continue
		}
		i, ok := at[r.Label]
		if !ok {
			i = len(groups)
			at[r.Label] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], r)
	}
	return groups
}

// groupBasis loads the runs of group (newest first) and takes the time of
// each benchmark from the newest that measured it. The basis lists the
// runs newest first.
func groupBasis(src Source, group []StoredRun) (*Basis, error) {
	b := &Basis{Times: map[bench.Key]time.Duration{}}
	for _, sr := range group {
		r, err := src.Load(sr.ID)
		if err != nil {
			return nil, err
		}
		b.Label = r.Label
		b.Runs = append(b.Runs, sr.ID)
		for k, d := range Times(r) {
			if _, ok := b.Times[k]; !ok {
				b.Times[k] = d
			}
		}
	}
	return b, nil
}

// fill keeps of b's times those of the suite, gives the suite's benchmarks
// b lacks the median time of the others, and returns how many it lacked.
func fill(b *Basis, suite []bench.Key) int {
	times := map[bench.Key]time.Duration{}
	var known []time.Duration
	var missing []bench.Key
	for _, k := range uniqueKeys(suite) {
		if d, ok := b.Times[k]; ok {
			times[k] = d
			known = append(known, d)
		} else {
			missing = append(missing, k)
		}
	}
	if len(known) == 0 {
		return len(missing)
	}
	slices.Sort(known)
	for _, k := range missing {
		times[k] = known[len(known)/2]
	}
	b.Times, b.Estimated = times, len(missing)
	return len(missing)
}
