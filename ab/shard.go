package ab

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/shard"
)

// shard keeps of the session's benchmarks those of its shard, for a
// session stored under label, and says so in the log.
func (s *Session) shard(label string) error {
	keys := make([]bench.Key, len(s.Benchmarks))
	for i, b := range s.Benchmarks {
		keys[i] = b.Key
	}
	p, err := shard.Take(s.db, s.cfg.Shard, s.cfg.ShardBasis, keys, label)
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
	p, err := shard.Take(s.db, s.cfg.Shard, s.cfg.ShardBasis, keys, s.Old.Label, s.New.Label)
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
	return r.Shard != nil && r.Shard.Empty()
}
