package store

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
)

// A stored describes a run for the gathering tests.
type stored struct {
	label, commit, instance string
	dirty                   bool
	// shard, basis and suite are the shard settings, "" for none.
	shard, basis, suite string
	// planned are the benchmarks the run set out to measure, measured
	// those it measured (all planned ones when nil).
	planned, measured []string
	status            string
	// at is the start, in minutes after t0.
	at       int
	settings map[string]string
	versions []string
}

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// benchKeys returns keys of names in package p.
func benchKeys(names ...string) []bench.Key {
	var ks []bench.Key
	for _, n := range names {
		ks = append(ks, bench.Key{Package: "p", Name: n, Procs: 2})
	}
	return ks
}

// names returns Name0..Name(n-1) from i on.
func names(from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, fmt.Sprintf("B%02d", i))
	}
	return out
}

// put stores the run sp describes with two suite runs of two forks of two
// measurement iterations per benchmark and version, and returns its id.
func put(t *testing.T, s *Store, sp stored) string {
	t.Helper()
	r := &bench.Run{Label: sp.label, Commit: sp.commit, Dirty: sp.dirty, Start: t0.Add(time.Duration(sp.at) * time.Minute),
		Platform: bench.Platform{Toolchain: "go1.26.0", GOOS: "linux", GOARCH: "amd64", CPU: "Xeon", CPUs: 8,
			Host: "host-" + sp.instance, Instance: sp.instance},
		Benchmarks: benchKeys(sp.planned...),
		Settings:   map[string]string{bench.SettingCriterion: "rciw"},
	}
	for k, v := range sp.settings {
		r.Settings[k] = v
	}
	if sp.shard != "" {
		r.Settings[bench.SettingShard] = sp.shard
		r.Settings[bench.SettingShardBasis] = sp.basis
		r.Settings[bench.SettingShardSuite] = sp.suite
	}
	id, err := s.CreateRun(r)
	if err != nil {
		t.Fatal(err)
	}
	measured := sp.measured
	if measured == nil {
		measured = sp.planned
	}
	versions := sp.versions
	if versions == nil {
		versions = []string{""}
	}
	var ms []bench.Measurement
	for sr := 1; sr <= 2; sr++ {
		for _, k := range benchKeys(measured...) {
			for _, v := range versions {
				for f := 1; f <= 2; f++ {
					for it := 1; it <= 2; it++ {
						ms = append(ms, bench.Measurement{Key: k, N: 100,
							Coord:  bench.Coord{Version: v, Instance: sp.instance, SuiteRun: sr, Fork: f, Iteration: it},
							Values: []bench.Value{{Value: float64(sr*100 + f*10 + it), Unit: "sec/op"}}})
					}
				}
			}
		}
	}
	if len(ms) > 0 {
		if err := s.Append(id, ms...); err != nil {
			t.Fatal(err)
		}
	}
	status := sp.status
	if status == "" {
		status = StatusComplete
	}
	if err := s.Finish(id, r.Start.Add(time.Minute), status); err != nil {
		t.Fatal(err)
	}
	return id
}

// measuredKeys returns the names of the distinct benchmarks of r, sorted.
func measuredKeys(r *bench.Run) []string {
	var out []string
	for _, k := range r.Keys() {
		out = append(out, k.Name)
	}
	slices.Sort(out)
	return out
}

// wantWarnings checks that each warning matches one of the substrings
// want, in order, and that there are no others.
func wantWarnings(t *testing.T, got []error, want ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("got %d warnings, want %d:\n%v", len(got), len(want), got)
		return
	}
	for i, w := range want {
		if !strings.Contains(got[i].Error(), w) {
			t.Errorf("warning %d = %q, want it to contain %q", i, got[i], w)
		}
	}
}

func TestGatherOneRunIsLoad(t *testing.T) { eachBackend(t, testGatherOneRunIsLoad) }

func testGatherOneRunIsLoad(t *testing.T, open opener) {
	s, _ := open(t)
	id := put(t, s, stored{label: "L", commit: "c1", instance: "a", planned: names(0, 3)})
	put(t, s, stored{label: "other", commit: "c1", instance: "a", planned: names(0, 3), at: 1})
	loaded, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"L", id} {
		got, ws, err := s.LoadRef(ref)
		if err != nil {
			t.Fatal(err)
		}
		wantWarnings(t, ws)
		if !reflect.DeepEqual(got, loaded) {
			t.Errorf("LoadRef(%q) differs from Load(%s)", ref, id)
		}
	}
}

