package ab

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/run"
	"github.com/mbench/mbench/store"
)

// StoreRuns is a store as the run.RunSource where run.FindBasis looks for
// the basis of a shard.
type StoreRuns struct{ *store.Store }

// StoredRuns lists the store's runs, newest first.
func (s StoreRuns) StoredRuns() ([]run.StoredRun, error) {
	infos, err := s.Runs()
	runs := make([]run.StoredRun, len(infos))
	for i, ri := range infos {
		runs[i] = run.StoredRun{ID: ri.ID, Label: ri.Label, Status: ri.Status, Benchmarks: ri.Benchmarks}
	}
	return runs, err
}

// planShard plans shard sh of the benchmarks both versions have, keys,
// balanced by the basis ref names or run.FindBasis finds in db for a
// session stored under the labels own. It returns nil for the whole
// suite.
func planShard(db *store.Store, sh run.Shard, ref string, keys []bench.Key, own ...string) (*run.ShardPlan, error) {
	if sh.Whole() {
		return nil, nil
	}
	b, err := run.FindBasis(StoreRuns{db}, ref, keys, own...)
	if err != nil {
		return nil, err
	}
	return run.PlanShard(keys, sh, b), nil
}

// shard keeps of the session's benchmarks those of its shard, for a
// session stored under label, and says so in the log.
func (s *Session) shard(label string) error {
	keys := make([]bench.Key, len(s.Benchmarks))
	for i, b := range s.Benchmarks {
		keys[i] = b.Key
	}
	p, err := planShard(s.db, s.cfg.Shard, s.cfg.ShardBasis, keys, label)
	if p == nil {
		return err
	}
	s.Shard = p
	s.Benchmarks = slices.DeleteFunc(s.Benchmarks, func(b *Benchmark) bool { return !p.Has(b.Key) })
	if w := cmp.Or(s.cfg.shardLog, s.cfg.Log); w != nil {
		fmt.Fprintln(w, p)
	}
	return nil
}

// resumeShard keeps, of a session resumed from stored, the benchmarks of
// its shard: those it listed when it started.
func (s *Session) resumeShard(stored *bench.Run) error {
	sh := stored.Settings[bench.SettingShard]
	if sh == "" && s.cfg.Shard.Whole() {
		return nil
	}
	switch given := s.cfg.Shard.String(); {
	case sh == "":
		return fmt.Errorf("run %s compares every benchmark, not shard %s: drop -shard", stored.ID, given)
	case given != "" && given != sh:
		return fmt.Errorf("run %s compares shard %s, not %s: give the same -shard, or none", stored.ID, sh, given)
	}
	s.Benchmarks = slices.DeleteFunc(s.Benchmarks, func(b *Benchmark) bool { return !slices.Contains(stored.Benchmarks, b.Key) })
	return nil
}

// shard keeps of the targets those of the session's shard, records the
// shard on both its runs and says so in the log.
func (s *ParallelSession) shard(targets []*parallelTarget, log io.Writer) ([]*parallelTarget, error) {
	keys := make([]bench.Key, len(targets))
	for i, t := range targets {
		keys[i] = t.old.Key
	}
	p, err := planShard(s.db, s.cfg.Shard, s.cfg.ShardBasis, keys, s.Old.Label, s.New.Label)
	if p == nil {
		return targets, err
	}
	for _, r := range []*bench.Run{s.Old, s.New} {
		if err := s.db.SetSettings(r.ID, p.Settings()); err != nil {
			return nil, err
		}
		maps.Copy(r.Settings, p.Settings())
	}
	s.Shard = p
	if log != nil {
		fmt.Fprintln(log, p)
	}
	return slices.DeleteFunc(targets, func(t *parallelTarget) bool { return !p.Has(t.old.Key) }), nil
}

// EmptyShard reports whether the session compared a shard that holds
// none of the benchmarks: with more shards than benchmarks, some measure
// nothing, and their runs record only the shard. That is not a failure.
func (r *ParallelResult) EmptyShard() bool {
	return r.Shard != nil && len(r.Shard.Keys) == 0
}

// checkShard reports a shard ParseShard would not return, and a basis
// without a shard, naming their flags.
func checkShard(sh run.Shard, basis string) error {
	switch {
	case basis != "" && sh.Whole():
		return errors.New("-shard-basis without -shard: give the shard")
	case sh.Whole():
		return nil
	}
	if _, err := bench.ParseShard(sh.String()); err != nil {
		return fmt.Errorf("-shard %v", err)
	}
	return nil
}
