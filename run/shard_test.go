package run

import (
	"slices"
	"testing"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/shard"
)

var basisSuite = []bench.Key{
	{Package: "p", Name: "A", Procs: 2}, {Package: "p", Name: "B/n=1", Procs: 2},
	{Package: "p", Name: "B/n=2", Procs: 2}, {Package: "p", Name: "C", Procs: 2},
}

// TestShardPrepared prepares the shards of a suite with a stand-in Job
// whose Discover found four benchmarks and checks what each keeps and
// records.
func TestShardPrepared(t *testing.T) {
	var targets []Target
	for _, k := range basisSuite {
		targets = append(targets, Target{Key: k, Pattern: Anchored(k.Name)})
		targets = append(targets, Target{Key: k, Pattern: Anchored(k.Name), Version: "new"})
	}
	var kept []bench.Key
	for i := 1; i <= 3; i++ {
		p := &Prepared{Job: Job{Label: "l", Shard: shard.Shard{Index: i, Count: 3}}, Targets: slices.Clone(targets)}
		if err := p.shard(); err != nil {
			t.Fatal(err)
		}
		if len(p.Targets) != 2*len(p.Shard.Keys) {
			t.Errorf("shard %d/3: %d targets for keys %v; want both versions of each", i, len(p.Targets), p.Shard.Keys)
		}
		kept = append(kept, keysOf(p.Targets)...)
		set := p.Shard.Settings()
		if set[bench.SettingShard] != (shard.Shard{Index: i, Count: 3}).String() || set[bench.SettingShardBasis] != "hash" || set[bench.SettingShardSuite] != shard.SuiteID(basisSuite) {
			t.Errorf("shard %d/3: settings %v", i, set)
		}
	}
	slices.SortFunc(kept, bench.Key.Compare)
	if want := slices.SortedFunc(slices.Values(basisSuite), bench.Key.Compare); !slices.Equal(kept, want) {
		t.Errorf("shards kept %v, want each of %v once", kept, basisSuite)
	}
}