func TestGatherShards(t *testing.T) { eachBackend(t, testGatherShards) }

func testGatherShards(t *testing.T, open opener) {
	s, _ := open(t)
	suite := "6:abc"
	a := put(t, s, stored{label: "L", commit: "c1", instance: "ci", shard: "1/2", basis: "hash", suite: suite, planned: names(0, 3)})
	b := put(t, s, stored{label: "L", commit: "c1", instance: "ci", shard: "2/2", basis: "hash", suite: suite, planned: names(3, 6), at: 1})
	r, ws, err := s.Gather("L")
	if err != nil {
		t.Fatal(err)
	}
	wantWarnings(t, ws)
	if got, want := measuredKeys(r), names(0, 6); !slices.Equal(got, want) {
		t.Errorf("keys = %v, want %v", got, want)
	}
	if r.ID != a+"+"+b || r.Label != "L" || r.Commit != "c1" || r.Instance != "ci" || r.CPU != "Xeon" {
		t.Errorf("metadata: id %s label %s commit %s instance %s cpu %s", r.ID, r.Label, r.Commit, r.Instance, r.CPU)
	}
	// The settings the shards share stay; the shard each claimed does not.
	if want := map[string]string{bench.SettingCriterion: "rciw", bench.SettingShardBasis: "hash", bench.SettingShardSuite: suite}; !reflect.DeepEqual(r.Settings, want) {
		t.Errorf("settings = %v, want %v", r.Settings, want)
	}
	if len(r.Measurements) != 6*2*2*2 {
		t.Errorf("%d measurements, want %d", len(r.Measurements), 6*2*2*2)
	}
	// Suite runs of the second shard follow those of the first.
	for _, m := range r.Measurements {
		second := m.Key.Name >= "B03"
		if got := m.Coord.SuiteRun > 2; got != second {
			t.Errorf("%s: suite run %d", m.Key.Name, m.Coord.SuiteRun)
		}
	}
	if len(r.Benchmarks) != 6 {
		t.Errorf("benchmarks = %v, want all 6", r.Benchmarks)
	}
}

func TestGatherInstances(t *testing.T) { eachBackend(t, testGatherInstances) }

func testGatherInstances(t *testing.T, open opener) {
	s, _ := open(t)
	put(t, s, stored{label: "L", commit: "c1", instance: "a", planned: names(0, 3)})
	put(t, s, stored{label: "L", commit: "c1", instance: "b", planned: names(0, 3), at: 1})
	r, ws, err := s.Gather("L")
	if err != nil {
		t.Fatal(err)
	}
	wantWarnings(t, ws)
	// The machines live in the coordinates; the platform keeps what both share.
	if r.Instance != "" || r.Host != "" || r.Identity() != "" || r.CPU != "Xeon" || r.Toolchain != "go1.26.0" {
		t.Errorf("platform = %+v", r.Platform)
	}
	forks := make(map[bench.Key]map[bench.ForkID]bool)
	instances := make(map[string]bool)
	for _, m := range r.Measurements {
		if forks[m.Key] == nil {
			forks[m.Key] = make(map[bench.ForkID]bool)
		}
		forks[m.Key][m.Coord.ForkID()] = true
		instances[m.Coord.Instance] = true
	}
	for k, fs := range forks {
		if len(fs) != 8 {
			t.Errorf("%s: %d forks, want 8 (2 instances × 2 suite runs × 2 forks)", k, len(fs))
		}
	}
	if len(instances) != 2 {
		t.Errorf("instances %v, want a and b", instances)
	}
	// Compared with a run of instance a, the gathered result does not
	// warn that the machines differ.
	one, err := s.Load(mustResolve(t, s, "L"))
	if err != nil {
		t.Fatal(err)
	}
	if d := bench.PlatformDiff(r, one); d != nil {
		t.Errorf("PlatformDiff = %v, want none", d)
	}
}

