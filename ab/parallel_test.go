package ab

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/mbench/mbench/duet"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/stats"
	"github.com/mbench/mbench/store"
)

// buildCache holds the test binaries the tests build, removed at the end.
var buildCache string

func TestMain(m *testing.M) {
	code := m.Run()
	if buildCache != "" {
		os.RemoveAll(buildCache)
	}
	os.Exit(code)
}

var makeBuildCache = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "mbench-ab-test")
	buildCache = dir
	return dir, err
})

// needsDuet skips a test that builds and runs benchmarks in pairs, which
// takes two CPUs, and returns the build cache to use.
func needsDuet(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	if runtime.NumCPU() < 2 {
		t.Skip("a parallel session needs two CPUs")
	}
	cache, err := makeBuildCache()
	if err != nil {
		t.Fatal(err)
	}
	return cache
}

// gitModule makes a git repository holding a module with one benchmark,
// BenchmarkWork, in two commits (the second doing twice the work), and
// returns its directory.
func gitModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/abt\n\ngo 1.26\n")
	write("abt_test.go", `package abt

import "testing"

var sink int

func BenchmarkWork(b *testing.B) {
	for b.Loop() {
		sink += Work(sink)
	}
}
`)
	git(t, dir, "init", "-q")
	for _, n := range []int{500, 1000} {
		write("abt.go", fmt.Sprintf(`package abt

// Work does about %[1]d steps of dependent arithmetic.
func Work(x int) int {
	for i := 0; i < %[1]d; i++ {
		x = x*31 + i
	}
	return x
}
`, n))
		git(t, dir, "add", ".")
		git(t, dir, "commit", "-q", "-m", fmt.Sprint(n))
	}
	return dir
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// testConfig is a small session of revisions in dir, on CPUs 0 and 1.
func testConfig(dir, cache string) ParallelConfig {
	cfg := DefaultParallelConfig
	cfg.Dir, cfg.CacheDir = dir, cache
	cfg.OldRev = "HEAD~1"
	cfg.Runs, cfg.Iters, cfg.Warmup = 2, 3, 1
	cfg.Iter = 2 * time.Millisecond
	cfg.Timeout = time.Minute
	return cfg
}

// checkWorktrees fails t unless git lists dir's working tree alone.
func checkWorktrees(t *testing.T, dir string) {
	t.Helper()
	if list := git(t, dir, "worktree", "list", "--porcelain"); strings.Count(list, "worktree ") != 1 {
		t.Errorf("scratch worktrees left behind:\n%s", list)
	}
}

