package duet

import (
	"context"
	"errors"
	"golang.org/x/sys/unix"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mbench/mbench/run"
)

// timingError reports a check of how the probe behaves in time (start skew,
// filler). Other processes competing for the CPUs can break such a check
// without a fault of the probe: while the load average exceeds the CPUs the
// process may use, the failure is logged rather than failed, so that the
// test is never flaky, and it fails on a machine with room to measure.
func timingError(t *testing.T, format string, args ...any) {
	t.Helper()
	if load, cpus := loadAverage(), runtime.NumCPU(); load > float64(cpus) {
		t.Logf("not failed, the machine is busy (load average %.1f, %d CPUs): "+format, append([]any{load, cpus}, args...)...)
		return
	}
	t.Errorf(format, args...)
}

// loadAverage is the 1-minute load average, or 0 where it cannot be read.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

// fixtureCache holds the fixture's binaries while the tests run.
var fixtureCache string

func TestMain(m *testing.M) {
	code := m.Run()
	if fixtureCache != "" {
		os.RemoveAll(fixtureCache)
	}
	os.Exit(code)
}

// fixtureBinaries builds testdata/fixture once with the probe and once
// without, into fixtureCache.
var fixtureBinaries = sync.OnceValues(func() ([2]run.Binary, error) {
	var bins [2]run.Binary
	dir, _ := filepath.Abs("testdata/fixture")
	cache, err := os.MkdirTemp("", "mbench-duet-test")
	if err != nil {
		return bins, err
	}
	fixtureCache = cache
	opts := run.BuildOptions{Dir: dir, CacheDir: cache}
	probed, err := run.BuildProbed(context.Background(), opts, []string{"."})
	if err != nil {
		return bins, err
	}
	plain, err := run.Build(context.Background(), opts, []string{"."})
	if err != nil {
		return bins, err
	}
	if len(probed) != 1 || len(plain) != 1 {
		return bins, errors.New("want one test binary")
	}
	return [2]run.Binary{probed[0], plain[0]}, nil
})

// fixture returns the fixture's test binary built with the probe, and the
// plain one. The duet tests need two CPUs.
func fixture(t *testing.T) (probed, plain run.Binary) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the fixture module")
	}
	if runtime.NumCPU() < 2 {
		t.Skip("a duet needs two CPUs")
	}
	bins, err := fixtureBinaries()
	if err != nil {
		t.Fatal(err)
	}
	return bins[0], bins[1]
}

// spec returns a duet of bin against itself on CPUs 0 and 1, with extra
// environment for the new side.
func spec(bin run.Binary, pattern string, n, count int, newEnv ...string) PairSpec {
	return PairSpec{
		Old: Side{Binary: bin, CPU: 0}, New: Side{Binary: bin, CPU: 1, Env: newEnv},
		Pattern: pattern, N: n, Count: count, Timeout: time.Minute,
	}
}

// collect runs s and returns the pairs delivered.
func collect(t *testing.T, s PairSpec) ([]Pair, PairStats, error) {
	t.Helper()
	var pairs []Pair
	st, err := RunPair(context.Background(), s, func(p Pair) bool {
		pairs = append(pairs, p)
		return true
	})
	var pe *PairError
	if errors.As(err, &pe) {
		t.Logf("%v\nold output:\n%s\nnew output:\n%s", err, pe.OldOutput, pe.NewOutput)
	}
	return pairs, st, err
}

// resultLine matches a result line and captures the name, N and the
// allocation columns.
var resultLine = regexp.MustCompile(`^(Benchmark\S+)\s+(\d+)\s+\S+ ns/op(?:.*?(\d+) B/op\s+(\d+) allocs/op)?`)