func mustResolve(t *testing.T, s *Store, ref string) string {
	t.Helper()
	id, err := s.Resolve(ref)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestGatherDuplicateShard(t *testing.T) { eachBackend(t, testGatherDuplicateShard) }

func testGatherDuplicateShard(t *testing.T, open opener) {
	s, _ := open(t)
	suite := "6:abc"
	put(t, s, stored{label: "L", commit: "c1", instance: "ci", shard: "1/2", basis: "hash", suite: suite, planned: names(0, 3)})
	failed := put(t, s, stored{label: "L", commit: "c1", instance: "ci", shard: "2/2", basis: "hash", suite: suite,
		planned: names(3, 6), measured: names(3, 4), status: StatusFailed, at: 1})
	again := put(t, s, stored{label: "L", commit: "c1", instance: "ci", shard: "2/2", basis: "hash", suite: suite, planned: names(3, 6), at: 2})
	r, ws, err := s.Gather("L")
	if err != nil {
		t.Fatal(err)
	}
	wantWarnings(t, ws, fmt.Sprintf("runs %s and %s under label L both measured shard 2/2 on instance ci; gathering the complete run %s, leaving out %s (failed)",
		failed, again, again, failed))
	if got, want := measuredKeys(r), names(0, 6); !slices.Equal(got, want) {
		t.Errorf("keys = %v, want %v", got, want)
	}
	if len(r.Measurements) != 6*8 || strings.Contains(r.ID, failed) {
		t.Errorf("%d measurements of %s, want %d without the failed run", len(r.Measurements), r.ID, 6*8)
	}

	// Both complete: both are gathered.
	put(t, s, stored{label: "L", commit: "c1", instance: "ci", shard: "1/2", basis: "hash", suite: suite, planned: names(0, 3), at: 3})
	r, ws, err = s.Gather("L")
	if err != nil {
		t.Fatal(err)
	}
	wantWarnings(t, ws, "both measured shard 1/2 on instance ci; gathering all of them", "leaving out")
	if len(r.Measurements) != 9*8 {
		t.Errorf("%d measurements, want %d", len(r.Measurements), 9*8)
	}

	// The same shard on two instances is the instance level, not a duplicate.
	s2, _ := open(t)
	put(t, s2, stored{label: "L", commit: "c1", instance: "a", shard: "1/1", basis: "hash", suite: "3:x", planned: names(0, 3)})
	put(t, s2, stored{label: "L", commit: "c1", instance: "b", shard: "1/1", basis: "hash", suite: "3:x", planned: names(0, 3), at: 1})
	_, ws, err = s2.Gather("L")
	if err != nil {
		t.Fatal(err)
	}
	wantWarnings(t, ws)
}

func TestGatherMissingShards(t *testing.T) { eachBackend(t, testGatherMissingShards) }

func testGatherMissingShards(t *testing.T, open opener) {
	s, _ := open(t)
	put(t, s, stored{label: "L", commit: "c1", instance: "ci", shard: "1/4", basis: "hash", suite: "120:abc", planned: names(0, 30)})
	put(t, s, stored{label: "L", commit: "c1", instance: "ci", shard: "2/4", basis: "hash", suite: "120:abc", planned: names(30, 60), at: 1})
	_, ws, err := s.Gather("L")
	if err != nil {
		t.Fatal(err)
	}
	wantWarnings(t, ws, "label L: shards 3/4, 4/4 missing: 60 of 120 benchmarks not measured")

	// A single shard run is gathered as Load returns it, and warned about.
	s2, _ := open(t)
	id := put(t, s2, stored{label: "L", commit: "c1", instance: "ci", shard: "3/4", basis: "hash", suite: "8:abc", planned: names(0, 2)})
	r, ws, err := s2.Gather("L")
	if err != nil {
		t.Fatal(err)
	}
	wantWarnings(t, ws, "label L: shards 1/4, 2/4, 4/4 missing: 6 of 8 benchmarks not measured")
	if loaded, _ := s2.Load(id); !reflect.DeepEqual(r, loaded) {
		t.Error("a single shard gathers differently from Load")
	}
}

func TestGatherIncompatibleShards(t *testing.T) { eachBackend(t, testGatherIncompatibleShards) }

func testGatherIncompatibleShards(t *testing.T, open opener) {
	s, _ := open(t)
	a := put(t, s, stored{label: "L", commit: "c1", instance: "ci", shard: "1/2", basis: "hash", suite: "6:abc", planned: names(0, 4)})
	b := put(t, s, stored{label: "L", commit: "c1", instance: "ci", shard: "2/3", basis: "time:r1", suite: "7:def", planned: names(3, 6), at: 1})
	_, ws, err := s.Gather("L")
	if err != nil {
		t.Fatal(err)
	}
	wantWarnings(t, ws,
		fmt.Sprintf(`runs %s (shard 1/2) and %s (shard 2/3) under label L are shards of different splits (2 vs 3 shards; basis "hash" vs "time:r1"; suite "6:abc" vs "7:def")`, a, b),
		"label L: shards 1/3, 3/3 missing",
		fmt.Sprintf("runs %s (shard 1/2) and %s (shard 2/3) under label L are different shards but both measured benchmark: BenchmarkB03-2", a, b))
}

func TestGatherDifferentSuites(t *testing.T) { eachBackend(t, testGatherDifferentSuites) }

func testGatherDifferentSuites(t *testing.T, open opener) {
	s, _ := open(t)
	a := put(t, s, stored{label: "L", commit: "c1", instance: "a", planned: names(0, 12)})
	b := put(t, s, stored{label: "L", commit: "c1", instance: "a", planned: names(0, 15), at: 1})
	r, ws, err := s.Gather("L")
	if err != nil {
		t.Fatal(err)
	}
	wantWarnings(t, ws, fmt.Sprintf("runs %s and %s under label L measured different suites (12 vs 15 benchmarks; only in %s: BenchmarkB12-2, BenchmarkB13-2, BenchmarkB14-2)", a, b, b))
	if len(measuredKeys(r)) != 15 {
		t.Errorf("keys = %v, want all 15", measuredKeys(r))
	}
	c := put(t, s, stored{label: "L", commit: "c1", instance: "a", planned: append(names(0, 11), names(20, 25)...), at: 2})
	_, ws, err = s.Gather("L")
	if err != nil {
		t.Fatal(err)
	}
	wantWarnings(t, ws,
		fmt.Sprintf("only in %s: BenchmarkB11-2; only in %s: BenchmarkB20-2, BenchmarkB21-2, BenchmarkB22-2, … (2 more))", a, c),
		fmt.Sprintf("runs %s and %s under label L measured different suites (15 vs 16 benchmarks; only in %s: BenchmarkB11-2, BenchmarkB12-2, BenchmarkB13-2, … (1 more); only in %s:", b, c, b, c))
}

func TestGatherInterrupted(t *testing.T) { eachBackend(t, testGatherInterrupted) }

func testGatherInterrupted(t *testing.T, open opener) {
	s, _ := open(t)
	put(t, s, stored{label: "L", commit: "c1", instance: "a", planned: names(0, 4)})
	b := put(t, s, stored{label: "L", commit: "c1", instance: "b", planned: names(0, 4), measured: names(0, 1), status: StatusInterrupted, at: 1})
	r, ws, err := s.Gather("L")
	if err != nil {
		t.Fatal(err)
	}
	wantWarnings(t, ws, fmt.Sprintf("run %s under label L is interrupted: 3 of its 4 benchmarks not measured", b))
	if len(r.Measurements) != 4*8+8 {
		t.Errorf("%d measurements, want %d", len(r.Measurements), 4*8+8)
	}
}

func TestGatherOtherCommit(t *testing.T) { eachBackend(t, testGatherOtherCommit) }

func testGatherOtherCommit(t *testing.T, open opener) {
	s, _ := open(t)
	old := put(t, s, stored{label: "main", commit: "c1", instance: "a", planned: names(0, 2)})
	a := put(t, s, stored{label: "main", commit: "c2", instance: "a", planned: names(0, 2), at: 1})
	b := put(t, s, stored{label: "main", commit: "c2", instance: "b", planned: names(0, 2), at: 2})
	r, ws, err := s.Gather("main")
	if err != nil {
		t.Fatal(err)
	}
	wantWarnings(t, ws, fmt.Sprintf("label main: left out run %s (c1) of another commit than the newest run %s (c2)", old, b))
	if r.ID != a+"+"+b {
		t.Errorf("gathered %s, want %s+%s", r.ID, a, b)
	}
	groups := groupRuns(mustRuns(t, s))
	if len(groups) != 2 || len(groups[0]) != 2 || len(groups[1]) != 1 || groups[1][0].ID != old {
		t.Errorf("groupRuns = %v", groups)
	}
}

// TestGatherCopiedLate gathers a label whose run of an older commit was
// stored last, as a shard's file copied to the server after the next
// commit's shards were: the newest result is the one measured last.
func TestGatherCopiedLate(t *testing.T) { eachBackend(t, testGatherCopiedLate) }

func testGatherCopiedLate(t *testing.T, open opener) {
	s, _ := open(t)
	a := put(t, s, stored{label: "pr-42", commit: "c2", instance: "a", planned: names(0, 2), at: 10})
	b := put(t, s, stored{label: "pr-42", commit: "c2", instance: "b", planned: names(0, 2), at: 11})
	old := put(t, s, stored{label: "pr-42", commit: "c1", instance: "a", planned: names(0, 2), at: 0})
	r, ws, err := s.Gather("pr-42")
	if err != nil {
		t.Fatal(err)
	}
	wantWarnings(t, ws, fmt.Sprintf("label pr-42: left out run %s (c1) of another commit than the newest run %s (c2)", old, b))
	if r.ID != a+"+"+b {
		t.Errorf("gathered %s, want %s+%s", r.ID, a, b)
	}
}

func mustRuns(t *testing.T, s *Store) []RunInfo {
	t.Helper()
	infos, err := s.Runs()
	if err != nil {
		t.Fatal(err)
	}
	return infos
}

func TestGatherVersions(t *testing.T) { eachBackend(t, testGatherVersions) }

func testGatherVersions(t *testing.T, open opener) {
	s, _ := open(t)
	a := put(t, s, stored{label: "L", commit: "c1", instance: "a", planned: names(0, 2), versions: []string{"old", "new"}})
	put(t, s, stored{label: "L", commit: "c1", instance: "b", planned: names(0, 2), versions: []string{"old", "new"}, at: 1})
	r, ws, err := s.Gather("L")
	if err != nil {
		t.Fatal(err)
	}
	wantWarnings(t, ws)
	if got := r.Versions(); len(got) != 2 {
		t.Errorf("versions %v", got)
	}
	c := put(t, s, stored{label: "L", commit: "c1", instance: "b", planned: names(0, 2), at: 2})
	_, _, err = s.Gather("L")
	want := fmt.Sprintf("runs %s and %s under label L measured different versions side by side, and cannot be one result (new, old vs one version)", a, c)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want %q", err, want)
	}
	// Listing every result, they come one by one.
	runs, ws, err := s.GatherResults(mustRuns(t, s))
	if err != nil {
		t.Fatal(err)
	}
	wantWarnings(t, ws, want+"; listing them one by one")
	if len(runs) != 3 {
		t.Errorf("%d results, want the 3 runs", len(runs))
	}
}