// TestRunParallel runs a session of the previous commit against the
// working tree: every pair is in the store, in two runs labelled with the
// revisions, which compare recognises as the two sides of one session.
func TestRunParallel(t *testing.T) {
	cache := needsDuet(t)
	dir := gitModule(t)
	db := openStore(t)
	var log bytes.Buffer
	res, err := RunParallel(context.Background(), testConfig(dir, cache), db, &log)
	if err != nil {
		t.Fatalf("%v\nlog:\n%s", err, &log)
	}
	t.Logf("log:\n%s", &log)
	const perSide = 2 * (1 + 3) // runs × (warm-up + measured iterations)
	if res.Pairs != perSide || res.Status != "complete" {
		t.Errorf("%d pairs, status %q; want %d, complete", res.Pairs, res.Status, perSide)
	}
	// Without a warning, the binaries carry the probe, which measures the
	// processes' CPU time.
	if len(res.Warnings) == 0 && !res.CPUTimes() {
		t.Error("no warning and no CPU times: the probe was not used")
	}
	if len(res.Skews) != 2*3 {
		t.Errorf("%d skews, want one per measured pair, %d", len(res.Skews), 2*3)
	}
	head := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	prev := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD~1"))
	for _, side := range []struct {
		run           *bench.Run
		label, commit string
		side          string
	}{
		{res.Old, "HEAD~1", prev, bench.DuetSideOld},
		{res.New, head[:12], head, bench.DuetSideNew},
	} {
		stored, err := db.Load(side.run.ID)
		if err != nil {
			t.Fatal(err)
		}
		if stored.Label != side.label || stored.Commit != side.commit || stored.Settings[bench.SettingDuetSide] != side.side || stored.Settings[bench.SettingDuet] != res.ID {
			t.Errorf("%s run: label %q, commit %s, settings %v; want label %q, commit %s, side %s of session %s",
				side.side, stored.Label, stored.Commit, stored.Settings, side.label, side.commit, side.side, res.ID)
		}
		if len(stored.Measurements) != perSide || len(side.run.Measurements) != perSide {
			t.Errorf("%s run: %d measurements stored, %d returned; want %d", side.side, len(stored.Measurements), len(side.run.Measurements), perSide)
		}
		for _, m := range stored.Measurements {
			if m.Key.Name != "Work" || m.N < 1 {
				t.Errorf("%s run: measurement %+v, want BenchmarkWork's with N > 0", side.side, m)
				break
			}
		}
	}
	old, err := db.Load(res.Old.ID)
	if err != nil {
		t.Fatal(err)
	}
	new, err := db.Load(res.New.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !compare.Paired(old, new) {
		t.Error("compare.Paired does not recognise the stored runs")
	}
	checkWorktrees(t, dir)
}

// TestRunParallelInterrupted cancels a session, as SIGINT does, when its
// second run starts: the first run's pairs are in the store, the runs are
// marked interrupted, and the scratch worktree is gone.
func TestRunParallelInterrupted(t *testing.T) {
	cache := needsDuet(t)
	dir := gitModule(t)
	db := openStore(t)
	cfg := testConfig(dir, cache)
	cfg.OldRev, cfg.AA, cfg.Runs, cfg.Verbose = "HEAD", true, 50, true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The verbose log names each run as it starts, which is after the
	// previous one's pairs are stored.
	log := &cancelOn{w: new(bytes.Buffer), text: "run 2/", cancel: cancel}
	res, err := RunParallel(ctx, cfg, db, log)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled\nlog:\n%s", err, log.w)
	}
	// The first run's pairs are stored; of the second, cancelled as it
	// starts, the processes may still deliver some before they are killed.
	const perRun = 1 + 3
	if res.Pairs < perRun || res.Pairs >= 2*perRun || res.Status != "interrupted" {
		t.Errorf("%d pairs, status %q; want the first run's %d, interrupted\nlog:\n%s", res.Pairs, res.Status, perRun, log.w)
	}
	runs, err := db.Runs()
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 {
		t.Fatalf("%d runs stored, want 2", len(runs))
	}
	for _, r := range runs {
		if r.Measurements != res.Pairs || r.Status != "interrupted" {
			t.Errorf("run %s holds %d measurements, status %q; want %d, interrupted", r.ID, r.Measurements, r.Status, res.Pairs)
		}
	}
	checkWorktrees(t, dir)
	mine, _ := filepath.Glob(filepath.Join(os.TempDir(), fmt.Sprintf("mbench-rev-%d-*", os.Getpid())))
	if len(mine) > 0 {
		t.Errorf("scratch directories left behind: %v", mine)
	}
}

// cancelOn writes to w and calls cancel once text has been written.
type cancelOn struct {
	w      *bytes.Buffer
	text   string
	cancel func()
}

func (c *cancelOn) Write(p []byte) (int, error) {
	c.w.Write(p)
	if strings.Contains(c.w.String(), c.text) {
		c.cancel()
	}
	return len(p), nil
}

