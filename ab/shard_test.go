package ab

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/shard"
)

// TestInterleavedShards runs the two shards of a session over the fixture
// into one store and checks that they compare disjoint sets of the
// benchmarks both versions have, together all five, and record which
// shard of which suite they are, planned alike.
func TestInterleavedShards(t *testing.T) {
	t.Setenv("GOMAXPROCS", "3")
	cfg := interleavedConfig(t, ".")
	cfg.MinRounds, cfg.MaxRounds = 3, 3
	db := openStore(t)
	var all []bench.Key
	var bases, suites []string
	for i := 1; i <= 2; i++ {
		cfg.Shard = shard.Shard{Index: i, Count: 2}
		s, err := Interleaved(context.Background(), cfg, db, &bench.Run{Label: "old..new"})
		if err != nil {
			t.Fatal(err)
		}
		if s.Shard == nil || len(s.Benchmarks) != len(s.Shard.Keys) || s.Shard.Total != 7 {
			t.Fatalf("shard %d/2: %d benchmarks, plan %+v; want the plan's, of 7", i, len(s.Benchmarks), s.Shard)
		}
		stored, err := db.Load(s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got := stored.Settings[bench.SettingShard]; got != cfg.Shard.String() {
			t.Errorf("stored shard %q, want %q", got, cfg.Shard)
		}
		bases = append(bases, stored.Settings[bench.SettingShardBasis])
		suites = append(suites, stored.Settings[bench.SettingShardSuite])
		measured := map[bench.Key]bool{}
		for _, m := range stored.Measurements {
			measured[m.Key] = true
		}
		for _, b := range s.Benchmarks {
			if !measured[b.Key] {
				t.Errorf("shard %d/2: %s not measured", i, b.Key)
			}
			if slices.Contains(all, b.Key) {
				t.Errorf("%s in both shards", b.Key)
			}
			all = append(all, b.Key)
		}
		if len(measured) != len(s.Benchmarks) {
			t.Errorf("shard %d/2 measured %d benchmarks, has %d", i, len(measured), len(s.Benchmarks))
		}
	}
	// The first shard's session, of the same label, is not the second's
	// basis: both are planned by hash.
	if bases[0] != "hash" || bases[1] != "hash" || suites[0] != suites[1] || suites[0] != shard.SuiteID(all) {
		t.Errorf("bases %v, suites %v; want hash and the suite of the five, %s", bases, suites, shard.SuiteID(all))
	}
}

// TestResumeShard checks that a resumed session keeps its shard's
// benchmarks and refuses another shard.
func TestResumeShard(t *testing.T) {
	keys := []bench.Key{{Name: "A"}, {Name: "B"}, {Name: "C"}}
	session := func(sh shard.Shard) *Session {
		s := &Session{cfg: Config{Shard: sh}}
		for _, k := range keys {
			s.Benchmarks = append(s.Benchmarks, &Benchmark{Key: k})
		}
		return s
	}
	sharded := &bench.Run{ID: "r1", Settings: map[string]string{bench.SettingShard: "2/3"}, Benchmarks: keys[1:2]}
	whole := &bench.Run{ID: "r2", Benchmarks: keys}
	for _, c := range []struct {
		shard  shard.Shard
		stored *bench.Run
		want   int
		err    string
	}{
		{shard.Shard{}, sharded, 1, ""},
		{shard.Shard{Index: 2, Count: 3}, sharded, 1, ""},
		{shard.Shard{Index: 1, Count: 3}, sharded, 0, "compares shard 2/3, not 1/3"},
		{shard.Shard{Index: 1, Count: 3}, whole, 0, "compares every benchmark, not shard 1/3"},
		{shard.Shard{}, whole, 3, ""},
	} {
		s := session(c.shard)
		err := s.resumeShard(c.stored)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("shard %q resuming %s: %v, want %q", c.shard, c.stored.ID, err, c.err)
		case c.err == "" && (err != nil || len(s.Benchmarks) != c.want):
			t.Errorf("shard %q resuming %s: %d benchmarks, %v; want %d", c.shard, c.stored.ID, len(s.Benchmarks), err, c.want)
		}
	}
}

func TestOptionsParallelShard(t *testing.T) {
	o := withOld("HEAD~1")
	o.Shard, o.ShardBasis = shard.Shard{Index: 2, Count: 4}, "main"
	c, _, err := o.Parallel(noneGiven)
	if err != nil {
		t.Fatal(err)
	}
	if c.Shard != o.Shard || c.ShardBasis != "main" {
		t.Errorf("parallel shard %v, basis %q; want 2/4, main", c.Shard, c.ShardBasis)
	}
}

func TestValidateShard(t *testing.T) {
	o := withOld("HEAD~1")
	for _, c := range []struct {
		shard shard.Shard
		basis string
		err   string
	}{
		{shard.Shard{}, "", ""},
		{shard.Shard{Index: 1, Count: 2}, "main", ""},
		{shard.Shard{}, "main", "-shard-basis without -shard"},
		{shard.Shard{Index: 3, Count: 2}, "", `-shard "3/2": shard 3 of only 2`},
	} {
		o.Shard, o.ShardBasis = c.shard, c.basis
		pc := DefaultParallelConfig
		pc.OldRev, pc.Shard, pc.ShardBasis = "HEAD~1", c.shard, c.basis
		for mode, err := range map[string]error{"interleaved": o.Check(), "parallel": pc.Check()} {
			if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Errorf("%s, shard %v, basis %q: %v; want %q", mode, c.shard, c.basis, err, c.err)
			}
		}
	}
	pc := DefaultParallelConfig
	pc.CmdOld, pc.CmdNew, pc.Shard = "true", "true", shard.Shard{Index: 1, Count: 2}
	if err := pc.Check(); err == nil || !strings.HasPrefix(err.Error(), "Shard ") {
		t.Errorf("a shard of commands: %v, want an error naming Shard", err)
	}
}

func TestEmptyShard(t *testing.T) {
	keys := []bench.Key{{Name: "A"}, {Name: "B"}}
	hash := &shard.Basis{Why: "test"}
	for _, c := range []struct {
		plan *shard.Plan
		want bool
	}{
		{nil, false},
		{shard.NewPlan(keys, shard.Shard{Index: 1, Count: 2}, hash), false},
		{shard.NewPlan(keys, shard.Shard{Index: 3, Count: 3}, hash), true},
	} {
		r := &ParallelResult{Shard: c.plan}
		if got := r.EmptyShard(); got != c.want {
			t.Errorf("EmptyShard of plan %v = %v, want %v", c.plan, got, c.want)
		}
	}
}