func TestGatherUnknown(t *testing.T) { eachBackend(t, testGatherUnknown) }

func testGatherUnknown(t *testing.T, open opener) {
	s, _ := open(t)
	put(t, s, stored{label: "L", commit: "c1", instance: "a", planned: names(0, 2)})
	if _, _, err := s.Gather("nope"); err == nil {
		t.Error("Gather of an unknown label succeeded")
	}
	if _, _, err := s.LoadRef("nope"); err == nil || !strings.Contains(err.Error(), "labels: L") {
		t.Errorf("LoadRef of an unknown label: %v", err)
	}
}

func TestGatherBadShardSetting(t *testing.T) { eachBackend(t, testGatherBadShardSetting) }

func testGatherBadShardSetting(t *testing.T, open opener) {
	s, _ := open(t)
	a := put(t, s, stored{label: "L", commit: "c1", instance: "a", planned: names(0, 2), settings: map[string]string{bench.SettingShard: "3/2"}})
	put(t, s, stored{label: "L", commit: "c1", instance: "a", planned: names(0, 2), at: 1})
	_, ws, err := s.Gather("L")
	if err != nil {
		t.Fatal(err)
	}
	wantWarnings(t, ws, fmt.Sprintf(`run %s under label L: setting shard="3/2" is not i/n; gathered as a whole suite`, a))
}