// TestRunParallelCommands runs an A/A session of a command: one benchmark,
// "Command", every pair stored.
func TestRunParallelCommands(t *testing.T) {
	needsDuet(t)
	db := openStore(t)
	cfg := DefaultParallelConfig
	cfg.CmdOld, cfg.AA = "true", true
	cfg.Runs, cfg.Iters, cfg.Warmup = 2, 2, 0
	res, err := RunParallel(context.Background(), cfg, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Pairs != 4 || res.Old.Label != "old" || res.New.Label != "old (again)" {
		t.Errorf("%d pairs, labels %q and %q; want 4, old and old (again)", res.Pairs, res.Old.Label, res.New.Label)
	}
	for _, m := range res.New.Measurements {
		if m.Key.Name != "Command" {
			t.Errorf("measurement of %v, want Command", m.Key)
		}
	}
}

// TestParallelConfigErrors: configurations that cannot run are refused
// before anything is stored.
func TestParallelConfigErrors(t *testing.T) {
	db := openStore(t)
	for _, tc := range []struct {
		name string
		edit func(*ParallelConfig)
	}{
		{"no version", func(c *ParallelConfig) {}},
		{"two versions", func(c *ParallelConfig) { c.OldRev, c.CmdOld, c.CmdNew = "HEAD", "true", "true" }},
		{"no new command", func(c *ParallelConfig) { c.CmdOld = "true" }},
		{"one run", func(c *ParallelConfig) { c.CmdOld, c.AA, c.Runs = "true", true, 1 }},
		{"one CPU", func(c *ParallelConfig) { c.CmdOld, c.AA, c.CPUs = "true", true, [2]int{1, 1} }},
		{"unknown revision", func(c *ParallelConfig) { c.OldRev, c.Dir = "no-such-rev", gitModule(t) }},
		{"missing new binary", func(c *ParallelConfig) {
			c.OldBin, c.NewBin = os.Args[0], filepath.Join(t.TempDir(), "nope.test")
		}},
	} {
		cfg := DefaultParallelConfig
		tc.edit(&cfg)
		if _, err := RunParallel(context.Background(), cfg, db, nil); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if runs, err := db.Runs(); err != nil || len(runs) != 0 {
		t.Errorf("runs stored: %v, %v; want none", runs, err)
	}
}

// TestCheckMetric: CPU times need the probe, commands record their wall
// time unless -metric-re finds another value, memory needs -benchmem.
func TestCheckMetric(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(*ParallelConfig)
		unit  string
		valid bool
	}{
		{"revisions", func(c *ParallelConfig) { c.OldRev = "HEAD" }, "cpu-sec/op", true},
		{"no probe", func(c *ParallelConfig) { c.OldRev, c.Probe = "HEAD", false }, "cpu-sec/op", false},
		{"binaries", func(c *ParallelConfig) { c.OldBin, c.NewBin = "a", "b" }, "cpu-sec/op", false},
		{"commands", func(c *ParallelConfig) { c.CmdOld, c.CmdNew = "a", "b" }, "cpu-sec/op", false},
		{"binaries, wall time", func(c *ParallelConfig) { c.OldBin, c.NewBin = "a", "b" }, "sec/op", true},
		{"commands, ns/op", func(c *ParallelConfig) { c.CmdOld, c.CmdNew = "a", "b" }, "ns/op", true},
		{"commands, another unit", func(c *ParallelConfig) { c.CmdOld, c.CmdNew = "a", "b" }, "foo", false},
		{"commands, a value found", func(c *ParallelConfig) {
			c.CmdOld, c.CmdNew, c.MetricRE = "a", "b", regexp.MustCompile(`(\d+)`)
		}, "foo", true},
		{"revisions, B/op", func(c *ParallelConfig) { c.OldRev = "HEAD" }, "B/op", false},
		{"revisions, allocs/op, -benchmem", func(c *ParallelConfig) { c.OldRev, c.Benchmem = "HEAD", true }, "allocs/op", true},
		// A unit of b.ReportMetric's: only the benchmarks know.
		{"revisions, custom", func(c *ParallelConfig) { c.OldRev = "HEAD" }, "foo", true},
	} {
		cfg := DefaultParallelConfig
		tc.edit(&cfg)
		if err := cfg.CheckMetric(tc.unit); (err == nil) != tc.valid {
			t.Errorf("%s: CheckMetric(%q) = %v", tc.name, tc.unit, err)
		}
	}
}

// TestParallelCPUNote: the note appears when wall-time intervals are much
// wider than CPU-time ones, and not otherwise.
func TestParallelCPUNote(t *testing.T) {
	row := func(name string, lo, hi float64) compare.Row {
		return compare.Row{Key: bench.Key{Name: name}, Ratio: stats.Interval{Center: 1, Lo: lo, Hi: hi, Level: 0.99}}
	}
	wall := &compare.Result{Rows: []compare.Row{row("A", 0.8, 1.2), row("B", 0.9, 1.1)}}
	for _, tc := range []struct {
		cpu  *compare.Result
		want bool
	}{
		// Wall-time intervals 20 and 10 times as wide.
		{&compare.Result{Rows: []compare.Row{row("A", 0.99, 1.01), row("B", 0.99, 1.01)}}, true},
		// 1.3 and 1.25 times as wide.
		{&compare.Result{Rows: []compare.Row{row("A", 0.85, 1.15), row("B", 0.92, 1.08)}}, false},
		{&compare.Result{}, false},
	} {
		note := ParallelCPUNote(wall, tc.cpu)
		if got := strings.Contains(note, "cpu-sec/op"); got != tc.want || got != (note != "") {
			t.Errorf("CPU rows %+v: note %q, want it %v", tc.cpu.Rows, note, tc.want)
		}
	}
}

// TestParallelNotes: the skew line and the pairing line, each only with
// data for it.
func TestParallelNotes(t *testing.T) {
	paired := stats.Interval{Center: 1, Lo: 0.99, Hi: 1.01}
	shuffled := stats.Interval{Center: 1, Lo: 0.9, Hi: 1.1}
	res := &compare.Result{Rows: []compare.Row{{Ratio: paired, Shuffled: shuffled}}}
	got := ParallelNotes(res, []float64{0.001, 0.002, 0.004})
	for _, want := range []string{"\nstart skew of paired iterations: median 0.200%, max 0.400%", "intervals are 10.0× as wide",
		"figures at GOMAXPROCS 1"} {
		if !strings.Contains(got, want) {
			t.Errorf("notes %q lack %q", got, want)
		}
	}
	cmd := &compare.Result{Rows: []compare.Row{{Key: bench.Key{Package: "command", Name: "Command"}}}}
	if got := ParallelNotes(cmd, nil); strings.Contains(got, "GOMAXPROCS") {
		t.Errorf("notes of a duet of commands name a GOMAXPROCS: %q", got)
	}
	if got := ParallelNotes(&compare.Result{}, nil); got != "\n" {
		t.Errorf("notes without data: %q, want an empty line", got)
	}
}

// TestParallelAddWhole: the two halves of paired iterations are stored
// together or not at all; a failure on the new side stores nothing on the
// old one.
func TestParallelAddWhole(t *testing.T) {
	db := openStore(t)
	old := &bench.Run{Label: "old"}
	id, err := db.CreateRun(old)
	if err != nil {
		t.Fatal(err)
	}
	old.ID = id
	s := &ParallelSession{db: db, Old: old, New: &bench.Run{ID: "nosuchrun"}}
	m := bench.Measurement{Key: bench.Key{Name: "X"}, N: 1, Values: []bench.Value{{Value: 1, Unit: "sec/op"}}}
	if err := s.add([]bench.Measurement{m, m}, []bench.Measurement{m, m}); err == nil {
		t.Fatal("storing into a run that does not exist: no error")
	}
	r, err := db.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Measurements) != 0 || len(s.Old.Measurements) != 0 || s.stored != 0 {
		t.Errorf("the old side holds %d measurements (%d in memory, %d counted), want none", len(r.Measurements), len(s.Old.Measurements), s.stored)
	}
}

