package run

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stop"
)

// fixtureBinary builds the fixture module's test binary once per test run.
var fixtureBinary = sync.OnceValues(func() (Binary, error) {
	dir, _ := filepath.Abs("testdata/fixture")
	cache, err := tempDir()
	if err != nil {
		return Binary{}, err
	}
	bins, err := Build(context.Background(), BuildOptions{Dir: dir, CacheDir: cache}, []string{"./..."})
	if err != nil {
		return Binary{}, err
	}
	if len(bins) != 1 {
		return Binary{}, errors.New("want one test binary")
	}
	return bins[0], nil
})

func fixture(t *testing.T) *Binary {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the fixture module")
	}
	bin, err := fixtureBinary()
	if err != nil {
		t.Fatal(err)
	}
	return &bin
}

func TestAnchored(t *testing.T) {
	for name, want := range map[string]string{
		"Sum":          "^BenchmarkSum$",
		"Join/n=10":    "^BenchmarkJoin$/^n=10$",
		"A/b.c/x+y(1)": `^BenchmarkA$/^b\.c$/^x\+y\(1\)$`,
	} {
		if got := Anchored(name); got != want {
			t.Errorf("Anchored(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestParseCPUList(t *testing.T) {
	got, err := ParseCPUList("0-2,5")
	if err != nil || !slices.Equal(got, []int{0, 1, 2, 5}) {
		t.Errorf("ParseCPUList(0-2,5) = %v, %v", got, err)
	}
	for _, bad := range []string{"", "a", "3-1", "-1", "1-x", "0-99999999", "1024"} {
		if _, err := ParseCPUList(bad); err == nil {
			t.Errorf("ParseCPUList(%q) succeeded", bad)
		}
	}
}

func TestDiscover(t *testing.T) {
	bin := fixture(t)
	ctx := context.Background()
	targets, err := Discover(ctx, bin, ".", nil, nil, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tg := range targets {
		names = append(names, tg.Key.Name)
		if tg.Key.Package != "example.com/fixture" {
			t.Errorf("%s: package %q", tg.Key.Name, tg.Key.Package)
		}
	}
	slices.Sort(names)
	want := []string{"CPUs", "Cold/N", "Cold/loop", "Join/n=10", "Join/n=100", "Loop", "Sum", "Trouble"}
	if !slices.Equal(names, want) {
		t.Errorf("discovered %v, want %v", names, want)
	}
	// -bench selects per level, as go test does; -cpu multiplies targets.
	targets, err = Discover(ctx, bin, "Join/=100", []int{1, 2}, nil, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(targets) != 2 || targets[0].Key.Name != "Join/n=100" || targets[0].Key.Procs != 0 || targets[1].Key.Procs != 2 {
		t.Errorf("Join/=100 at -cpu 1,2: %+v", targets)
	}
	if _, err := Discover(ctx, bin, "a(", nil, nil, time.Minute); err == nil {
		t.Error("bad regexp accepted")
	}
}

func TestCalibrate(t *testing.T) {
	bin := fixture(t)
	// The key's -N suffix is the GOMAXPROCS the fork runs at, which the
	// environment (GOMAXPROCS, CPU affinity) decides: discover it.
	targets, err := Discover(context.Background(), bin, "^BenchmarkSum$", nil, nil, time.Minute)
	if err != nil || len(targets) != 1 {
		t.Fatalf("Discover: %d targets, %v", len(targets), err)
	}
	n, m, err := Calibrate(context.Background(), &targets[0], 20*time.Millisecond, false, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	perOp, _ := m.Get("sec/op")
	if got := float64(n) * perOp; got < 0.010 || got > 0.040 {
		t.Errorf("calibrated N=%d at %v/op gives %.1fms per iteration, want about 20ms", n, perOp, got*1e3)
	}
}

// collect is a Sink that keeps what it gets.
type collect struct{ ms []bench.Measurement }

func (c *collect) Append(m *bench.Measurement) error {
	c.ms = append(c.ms, *m)
	return nil
}

func fastOptions() Options {
	o := DefaultOptions
	o.Config = stop.Config{WarmupMin: 1, WarmupMax: 2, Measure: 3, ForksMin: 2, ForksMax: 2, IterTime: 5 * time.Millisecond}
	o.Criterion = "static"
	o.ForkTimeout = time.Minute
	return o
}

// checkProgress checks the events of a suite of benchmarks that ran forks
// forks: one before each fork, counting the forks done, with the
// benchmarks finished never going down and all but the last finished
// before the last fork; exact says the planned forks are known.
func checkProgress(t *testing.T, events []Progress, benchmarks, forks int, exact bool) {
	t.Helper()
	if len(events) != forks {
		t.Fatalf("%d progress events, want one per fork, %d", len(events), forks)
	}
	for i, p := range events {
		if p.Done != i || p.Benchmarks != benchmarks || p.Exact != exact || p.Planned < p.Done+1 || p.Planned > forks ||
			exact && p.Planned != forks || i > 0 && p.Finished < events[i-1].Finished || p.Finished >= benchmarks {
			t.Errorf("event %d: %+v", i, p)
		}
		if p.ETA < 0 || i == 0 && p.ETA != 0 {
			t.Errorf("event %d: ETA %v", i, p.ETA)
		}
	}
	if last := events[len(events)-1]; last.Finished != benchmarks-1 {
		t.Errorf("before the last fork %d of %d benchmarks are finished, want %d", last.Finished, benchmarks, benchmarks-1)
	}
}

func TestProgressString(t *testing.T) {
	target := &Target{Key: bench.Key{Package: "example.com/m", Name: "Sort", Procs: 2}}
	for _, c := range []struct {
		p    Progress
		want string
	}{
		{Progress{Done: 0, Planned: 6, Benchmarks: 3, Target: target},
			"0 of 3 benchmarks done; fork 1 of at least 6: Sort-2"},
		{Progress{Done: 12, Planned: 20, Finished: 2, Benchmarks: 7, Target: target, ETA: 150 * time.Second},
			"2 of 7 benchmarks done; fork 13 of at least 20: Sort-2; at least 3m left"},
		{Progress{Done: 4, Planned: 8, Exact: true, Finished: 1, Benchmarks: 2, Target: &Target{Key: target.Key, Version: "new"}, ETA: 20 * time.Second},
			"1 of 2 benchmarks done; fork 5 of 8: Sort-2 (new); under a minute left"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("String() = %q, want %q", got, c.want)
		}
	}
}

func TestTimeLeft(t *testing.T) {
	for _, c := range []struct {
		d     time.Duration
		lower bool
		want  string
	}{
		{0, false, "under a minute left"},
		{40 * time.Second, false, "under a minute left"},
		{40 * time.Second, true, "at least a few seconds left"},
		{time.Minute, false, "about 1m left"},
		{3*time.Minute + 20*time.Second, false, "about 3m left"},
		{3*time.Minute + 20*time.Second, true, "at least 3m left"},
		{59*time.Minute + 50*time.Second, false, "about 1h00m left"},
		{time.Hour + 17*time.Minute, true, "at least 1h20m left"},
	} {
		if got := TimeLeft(c.d, c.lower); got != c.want {
			t.Errorf("TimeLeft(%v, %v) = %q, want %q", c.d, c.lower, got, c.want)
		}
	}
}

func TestSuite(t *testing.T) {
	bin := fixture(t)
	ctx := context.Background()
	targets, err := Discover(ctx, bin, "Sum|Loop|Join/n=10$", nil, nil, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	sink := &collect{}
	o := fastOptions()
	o.Sink = sink
	o.Benchmem = true
	var events []Progress
	o.Progress = func(p Progress) { events = append(events, p) }
	results, err := Suite(ctx, targets, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 3 {
		t.Fatalf("%d results, want 3", len(results))
	}
	checkProgress(t, events, 3, 6, false)
	total := 0
	for _, r := range results {
		if r.Failed() || r.Report.Forks != 2 || !r.Report.Done {
			t.Errorf("%s: failed=%v forks=%d done=%v", r.Target.Key, r.Failed(), r.Report.Forks, r.Report.Done)
		}
		// static: wi_max warm-up and mi measurement iterations per fork.
		var warm, meas int
		forks := map[int]bool{}
		for _, m := range r.Measurements {
			forks[m.Coord.Fork] = true
			if m.N != r.N {
				t.Errorf("%s: iteration with N=%d, calibrated %d", r.Target.Key, m.N, r.N)
			}
			if _, ok := m.Get("B/op"); !ok {
				t.Errorf("%s: -benchmem gave no B/op", r.Target.Key)
			}
			if m.Coord.Phase == bench.Warmup {
				warm++
			} else {
				meas++
			}
		}
		if warm != 4 || meas != 6 || len(forks) != 2 {
			t.Errorf("%s: %d warm-up and %d measurement iterations in %d forks, want 4 and 6 in 2", r.Target.Key, warm, meas, len(forks))
		}
		total += len(r.Measurements)
	}
	if len(sink.ms) != total {
		t.Errorf("sink got %d measurements, results hold %d", len(sink.ms), total)
	}
	// RMIT: every suite run visits each target once.
	suites := map[int]int{}
	for _, m := range sink.ms {
		if m.Coord.Iteration == 0 {
			suites[m.Coord.SuiteRun]++
		}
	}
	if suites[1] != 3 || suites[2] != 3 {
		t.Errorf("forks per suite run: %v, want 3 in runs 1 and 2", suites)
	}
}

func TestSuiteFailures(t *testing.T) {
	bin := fixture(t)
	ctx := context.Background()
	targets, err := Discover(ctx, bin, "Trouble|Sum", nil, nil, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for _, trouble := range []string{"fail", "panic", "hang"} {
		t.Run(trouble, func(t *testing.T) {
			t.Setenv("FIXTURE_TROUBLE", trouble)
			o := fastOptions()
			o.ForkTimeout = 3 * time.Second
			results, err := Suite(ctx, targets, o)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range results {
				switch r.Target.Key.Name {
				case "Trouble":
					if !r.Failed() {
						t.Fatalf("Trouble did not fail")
					}
					fe := r.Failures[0]
					if trouble == "hang" && !strings.Contains(fe.Err.Error(), "timed out") {
						t.Errorf("hang: error %v, want a timeout", fe.Err)
					}
					if trouble != "hang" && !strings.Contains(fe.Output, "asked to "+trouble) {
						t.Errorf("%s: output does not show the failure:\n%s", trouble, fe.Output)
					}
				case "Sum":
					if r.Failed() || r.Report.Forks != 2 {
						t.Errorf("Sum did not run on after Trouble failed: %+v", r.Failures)
					}
				}
			}
		})
	}
}

func TestSuiteInterrupt(t *testing.T) {
	bin := fixture(t)
	targets, err := Discover(context.Background(), bin, "Sum|Loop", nil, nil, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	sink := &collect{}
	o := fastOptions()
	o.Config.ForksMin, o.Config.ForksMax = 50, 50
	o.Sink = &cancelAfter{collect: sink, n: 12, cancel: cancel}
	results, err := Suite(ctx, targets, o)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	kept := 0
	for _, r := range results {
		kept += len(r.Measurements)
	}
	if kept < 12 || kept != len(sink.ms) {
		t.Errorf("kept %d measurements, sink has %d; want the same, at least 12", kept, len(sink.ms))
	}
}

type cancelAfter struct {
	*collect
	n      int
	cancel func()
}

func (c *cancelAfter) Append(m *bench.Measurement) error {
	c.collect.Append(m)
	if len(c.ms) == c.n {
		c.cancel()
	}
	return nil
}

// TestPinned pins forks to one CPU: the process sees one CPU (the fixture's
// CPUs benchmark reports runtime.NumCPU, which reads the affinity mask), and
// discovery, calibration and forks agree on the key it then prints.
func TestPinned(t *testing.T) {
	bin := fixture(t)
	ctx := context.Background()
	targets, err := Discover(ctx, bin, "CPUs", nil, []int{0}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(targets) != 1 || targets[0].Key.Procs != 0 {
		t.Fatalf("pinned to one CPU, discovered %+v; want CPUs without a -N suffix (GOMAXPROCS 1)", targets)
	}
	results, err := Suite(ctx, targets, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	r := results[0]
	if r.Failed() || len(r.Measurements) == 0 {
		t.Fatalf("pinned run: %d measurements, failures %v", len(r.Measurements), r.Failures)
	}
	for _, m := range r.Measurements {
		if v, _ := m.Get("cpus"); v != 1 {
			t.Fatalf("a pinned fork saw %v CPUs, want 1", v)
		}
	}
}

func TestBuildCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the fixture")
	}
	dir, _ := filepath.Abs("testdata/fixture")
	cache := t.TempDir()
	ctx := context.Background()
	a, err := Build(ctx, BuildOptions{Dir: dir, CacheDir: cache}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	b, err := Build(ctx, BuildOptions{Dir: dir, CacheDir: cache, Log: &log}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a[0].Path != b[0].Path || !strings.Contains(log.String(), "cached") {
		t.Errorf("second build did not reuse the cache: %s vs %s, log %q", a[0].Path, b[0].Path, log.String())
	}
	c, err := Build(ctx, BuildOptions{Dir: dir, CacheDir: cache, Tags: "other"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c[0].Path == a[0].Path {
		t.Error("different build tags share a cache entry")
	}
}

// TestSuiteVersions runs one benchmark as two versions, as mbench run does
// with two labelled test binaries: every measurement, in the results and at
// the sink, carries its target's version, under suite runs and fork numbers
// that the versions share.
func TestSuiteVersions(t *testing.T) {
	bin := fixture(t)
	ctx := context.Background()
	found, err := Discover(ctx, bin, "Sum", nil, nil, time.Minute)
	if err != nil || len(found) != 1 {
		t.Fatalf("Discover: %d targets, %v", len(found), err)
	}
	var targets []Target
	for _, v := range []string{"old", "new"} {
		tg := found[0]
		tg.Version = v
		targets = append(targets, tg)
	}
	o := fastOptions()
	o.Config.Measure = 1
	static := StaticOptions{Options: o, Warmup: 0, MinPerSuiteRun: 1,
		Levels: func(*Target) (bench.Levels, bool) { return bench.Levels{SuiteRuns: 1, Forks: 1, Iterations: 1}, true }}
	for _, suite := range []struct {
		name string
		run  func(*collect) ([]*Result, error)
	}{
		{"Suite", func(c *collect) ([]*Result, error) {
			o := o
			o.Sink = c
			return Suite(ctx, targets, o)
		}},
		{"StaticSuite", func(c *collect) ([]*Result, error) {
			s := static
			s.Sink = c
			return StaticSuite(ctx, targets, s)
		}},
	} {
		t.Run(suite.name, func(t *testing.T) {
			sink := &collect{}
			results, err := suite.run(sink)
			if err != nil {
				t.Fatal(err)
			}
			perVersion := map[string]int{}
			for _, r := range results {
				if len(r.Measurements) == 0 {
					t.Errorf("%s (%s): no measurements", r.Target.Key, r.Target.Version)
				}
				for _, m := range r.Measurements {
					if m.Coord.Version != r.Target.Version {
						t.Errorf("a measurement of version %q has version %q", r.Target.Version, m.Coord.Version)
					}
				}
			}
			for _, m := range sink.ms {
				perVersion[m.Coord.Version]++
			}
			if len(perVersion) != 2 || perVersion["old"] != perVersion["new"] {
				t.Errorf("measurements per version at the sink: %v, want as many of old as of new", perVersion)
			}
		})
	}
}

// TestDiscoverLongLine discovers the benchmarks of a binary one of which
// logs a 200 KB line: none may be lost after it.
func TestDiscoverLongLine(t *testing.T) {
	bin := fixture(t)
	t.Setenv("FIXTURE_TROUBLE", "longlog")
	targets, err := Discover(context.Background(), bin, ".", nil, nil, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tg := range targets {
		names = append(names, tg.Key.Name)
	}
	slices.Sort(names)
	if want := []string{"CPUs", "Cold/N", "Cold/loop", "Join/n=10", "Join/n=100", "Loop", "Sum", "Trouble"}; !slices.Equal(names, want) {
		t.Errorf("discovered %v, want %v", names, want)
	}
}

// TestForkGrandchild runs a fork whose benchmark leaves a process running:
// it must not outlive the fork.
func TestForkGrandchild(t *testing.T) {
	bin := fixture(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	t.Setenv("FIXTURE_TROUBLE", "grandchild")
	t.Setenv("FIXTURE_PIDFILE", pidFile)
	spec := ForkSpec{Binary: *bin, Pattern: Anchored("Trouble"), BenchTime: "1x", Count: 1, Timeout: time.Minute}
	if err := RunFork(context.Background(), spec, func(*bench.Measurement) bool { return true }); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(data))
	defer syscall.Kill(pid, syscall.SIGKILL)
	// The kernel ends a killed process soon, but not at once: wait for it.
	for deadline := time.Now().Add(time.Minute); running(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d, started by the benchmark, outlived its fork", pid)
		}
	}
}

// running reports whether process pid exists and is not a zombie.
func running(pid int) bool {
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(status), "\n") {
		if state, ok := strings.CutPrefix(line, "State:"); ok {
			return !strings.Contains(state, "zombie") && !strings.Contains(state, "dead")
		}
	}
	return true
}