func TestGroupRuns(t *testing.T) {
	infos := []RunInfo{
		{ID: "1", Label: "a", Commit: "c1"},
		{ID: "2"},
		{ID: "3", Label: "a", Commit: "c1"},
		{ID: "4"},
		{ID: "5", Label: "a", Commit: "c1", Dirty: true},
		{ID: "6", Label: "b", Commit: "c1"},
		{ID: "7", Label: "a", Commit: "c2"},
	}
	var got [][]string
	for _, g := range groupRuns(infos) {
		var ids []string
		for _, ri := range g {
			ids = append(ids, ri.ID)
		}
		got = append(got, ids)
	}
	want := [][]string{{"1", "3"}, {"2"}, {"4"}, {"5"}, {"6"}, {"7"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("groupRuns = %v, want %v", got, want)
	}
}

func TestLoadInputsGathers(t *testing.T) { eachBackend(t, testLoadInputsGathers) }

func testLoadInputsGathers(t *testing.T, open opener) {
	s, path := open(t)
	put(t, s, stored{label: "L", commit: "c1", instance: "ci", shard: "1/2", basis: "hash", suite: "4:x", planned: names(0, 2)})
	put(t, s, stored{label: "L", commit: "c1", instance: "ci", shard: "2/2", basis: "hash", suite: "4:x", planned: names(2, 4), at: 1})
	put(t, s, stored{label: "M", commit: "c1", instance: "ci", shard: "1/2", basis: "hash", suite: "4:x", planned: names(0, 2), at: 2})
	ins, err := bench.ParseInputs([]string{"L", "M"})
	if err != nil {
		t.Fatal(err)
	}
	runs, ws, err := LoadInputs(path, ins, bench.DefaultReadOptions)
	if err != nil {
		t.Fatal(err)
	}
	wantWarnings(t, ws, "label M: shard 2/2 missing: 2 of 4 benchmarks not measured")
	if len(runs) != 2 || len(measuredKeys(runs[0])) != 4 || len(measuredKeys(runs[1])) != 2 {
		t.Errorf("loaded %d runs", len(runs))
	}
}

func TestGatherDirty(t *testing.T) { eachBackend(t, testGatherDirty) }

func testGatherDirty(t *testing.T, open opener) {
	s, _ := open(t)
	put(t, s, stored{label: "L", commit: "c1", instance: "a", planned: names(0, 2), at: -1})
	a := put(t, s, stored{label: "L", commit: "c1", dirty: true, instance: "a", planned: names(0, 2)})
	b := put(t, s, stored{label: "L", commit: "c1", dirty: true, instance: "a", planned: names(0, 2), at: 1})
	r, ws, err := s.Gather("L")
	if err != nil {
		t.Fatal(err)
	}
	wantWarnings(t, ws, "left out run",
		fmt.Sprintf("runs %s, %s under label L measured a tree with uncommitted changes (c1-dirty): they may have measured different code", a, b))
	if !r.Dirty || len(r.Measurements) != 2*8*2 {
		t.Errorf("dirty %v, %d measurements", r.Dirty, len(r.Measurements))
	}
}

// TestMergeSuiteRunZero merges runs whose measurements have suite run 0,
// as results read from go test output have: the runs' forks stay apart.
func TestMergeSuiteRunZero(t *testing.T) {
	var parts []*part
	for i := range 2 {
		r := &bench.Run{ID: fmt.Sprint("r", i), Platform: bench.Platform{Instance: "m1"}}
		for it := range 2 {
			r.Measurements = append(r.Measurements, bench.Measurement{Key: benchKeys("B")[0], N: 1,
				Coord: bench.Coord{Instance: "m1", Iteration: it}, Values: []bench.Value{{Value: float64(i), Unit: "sec/op"}}})
		}
		parts = append(parts, newPart(RunInfo{ID: r.ID, Start: t0.Add(time.Duration(i) * time.Minute), Status: StatusComplete}, r))
	}
	r := mergeRuns(parts)
	forks := make(map[bench.ForkID][]float64)
	for _, m := range r.Measurements {
		forks[m.Coord.ForkID()] = append(forks[m.Coord.ForkID()], m.Values[0].Value)
	}
	if len(forks) != 2 {
		t.Errorf("merged run has forks %v, want the 2 of the 2 runs apart", forks)
	}
}