// TestProbeOff runs the binary built with the probe without MBENCH_PROBE:
// it prints the same benchmarks, N and allocation counts as the plain
// binary; the probe reads its variable only when it is set.
func TestProbeOff(t *testing.T) {
	probed, plain := fixture(t)
	lines := func(bin run.Binary, env ...string) []string {
		cmd := exec.Command(bin.Path, "-test.run=^$", "-test.bench=^Benchmark(Work|Alloc|Setup|Sub)$", "-test.benchtime=20x", "-test.count=2", "-test.benchmem")
		cmd.Dir, cmd.Env = bin.Dir, append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", bin.Path, err, out)
		}
		var got []string
		for _, line := range strings.Split(string(out), "\n") {
			m := resultLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			// Name and N, and allocs/op for BenchmarkAlloc: the
			// runtime allocates a few kilobytes now and then in the
			// background, which moves B/op (and allocs/op of
			// benchmarks that allocate nothing).
			fields := m[1:3]
			if strings.HasPrefix(m[1], "BenchmarkAlloc") {
				fields = append(fields, m[4])
			}
			got = append(got, strings.Join(fields, " "))
		}
		return got
	}
	want := lines(plain)
	if len(want) != 10 {
		t.Fatalf("plain binary: %d result lines, want 10: %q", len(want), want)
	}
	if got := lines(probed); !slices.Equal(got, want) {
		t.Errorf("with the probe off:\n%q\nwant (plain binary):\n%q", got, want)
	}
	// The probe is there: a malformed variable stops the probed binary,
	// not the plain one.
	cmd := exec.Command(probed.Path, "-test.run=^$")
	cmd.Env = append(os.Environ(), "MBENCH_PROBE=x")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "MBENCH_PROBE=x") {
		t.Errorf("probed binary with MBENCH_PROBE=x: %v\n%s", err, out)
	}
	cmd = exec.Command(plain.Path, "-test.run=^$")
	cmd.Env = append(os.Environ(), "MBENCH_PROBE=x")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("plain binary with MBENCH_PROBE=x: %v\n%s", err, out)
	}
	if !run.HasProbe(context.Background(), probed.Path) || run.HasProbe(context.Background(), plain.Path) {
		t.Errorf("HasProbe: %v for the probed binary, %v for the plain one", run.HasProbe(context.Background(), probed.Path), run.HasProbe(context.Background(), plain.Path))
	}
}

// TestRunPairPaired checks an A/A duet: every timed iteration of classic,
// b.Loop, allocating and sub-benchmarks is paired, with the same N and the
// same counts on both sides, the sides pinned, and the starts close.
func TestRunPairPaired(t *testing.T) {
	bin, _ := fixture(t)
	const n, count = 200, 3
	s := spec(bin, "^Benchmark(Work|Alloc|Setup|Sub|Parallel)$", n, count)
	s.Benchmem = true
	pairs, st, err := collect(t, s)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for i, p := range pairs {
		if p.Index != i {
			t.Errorf("pair %d has index %d", i, p.Index)
		}
		if p.Old.Key != p.New.Key || p.Old.N != n || p.New.N != n {
			t.Errorf("pair %d: old %v N=%d, new %v N=%d; want the same benchmark, N=%d", i, p.Old.Key, p.Old.N, p.New.Key, p.New.N, n)
		}
		if p.Old.Key.Package != "example.com/duetfixture" || p.Old.Key.Procs != 0 {
			t.Errorf("pair %d: key %+v, want the fixture's package and GOMAXPROCS 1", i, p.Old.Key)
		}
		for _, it := range []Iteration{p.Old, p.New} {
			if it.Duration <= 0 || !it.End.After(it.Start) {
				t.Errorf("pair %d: duration %v, start %v, end %v", i, it.Duration, it.Start, it.End)
			}
			switch it.Key.Name {
			case "Alloc":
				// The runtime may allocate a few bytes of its own
				// during the timed region (seen once: 601 of 38416
				// bytes on a loaded machine).
				if it.MemAllocs < 3*n || it.MemAllocs > 3*n+2 || it.MemBytes < 3*64*n || it.MemBytes > 3*64*n+64 {
					t.Errorf("Alloc: %d allocations of %d bytes, want %d of %d (and at most 2 more of the runtime's)", it.MemAllocs, it.MemBytes, 3*n, 3*64*n)
				}
			case "Work":
				if it.Extra["n"] != n || it.MemAllocs != 0 {
					t.Errorf("Work: metric n=%v, %d allocations; want %d and none", it.Extra["n"], it.MemAllocs, n)
				}
				// The process's CPU time is never much more than the
				// wall time (a pinned process cannot run two threads
				// at once), and not nothing; how much less depends on
				// what else the machine runs.
				if it.CPU <= 0 || it.CPU > it.Duration*11/10+2*time.Millisecond {
					t.Errorf("Work: CPU time %v for a timed run of %v", it.CPU, it.Duration)
				}
			}
		}
		if i%count == 0 {
			names = append(names, p.Old.Key.Name)
		}
	}
	if want := []string{"Work", "Alloc", "Setup", "Sub/a", "Sub/v=", "Parallel"}; !slices.Equal(names, want) {
		t.Errorf("benchmarks paired %q, want %q (%d times each)", names, want, count)
	}
	if st.Pairs != len(pairs) || st.Skew.Pairs != len(pairs) {
		t.Errorf("stats count %d pairs (skew %d), delivered %d", st.Pairs, st.Skew.Pairs, len(pairs))
	}
	if !slices.Equal(st.Old.CPUs, []int{0}) || !slices.Equal(st.New.CPUs, []int{1}) {
		t.Errorf("affinity reported old %v, new %v; want [0] and [1]", st.Old.CPUs, st.New.CPUs)
	}
	t.Logf("start skew over %d pairs: median %v (%.4f%% of the iteration), max %v (%.4f%%)",
		st.Skew.Pairs, st.Skew.Median, 100*st.Skew.MedianFraction, st.Skew.Max, 100*st.Skew.MaxFraction)
	// A shared 2-CPU machine may delay a side by a time slice; the
	// median stays far below that.
	if st.Skew.Median > 5*time.Millisecond {
		timingError(t, "median start skew %v, want below 5ms", st.Skew.Median)
	}
}

