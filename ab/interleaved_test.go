package ab

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/run"
	"github.com/mbench/mbench/stats"
)

// fixtureVersions builds testdata/fixture without and with the tag
// "slower", with the probe, once for all tests, into the tests' build
// cache.
var fixtureVersions = sync.OnceValues(func() ([2][]run.Binary, error) {
	dir, _ := filepath.Abs("testdata/fixture")
	var out [2][]run.Binary
	cache, err := makeBuildCache()
	if err != nil {
		return out, err
	}
	for i, tags := range []string{"", "slower"} {
		bins, err := run.BuildProbed(context.Background(), run.BuildOptions{Dir: dir, Tags: tags, CacheDir: cache}, []string{"."})
		if err != nil {
			return out, err
		}
		out[i] = bins
	}
	return out, nil
})

// interleavedConfig is a short session over the fixture: iterations of 2ms, 5 to
// 6 rounds.
func interleavedConfig(t *testing.T, bench string) Config {
	t.Helper()
	bins, err := fixtureVersions()
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig
	cfg.Old, cfg.New, cfg.Probed = bins[0], bins[1], true
	cfg.OldLabel, cfg.NewLabel = "old", "new"
	cfg.Bench = bench
	cfg.Iter, cfg.Iterations, cfg.Warmup = 2*time.Millisecond, 3, 1
	cfg.MinRounds, cfg.MaxRounds = 5, 6
	cfg.BenchmarkBudget = 0 // no time limit: the test must not depend on the machine's speed
	cfg.Compare.Replicates = 1000
	cfg.Instance = "test"
	return cfg
}

// TestInterleaved runs a session over the fixture at GOMAXPROCS 3, whatever
// the machine has, and checks that the processes of both versions are
// stored with their version and round, that the benchmarks found in one
// version only are named, that a fourfold slowdown of a classic and of a
// b.RunParallel benchmark is reported as slower, and that every benchmark
// ran at the GOMAXPROCS of the environment, as `go test` runs it.
func TestInterleaved(t *testing.T) {
	t.Setenv("GOMAXPROCS", "3")
	for _, pairing := range []string{PairingTurns, PairingProcesses} {
		t.Run(pairing, func(t *testing.T) { testInterleaved(t, pairing) })
	}
}