// TestRunParallelUnknownMetric checks that a unit no benchmark reports
// ends the session before its first run, naming the units they report.
func TestRunParallelUnknownMetric(t *testing.T) {
	cache := needsDuet(t)
	dir := gitModule(t)
	db := openStore(t)
	cfg := testConfig(dir, cache)
	cfg.Metric = "frobs/op"
	var log bytes.Buffer
	res, err := RunParallel(context.Background(), cfg, db, &log)
	if err == nil || !strings.Contains(err.Error(), "frobs/op: no benchmark reports it") || !strings.Contains(err.Error(), "sec/op") {
		t.Fatalf("error %v, want one naming -metric frobs/op and the units reported", err)
	}
	if res != nil && res.Pairs != 0 {
		t.Errorf("%d pairs measured before the metric was refused", res.Pairs)
	}
}

// TestIterationMeasurementWhole checks that B/op and allocs/op are whole
// numbers, as go test prints them: 5 allocations of the runtime's in
// 1,000 operations are 0 allocs/op, not 0.005.
func TestIterationMeasurementWhole(t *testing.T) {
	it := duet.Iteration{N: 1000, Duration: time.Millisecond, MemBytes: 4685, MemAllocs: 5}
	m := iterationMeasurement(bench.Key{Name: "X"}, bench.Coord{}, it, true)
	for unit, want := range map[string]float64{"B/op": 4, "allocs/op": 0, "sec/op": 1e-6} {
		if got, ok := m.Get(unit); !ok || got != want {
			t.Errorf("%s = %v (%v), want %v", unit, got, ok, want)
		}
	}
}