// TestRunPairOneOp pairs iterations of one operation, where run1's
// runN(1) is the timed run and parents of sub-benchmarks synchronise too.
func TestRunPairOneOp(t *testing.T) {
	bin, _ := fixture(t)
	pairs, _, err := collect(t, spec(bin, "^Benchmark(Work|Setup|Sub|Parallel)$", 1, 2, "DUET_SLOW=2"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range pairs {
		if p.Old.N != 1 || p.New.N != 1 || p.Old.Key != p.New.Key {
			t.Errorf("old %v N=%d, new %v N=%d; want the same benchmark, N=1", p.Old.Key, p.Old.N, p.New.Key, p.New.N)
		}
		names = append(names, p.Old.Key.Name)
	}
	if want := []string{"Work", "Work", "Setup", "Setup", "Sub/a", "Sub/a", "Sub/v=", "Sub/v=", "Parallel", "Parallel"}; !slices.Equal(names, want) {
		t.Errorf("paired %q, want %q", names, want)
	}
}

// TestRunPairMixedLoop pairs a classic b.N loop on one side with its b.Loop
// rewrite on the other; the b.Loop side, four times as fast, fills with
// b.Loop and still reports its own N.
func TestRunPairMixedLoop(t *testing.T) {
	bin, _ := fixture(t)
	s := spec(bin, "^BenchmarkWork$", 300, 4, "DUET_LOOP=1")
	s.Old.Env = []string{"DUET_SLOW=4"}
	pairs, _, err := collect(t, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 4 {
		t.Fatalf("%d pairs, want 4", len(pairs))
	}
	filled := 0
	for _, p := range pairs {
		if p.Old.N != 300 || p.New.N != 300 || p.New.Extra["n"] != 300 {
			t.Errorf("N old %d, new %d (metric %v); want 300", p.Old.N, p.New.N, p.New.Extra["n"])
		}
		if p.New.Fill.Kind == "body" && p.New.Fill.Ops > 0 {
			filled++
		}
	}
	if filled == 0 {
		t.Errorf("the b.Loop side never filled with its body")
	}
}

// TestRunPairFiller makes the new side four times as slow: the old side reruns
// its benchmark until the new one finishes, and its results stay those of
// the timed run.
func TestRunPairFiller(t *testing.T) {
	bin, _ := fixture(t)
	const n = 500 // 5ms on the old side, 20ms on the new
	s := spec(bin, "^BenchmarkWork$", n, 6, "DUET_SLOW=4")
	s.Old.CPU, s.New.CPU = 1, 0
	pairs, st, err := collect(t, s)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(st.Old.CPUs, []int{1}) || !slices.Equal(st.New.CPUs, []int{0}) {
		t.Errorf("affinity reported old %v, new %v; want [1] and [0]", st.Old.CPUs, st.New.CPUs)
	}
	// On a shared machine another process may hold up either side now
	// and then, so the properties are asked of most pairs.
	var overshoot []time.Duration
	var busy []float64
	early := 0 // pairs whose filler ended before the new side's run
	for i, p := range pairs {
		if p.Old.Extra["n"] != n || p.Old.N != n || p.Old.MemAllocs != 0 {
			t.Errorf("pair %d: old side reports N=%d, metric n=%v, %d allocations: the filler leaked into the result", i, p.Old.N, p.Old.Extra["n"], p.Old.MemAllocs)
		}
		f := p.Old.Fill
		if f.Kind != "body" {
			continue
		}
		// The filler ran until the new side's run ended...
		end := p.Old.End.Add(f.Time)
		if gap := p.New.End.Sub(end); gap > 500*time.Microsecond {
			t.Logf("pair %d: filler ended %v before the new side", i, gap)
			early++
		}
		overshoot = append(overshoot, end.Sub(p.New.End))
		// ... running the benchmark, not sleeping: its operations
		// account for the time.
		perOp := p.Old.Duration / time.Duration(p.Old.N)
		busy = append(busy, float64(time.Duration(f.Ops)*perOp)/float64(f.Time))
	}
	if len(busy) < len(pairs)/2+1 {
		t.Fatalf("the old side ran its body as filler in %d of %d pairs", len(busy), len(pairs))
	}
	if early > len(busy)/2 {
		timingError(t, "the filler ended before the new side's run in %d of %d pairs", early, len(busy))
	}
	slices.Sort(overshoot)
	slices.Sort(busy)
	t.Logf("old side: CPU time %v of %v wall time (%.0f%%); filler: median %.0f%% of its time in operations, overshoot median %v, max %v",
		st.Old.CPUTime, st.Old.WallTime, 100*st.Old.CPUTime.Seconds()/st.Old.WallTime.Seconds(),
		100*busy[len(busy)/2], overshoot[len(overshoot)/2], overshoot[len(overshoot)-1])
	if busy[len(busy)/2] < 0.3 {
		timingError(t, "filler spent a median %.0f%% of its time in operations, want most", 100*busy[len(busy)/2])
	}

	// Without the filler the fast side sleeps.
	s.NoFiller = true
	pairs, _, err = collect(t, s)
	if err != nil {
		t.Fatal(err)
	}
	idle := 0
	for i, p := range pairs {
		switch p.Old.Fill.Kind {
		case "idle":
			idle++
		case "none": // the old side was held up longer than the new
		default:
			t.Errorf("pair %d without filler: old side %+v, want idle", i, p.Old.Fill)
		}
	}
	if idle == 0 {
		t.Errorf("without filler the old side never slept in %d pairs", len(pairs))
	}
}

// TestRunPairFillerSpins checks the benchmarks a filler cannot rerun
// promptly: one long operation, and setup outside the timer.
func TestRunPairFillerSpins(t *testing.T) {
	bin, _ := fixture(t)
	pairs, _, err := collect(t, spec(bin, "^Benchmark(Long|Setup)$", 2, 2, "DUET_SLOW=2"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 4 {
		t.Fatalf("%d pairs, want 4", len(pairs))
	}
	for _, p := range pairs {
		if p.Old.Fill.Kind != "spin" && p.Old.Fill.Kind != "none" {
			t.Errorf("%s: old side filled %+v, want spinning", p.Old.Key.Name, p.Old.Fill)
		}
	}
}

// TestRunPairErrors checks that the ways a duet can go wrong end in an
// error that says what happened, never in a hang.
func TestRunPairErrors(t *testing.T) {
	bin, plain := fixture(t)
	for _, tc := range []struct {
		name      string
		spec      PairSpec
		side, msg string
		output    string // in the side's output
	}{
		{"mismatch", spec(bin, "^BenchmarkSub$", 10, 1, "DUET_VARIANT=x"), "",
			`old reached BenchmarkSub/v= \(N=10, GOMAXPROCS 1\) where new reached BenchmarkSub/v=x`, ""},
		{"fail", spec(bin, "^Benchmark(Trouble|Work)$", 10, 1, "DUET_TROUBLE=fail"), "new", "BenchmarkTrouble failed", "asked to fail"},
		{"skip", spec(bin, "^Benchmark(Trouble|Long)$", 1, 1, "DUET_TROUBLE=skip"), "new", "BenchmarkTrouble was skipped on new only", ""},
		{"panic", spec(bin, "^BenchmarkTrouble$", 10, 1, "DUET_TROUBLE=panic"), "new", "exit status 2", "asked to panic"},
		{"no probe", func() PairSpec { s := spec(bin, "^BenchmarkWork$", 10, 1); s.New.Binary = plain; return s }(), "new", "did not report through the probe", ""},
		{"no match", spec(bin, "^BenchmarkNone$", 10, 1), "", "no paired iteration", ""},
		{"timeout", func() PairSpec {
			s := spec(bin, "^BenchmarkTrouble$", 10, 1, "DUET_TROUBLE=hang")
			s.Timeout = time.Second
			return s
		}(), "", "timed out after 1s", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, _, err := collect(t, tc.spec)
			var pe *PairError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v, want a *PairError", err)
			}
			if pe.Side != tc.side || !regexp.MustCompile(tc.msg).MatchString(pe.Err.Error()) {
				t.Errorf("side %q, error %q; want side %q, %q", pe.Side, pe.Err, tc.side, tc.msg)
			}
			out := pe.NewOutput
			if tc.side == "old" {
				out = pe.OldOutput
			}
			if !strings.Contains(out, tc.output) {
				t.Errorf("output of %s has no %q:\n%s", tc.side, tc.output, out)
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %v to fail", d)
			}
		})
	}
}

// TestRunPairStop checks both ways of ending a run early: the caller's
// onPair returning false, and a cancelled context. Either way the pairs
// delivered are exactly those counted, and both processes are gone.
func TestRunPairStop(t *testing.T) {
	bin, _ := fixture(t)
	s := spec(bin, "^BenchmarkWork$", 300, 500)
	var got int
	st, err := RunPair(context.Background(), s, func(p Pair) bool {
		got++
		return got < 3
	})
	if err != nil || got != 3 || st.Pairs != 3 {
		t.Errorf("stopped by onPair: %v, %d delivered, %d counted; want nil, 3, 3", err, got, st.Pairs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got = 0
	start := time.Now()
	st, err = RunPair(ctx, s, func(p Pair) bool {
		got++
		if got == 2 {
			cancel()
		}
		return true
	})
	if !errors.Is(err, context.Canceled) || got != 2 || st.Pairs != 2 {
		t.Errorf("cancelled: %v, %d delivered, %d counted; want context.Canceled, 2, 2", err, got, st.Pairs)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("cancelled run took %v", d)
	}
	for _, pid := range []int{st.Old.PID, st.New.PID} {
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
			t.Errorf("process %d still exists", pid)
		}
	}
}

func TestRunPairSpecErrors(t *testing.T) {
	bin := run.Binary{Path: "/nonexistent"}
	for _, s := range []PairSpec{
		{Old: Side{Binary: bin, CPU: 0}, New: Side{Binary: bin, CPU: 0}, Pattern: ".", N: 1, Count: 1},
		{Old: Side{Binary: bin, CPU: 0}, New: Side{Binary: bin, CPU: 1}, Pattern: ".", N: 0, Count: 1},
		{Old: Side{Binary: bin, CPU: 0}, New: Side{Binary: bin, CPU: 1}, Pattern: "", N: 1, Count: 1},
	} {
		if _, err := RunPair(context.Background(), s, func(Pair) bool { return true }); err == nil {
			t.Errorf("RunPair(%+v) succeeded", s)
		}
	}
}

func TestSkewOf(t *testing.T) {
	at := func(ms float64) time.Time { return time.Unix(0, 0).Add(time.Duration(ms * float64(time.Millisecond))) }
	mk := func(oldStart, newStart float64, dur time.Duration) Pair {
		return Pair{Old: Iteration{Start: at(oldStart), Duration: dur}, New: Iteration{Start: at(newStart), Duration: dur}}
	}
	// Skews 1, 3, 2 and 10 ms; iterations of 100 ms except the last of
	// 50 ms: fractions 0.01, 0.03, 0.02, 0.2.
	s := SkewOf([]Pair{
		mk(0, 1, 100*time.Millisecond),
		mk(3, 0, 100*time.Millisecond),
		mk(5, 7, 100*time.Millisecond),
		mk(10, 0, 50*time.Millisecond),
	})
	near := func(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }
	if s.Pairs != 4 || s.Median != 2500*time.Microsecond || s.Max != 10*time.Millisecond ||
		!near(s.MedianFraction, 0.025) || !near(s.MaxFraction, 0.2) {
		t.Errorf("SkewOf = %+v; want median 2.5ms (0.025), max 10ms (0.2)", s)
	}
	if z := SkewOf(nil); z != (Skew{}) {
		t.Errorf("SkewOf(nil) = %+v", z)
	}
}

// TestRunPairTurns checks the turns mode: the sides' timed runs never
// overlap, the side that goes first alternates, the waiting side reports
// "turn", and neither process is pinned.
func TestRunPairTurns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the fixture module")
	}
	bins, err := fixtureBinaries()
	if err != nil {
		t.Fatal(err)
	}
	const n, count = 200, 4
	s := spec(bins[0], "^Benchmark(Work|Alloc|Sub)$", n, count)
	s.Turns, s.Benchmem = true, true
	s.Old.CPU, s.New.CPU = 0, 0 // not used in turns
	var allowed unix.CPUSet
	if err := unix.SchedGetaffinity(0, &allowed); err != nil {
		t.Fatal(err)
	}
	pairs, st, err := collect(t, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 4*count {
		t.Fatalf("%d pairs, want %d", len(pairs), 4*count)
	}
	for i, p := range pairs {
		first, second := p.Old, p.New
		if second.Start.Before(first.Start) {
			first, second = second, first
		}
		if first.End.After(second.Start) {
			t.Errorf("pair %d: timed runs overlap: first %v–%v, second starts %v", i, first.Start, first.End, second.Start)
		}
		// The first side sleeps until the second's run is over, unless
		// that is over before it looks ("none": it was descheduled);
		// the second never waits after its run.
		if first.Fill.Kind != "turn" && first.Fill.Kind != "none" || second.Fill.Kind != "none" {
			t.Errorf("pair %d: fill %q then %q, want turn (or none) then none", i, first.Fill.Kind, second.Fill.Kind)
		}
		// Synchronised runs count from 1 on both sides: old goes first
		// at odd ones. The pairs of a benchmark are its runs in order.
		oldFirst := p.Old.Start.Before(p.New.Start)
		if i > 0 {
			prev := pairs[i-1]
			if prevOldFirst := prev.Old.Start.Before(prev.New.Start); prevOldFirst == oldFirst {
				t.Errorf("pairs %d and %d: the same side went first", i-1, i)
			}
		}
		if p.Old.N != n || p.New.N != n {
			t.Errorf("pair %d: N %d and %d, want %d", i, p.Old.N, p.New.N, n)
		}
		// The probe says where each run started and stopped, on a CPU
		// the process may run on, and how many collections ran in it.
		for _, it := range [2]Iteration{p.Old, p.New} {
			for _, c := range []int{it.StartCPU, it.EndCPU} {
				if c < 0 || !allowed.IsSet(c) {
					t.Errorf("pair %d: ran on CPU %d, outside the process's %d CPUs", i, c, allowed.Count())
				}
			}
			if it.GCs < 0 {
				t.Errorf("pair %d: %d collections, want the probe's count", i, it.GCs)
			}
		}
	}
	if !pairs[0].Old.Start.Before(pairs[0].New.Start) {
		t.Errorf("the first pair started with new; old goes first at the first run")
	}
	if len(st.Old.CPUs) != allowed.Count() || len(st.New.CPUs) != allowed.Count() {
		t.Errorf("affinity old %v, new %v; want every CPU of this process (%d)", st.Old.CPUs, st.New.CPUs, allowed.Count())
	}
}