func testInterleaved(t *testing.T, pairing string) {
	cfg := interleavedConfig(t, ".")
	cfg.Pairing = pairing
	var progress []Progress
	cfg.Progress = func(p Progress) { progress = append(progress, p) }
	db := openStore(t)
	s, err := Interleaved(context.Background(), cfg, db, &bench.Run{Label: "old..new"})
	if err != nil {
		t.Fatal(err)
	}
	if got := keyNames(s.OnlyOld); len(got) != 1 || !strings.Contains(got[0], "OldOnly") {
		t.Errorf("OnlyOld = %v, want OldOnly", got)
	}
	if got := keyNames(s.OnlyNew); len(got) != 1 || !strings.Contains(got[0], "NewOnly") {
		t.Errorf("OnlyNew = %v, want NewOnly", got)
	}
	if len(s.Benchmarks) != 7 {
		t.Fatalf("%d benchmarks in both versions, want 7", len(s.Benchmarks))
	}
	// A progress report before each benchmark of each round.
	pairs := 0
	for _, b := range s.Benchmarks {
		pairs += b.Rounds
	}
	if len(progress) != pairs {
		t.Errorf("%d progress reports, want one per benchmark and round, %d", len(progress), pairs)
	}
	for i, p := range progress {
		if p.Round < 1 || p.Round > s.Rounds || p.Index < 1 || p.Index > p.Active || p.Total != 7 || p.Decided > p.Total || p.Elapsed < 0 ||
			i > 0 && (p.Round < progress[i-1].Round || p.Decided < progress[i-1].Decided) {
			t.Errorf("progress %d: %+v", i, p)
			break
		}
	}
	for _, b := range s.Benchmarks {
		if b.Key.Procs != 3 {
			t.Errorf("%s: ran at GOMAXPROCS %d, want 3 (the environment's)", b.Key, b.Key.Procs)
		}
		if b.Stop != StopDecided && b.Stop != StopMaxRounds {
			t.Errorf("%s: stopped for %q", b.Key, b.Stop)
		}
		if b.Rounds < cfg.MinRounds || b.Rounds > cfg.MaxRounds {
			t.Errorf("%s: %d rounds, want %d to %d", b.Key, b.Rounds, cfg.MinRounds, cfg.MaxRounds)
		}
	}
	// The stored run is the session: reloaded, it gives the same rows.
	stored, err := db.Load(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(stored.Measurements), len(s.Run.Measurements); got != want {
		t.Errorf("%d measurements stored, want %d", got, want)
	}
	if got := stored.Versions(); len(got) != 2 || got[0] != "old" && got[1] != "old" {
		t.Errorf("stored versions %v, want old and new", got)
	}
	old, new := stored.Version("old"), stored.Version("new")
	if !compare.Interleaved(old, new) {
		t.Fatalf("the stored session is not recognised as interleaved: settings %v", stored.Settings)
	}
	opts := cfg.Compare
	alpha, ok := compare.LookAlpha(stored)
	if !ok || alpha != s.Sequence.LookAlpha() {
		t.Errorf("stored look alpha %v (%v), want %v", alpha, ok, s.Sequence.LookAlpha())
	}
	opts.Alpha = alpha
	res, err := compare.Compare(old, new, opts)
	if err != nil {
		t.Fatal(err)
	}
	mine, err := s.Compare("sec/op")
	if err != nil {
		t.Fatal(err)
	}
	// The rows follow the order of the source, which the stored run
	// records, not the random order of the rounds.
	if !slices.Equal(stored.Benchmarks, s.Run.Benchmarks) || len(stored.Benchmarks) != len(s.Benchmarks) || len(res.Rows) != len(s.Benchmarks) {
		t.Fatalf("stored benchmarks %v, want %v; %d rows", stored.Benchmarks, s.Run.Benchmarks, len(res.Rows))
	}
	for i, b := range s.Benchmarks {
		if res.Rows[i].Key != b.Key || stored.Benchmarks[i] != b.Key {
			t.Errorf("row %d is %v, stored %v, want %v in the order of discovery", i, res.Rows[i].Key, stored.Benchmarks[i], b.Key)
		}
	}
	method := map[string]string{PairingTurns: "turns", PairingProcesses: "rounds"}[pairing]
	for i, row := range res.Rows {
		if row.Method != method {
			t.Errorf("%s: method %q, want %s", row.Key, row.Method, method)
		}
		if m := mine.Rows[i]; m.Ratio != row.Ratio {
			t.Errorf("%s: the session says %+v, the stored run %+v", row.Key, m.Ratio, row.Ratio)
		}
		switch name := row.Key.Name; name {
		case "Slower", "Parallel":
			// Four times the work: the estimate is far above 1 however
			// busy the machine. Whether 5 or 6 rounds decide it is not
			// (a loaded machine once left Parallel's interval at
			// [0.59, 10.4]), but they never say faster or unchanged.
			if v := row.Verdict; v != compare.Worse && v != compare.Inconclusive || row.Change() < 1 {
				t.Errorf("%s: %s by %+.1f%% %v, want slower by about +300%%", name, row.Verdict.Word("sec/op"), 100*row.Change(), row.Ratio)
			}
		}
	}
	procs := 0
	for _, m := range stored.Measurements {
		if v, ok := m.Get("procs"); ok {
			procs++
			if v != 3 {
				t.Errorf("BenchmarkProcs ran at GOMAXPROCS %v, want 3", v)
			}
		}
		if m.Coord.SuiteRun < 1 || m.Coord.Version == "" {
			t.Errorf("measurement without round or version: %+v", m.Coord)
			break
		}
	}
	if procs == 0 {
		t.Error("BenchmarkProcs stored no procs metric")
	}
	// Steady state: the 8 MB that BenchmarkColdStart allocates on its
	// first operation in a process is never in a measured iteration,
	// however long an operation is against -iter. (The runtime allocates
	// a few kB of its own now and then in 6ms of CPU; 4 MB/op would be
	// the cold start.)
	cold := 0
	for _, m := range stored.Measurements {
		if m.Key.Name != "ColdStart" || m.Coord.Phase == bench.Warmup {
			continue
		}
		cold++
		if m.N < cfg.MinOps {
			t.Errorf("ColdStart: %d operations in an iteration, want at least %d", m.N, cfg.MinOps)
		}
		if v, ok := m.Get("B/op"); !ok || v > 64<<10 {
			t.Errorf("ColdStart %s round %d iteration %d: %v B/op (%v), want the steady state's 0", m.Coord.Version, m.Coord.SuiteRun, m.Coord.Iteration, v, ok)
		}
	}
	if cold == 0 {
		t.Error("no measured iteration of ColdStart")
	}
	// Steady state across collections: BenchmarkAfterGC allocates 1 MB on
	// its first operation after each collection, and the testing package
	// collects before every timed run; at -min-ops operations that is
	// 512 KB/op, at the operations steadyN chose a small part of it.
	for _, b := range s.Benchmarks {
		if b.Key.Name == "AfterGC" && b.N < 8*cfg.MinOps {
			t.Errorf("AfterGC: %d operations per iteration, want at least %d", b.N, 8*cfg.MinOps)
		}
	}
	for _, m := range stored.Measurements {
		if m.Key.Name != "AfterGC" || m.Coord.Phase == bench.Warmup {
			continue
		}
		if v, _ := m.Get("B/op"); v > 1<<20/8 {
			t.Errorf("AfterGC %s round %d: %v B/op, want the steady state's, below 128 KB", m.Coord.Version, m.Coord.SuiteRun, v)
			break
		}
	}
}

// TestInterleavedFailure checks that a benchmark that fails or hangs in
// one version is named with that version and why, and that the others are
// still compared.
func TestInterleavedFailure(t *testing.T) {
	for _, c := range []struct {
		trouble string
		want    []string
		listed  bool // found by discovery, so among the benchmarks
	}{
		{"fail", []string{"BenchmarkTrouble on new", "trouble"}, false},
		{"fail-later", []string{"Trouble", "failed on new (round 1)", "trouble later"}, true},
		{"hang", []string{"Trouble", "failed on new (round 1)", "timed out"}, true},
	} {
		t.Run(c.trouble, func(t *testing.T) {
			t.Setenv("AB_TROUBLE", c.trouble)
			cfg := interleavedConfig(t, "Trouble|Same")
			// Long enough that the rounds before the hang end in time on
			// a loaded machine, so that the side timed out is the one
			// that hangs.
			cfg.Timeout = 10 * time.Second
			s, err := Interleaved(context.Background(), cfg, openStore(t), &bench.Run{Label: "old..new"})
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if !c.listed && (len(s.OnlyOld) != 1 || s.OnlyOld[0].Name != "Trouble") {
				t.Errorf("OnlyOld = %v, want Trouble (it fails in the new version)", s.OnlyOld)
			}
			for _, b := range s.Benchmarks {
				switch {
				case b.Key.Name == "Trouble" && b.Stop != StopFailed:
					t.Errorf("%s: stop %q, want failed", b.Key, b.Stop)
				case b.Key.Name == "Same" && b.Rounds < cfg.MinRounds:
					t.Errorf("%s: %d rounds; the failure of another benchmark stopped it", b.Key, b.Rounds)
				}
			}
		})
	}
}

// TestInterleavedCancel cancels a session after its first stored process:
// the session returns what it stored, marked interrupted.
func TestInterleavedCancel(t *testing.T) {
	cfg := interleavedConfig(t, "Same")
	cfg.MinRounds, cfg.MaxRounds = 20, 30
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db := openStore(t)
	var lines strings.Builder
	cfg.Log = writerFunc(func(p []byte) (int, error) {
		lines.Write(p)
		if strings.Contains(lines.String(), "round 3:") {
			cancel()
		}
		return len(p), nil
	})
	s, err := Interleaved(ctx, cfg, db, &bench.Run{Label: "old..new"})
	if err == nil || s == nil {
		t.Fatalf("Interleaved = %v, %v; want the session and an error", s, err)
	}
	stored, lerr := db.Load(s.ID)
	if lerr != nil {
		t.Fatal(lerr)
	}
	if n := len(stored.Measurements); n < 2*(cfg.Warmup+cfg.Iterations)*2 {
		t.Errorf("%d measurements kept, want at least two rounds' worth", n)
	}
	runs, _ := db.Runs()
	for _, r := range runs {
		if r.ID == s.ID && r.Status != "interrupted" {
			t.Errorf("status %q, want interrupted", r.Status)
		}
	}

	// Resumed, the session goes on from the next round to a decision.
	cfg.Log = nil
	cfg.MinRounds, cfg.MaxRounds = 4, 5 // replaced by the stored looks
	cfg.Iterations = 9                  // replaced by the stored setting
	r, err := Resume(context.Background(), cfg, db, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r.Sequence.Looks[0] != 20 || r.cfg.Iterations != 3 {
		t.Errorf("resumed with looks %v and %d iterations, want the stored 20… and 3", r.Sequence.Looks, r.cfg.Iterations)
	}
	if r.Rounds <= s.Rounds {
		t.Errorf("resumed session ran to round %d, the interrupted one to %d", r.Rounds, s.Rounds)
	}
	seen := map[[2]any]int{}
	for _, m := range r.Run.Measurements {
		seen[[2]any{m.Coord.Version, m.Coord.SuiteRun}]++
	}
	for k, n := range seen {
		if n > cfg.Warmup+3 {
			t.Errorf("version %v round %v has %d iterations, want at most %d: a round ran twice", k[0], k[1], n, cfg.Warmup+3)
		}
	}
	b := r.Benchmarks[0]
	if b.Stop == "" || b.Rounds < 20 {
		t.Errorf("resumed benchmark: stop %q after %d rounds, want a decision from round 20", b.Stop, b.Rounds)
	}
	if _, err := Resume(context.Background(), Config{OldLabel: "x", NewLabel: "y"}, db, s.ID); err == nil || !strings.Contains(err.Error(), "not x with y") {
		t.Errorf("Resume with other labels: %v", err)
	}
}

// TestInterleavedBudget: a budget too small for any round still lets two
// rounds run, the fewest an interval needs, and then ends the session with
// every benchmark stopped by it and a warning.
func TestInterleavedBudget(t *testing.T) {
	cfg := interleavedConfig(t, "Same|Slower")
	cfg.Budget = time.Nanosecond
	s, err := Interleaved(context.Background(), cfg, openStore(t), &bench.Run{Label: "old..new"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Rounds != 2 {
		t.Errorf("%d rounds, want 2", s.Rounds)
	}
	for _, b := range s.Benchmarks {
		if b.Stop != StopBudget || b.Rounds != 2 {
			t.Errorf("%s: stop %q after %d rounds, want budget after 2", b.Key, b.Stop, b.Rounds)
		}
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "budget") {
		t.Errorf("warnings %q, want one about the budget", s.Warnings)
	}
	res, err := s.Compare("sec/op")
	if err != nil || len(res.Rows) != 2 {
		t.Fatalf("compare after the budget: %v, %v", res, err)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestDecided(t *testing.T) {
	for _, c := range []struct {
		lo, center, hi float64
		want           bool
	}{
		{1.04, 1.05, 1.06, true},  // slower
		{0.90, 0.93, 0.96, true},  // faster
		{0.98, 1.00, 1.02, true},  // no change
		{0.99, 1.02, 1.05, false}, // straddles the threshold and 1
		{1.01, 1.02, 1.04, false}, // excludes 1, estimate below the threshold, reaches beyond it
		{0.95, 1.05, 1.15, false}, // contains 1
	} {
		iv := stats.Interval{Center: c.center, Lo: c.lo, Hi: c.hi, Level: 0.99}
		if got := Decided(iv, 0.03); got != c.want {
			t.Errorf("Decided(%v) = %v, want %v", iv, got, c.want)
		}
	}
}
