package run

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mbench/mbench/bench"
)

// cumulative is a trace of chunks that took times, back to back from 0.
func cumulative(cpu int, times []time.Duration) CPUTrace {
	t := CPUTrace{CPU: cpu}
	var s time.Duration
	for _, d := range times {
		t.Chunks = append(t.Chunks, Chunk{Start: s, Time: d})
		s += d
	}
	return t
}

// byTime is a trace of chunks back to back from 0 until 1 s: 1.5 ms each
// when slow says the moment it starts is slow, 1 ms otherwise.
func byTime(cpu int, slow func(start time.Duration) bool) CPUTrace {
	var times []time.Duration
	for s := time.Duration(0); s < time.Second; {
		d := time.Millisecond
		if slow(s) {
			d = 1500 * time.Microsecond
		}
		times = append(times, d)
		s += d
	}
	return cumulative(cpu, times)
}

// phased is slow from 300 to 600 ms and from 800 to 875 ms.
func phased(s time.Duration) bool {
	ms := time.Millisecond
	return s >= 300*ms && s < 600*ms || s >= 800*ms && s < 875*ms
}

// quietTrace is 1000 chunks of 1 ms, but for one of 1.2 ms, the 501st.
func quietTrace(cpu int) CPUTrace {
	times := make([]time.Duration, 1000)
	for i := range times {
		times[i] = time.Millisecond
	}
	times[500] = 1200 * time.Microsecond
	return cumulative(cpu, times)
}

func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol
}

// TestAnalyzeNoise checks AnalyzeNoise on synthetic traces: cpu0 slow by
// ×1.5 in two phases, of 300 and 75 ms; cpu1 quiet but for one chunk;
// cpu2 slow when cpu0 is; cpu3 slow when cpu0 is not. The reference
// values of the correlations were computed by Python 3.12's
// statistics.correlation over the same chunk times (lag 1) and the same
// 10 ms bins, and hold to 1e-9.
func TestAnalyzeNoise(t *testing.T) {
	traces := []CPUTrace{
		byTime(0, phased),
		quietTrace(1),
		byTime(2, phased),
		byTime(3, func(s time.Duration) bool { return !phased(s) }),
	}
	n := AnalyzeNoise(traces)
	ms := time.Millisecond
	c0 := n.CPUs[0]
	want0 := CPUNoise{
		CPU: 0, Chunks: 875, Baseline: ms, Median: ms,
		SlowFraction: 250.0 / 875, SlowFactor: 1.5,
		Phases: 2, MedianPhase: 187500 * time.Microsecond, LongestPhase: 300 * ms,
		Lag1: c0.Lag1,
	}
	if !near(c0.SlowFraction, want0.SlowFraction, 1e-12) || !near(c0.SlowFactor, 1.5, 1e-12) {
		t.Errorf("cpu0: slow %v by %v, want %v by 1.5", c0.SlowFraction, c0.SlowFactor, want0.SlowFraction)
	}
	c0.SlowFraction, c0.SlowFactor = want0.SlowFraction, want0.SlowFactor
	if c0 != want0 {
		t.Errorf("cpu0:\n got %+v\nwant %+v", c0, want0)
	}
	if !near(c0.Lag1, 0.9887948717948718, 1e-9) {
		t.Errorf("cpu0: lag-1 autocorrelation %v, want 0.98879", c0.Lag1)
	}

	c1 := n.CPUs[1]
	want1 := CPUNoise{
		CPU: 1, Chunks: 1000, Baseline: ms, Median: ms,
		SlowFraction: 0.001, SlowFactor: 1.2,
		Phases: 1, MedianPhase: 1200 * time.Microsecond, LongestPhase: 1200 * time.Microsecond,
		Lag1: c1.Lag1,
	}
	if !near(c1.SlowFraction, 0.001, 1e-12) || !near(c1.SlowFactor, 1.2, 1e-12) {
		t.Errorf("cpu1: slow %v by %v, want 0.001 by 1.2", c1.SlowFraction, c1.SlowFactor)
	}
	c1.SlowFraction, c1.SlowFactor = want1.SlowFraction, want1.SlowFactor
	if c1 != want1 {
		t.Errorf("cpu1:\n got %+v\nwant %+v", c1, want1)
	}
	if !near(c1.Lag1, -0.001002004008016032, 1e-9) {
		t.Errorf("cpu1: lag-1 autocorrelation %v, want -0.001002", c1.Lag1)
	}
	if !c1.Quiet() || c0.Quiet() || n.Quiet() {
		t.Errorf("quiet: cpu0 %v, cpu1 %v, all %v; want false, true, false", c0.Quiet(), c1.Quiet(), n.Quiet())
	}

	wantR := map[[2]int]float64{
		{0, 1}: 0.13075280586590227,
		{0, 2}: 1,
		{0, 3}: -0.9993043243598407,
		{1, 3}: -0.130283861226441,
	}
	if len(n.CrossCorrelation) != 6 {
		t.Fatalf("%d pairs of CPUs, want 6", len(n.CrossCorrelation))
	}
	for _, c := range n.CrossCorrelation {
		if c.Bins != 100 {
			t.Errorf("cpu%d and cpu%d: %d bins in common, want 100", c.A, c.B, c.Bins)
		}
		if want, ok := wantR[[2]int{c.A, c.B}]; ok && !near(c.R, want, 1e-9) {
			t.Errorf("cpu%d and cpu%d: r = %v, want %v", c.A, c.B, c.R, want)
		}
	}
	if n.Duration != 1001*ms {
		t.Errorf("duration %v, want 1.001s (the end of cpu3's last chunk)", n.Duration)
	}
	if !reflect.DeepEqual(n.Traces, traces) {
		t.Error("the traces analysed are not the result's Traces")
	}
}

// TestNoiseText checks the one-line summary and the plain text of two
// CPUs, one with slow phases and one quiet, word for word.
func TestNoiseText(t *testing.T) {
	n := AnalyzeNoise([]CPUTrace{byTime(0, phased), quietTrace(1)})
	n.Work = 5000
	wantSummary := "noise: cpu0 slow in 29% of chunks by ×1.50, in 2 phases of 0.2 s (longest 0.3 s); cpu1 quiet (slow 0.1%); between CPUs r=+0.13"
	if got := n.Summary(); got != wantSummary {
		t.Errorf("Summary:\n got %s\nwant %s", got, wantSummary)
	}
	var b strings.Builder
	if err := n.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `noise of CPUs 0-1, measured for 1.0 s on all of them at once (chunks of 5000 steps of fixed work, about 1 ms each):

cpu0: 875 chunks, baseline 1 ms (10th percentile), median 1 ms
  slow in 29% of chunks (over 1.10 × baseline), by ×1.50 (median of the slow chunks)
  in 2 phases of 0.2 s (longest 0.3 s): runs of consecutive slow chunks
  lag-1 autocorrelation +0.99: a chunk's time largely predicts the next's
cpu1: 1000 chunks, baseline 1 ms (10th percentile), median 1 ms
  quiet: 0.1% of chunks slow (over 1.10 × baseline)
  lag-1 autocorrelation +0.00: a chunk's time says little about the next's

between CPUs: r=+0.13 (mean chunk times in 10 ms bins)

Slow phases last up to 0.3 s: a fork or an A/B round shorter than that can run entirely in one, so spread forks over time (mbench run interleaves them) and compare versions in interleaved rounds. The CPUs do not slow down together: two processes run at once on different CPUs (mbench duet) see different interference, which pairing them does not cancel.
`
	if b.String() != want {
		t.Errorf("WriteText:\n%s\nwant:\n%s", b.String(), want)
	}

	quiet := AnalyzeNoise([]CPUTrace{quietTrace(0), quietTrace(1), quietTrace(2), quietTrace(5)})
	if !quiet.Quiet() {
		t.Error("four quiet CPUs: not Quiet")
	}
	wantQuiet := "noise: cpus 0-2,5 quiet (slow ≤ 0.1%); between CPUs r=+1.00 on average (+1.00 to +1.00 over 6 pairs)"
	if got := quiet.Summary(); got != wantQuiet {
		t.Errorf("Summary of quiet CPUs:\n got %s\nwant %s", got, wantQuiet)
	}
	b.Reset()
	quiet.WriteText(&b)
	if !strings.HasSuffix(b.String(), "\nThe machine is quiet: no CPU was slow in 2% of its chunks or more.\n") {
		t.Errorf("WriteText of quiet CPUs ends:\n%s", b.String())
	}
}

// TestNoiseQuietBoundary checks that a CPU is quiet below 2% of its
// chunks slow, and not at 2%.
func TestNoiseQuietBoundary(t *testing.T) {
	for _, tc := range []struct {
		slow  int
		quiet bool
	}{{0, true}, {19, true}, {20, false}, {500, false}} {
		times := make([]time.Duration, 1000)
		for i := range times {
			times[i] = time.Millisecond
			if i < tc.slow {
				times[i] = 2 * time.Millisecond
			}
		}
		n := AnalyzeNoise([]CPUTrace{cumulative(0, times)})
		if got := n.CPUs[0].SlowFraction; !near(got, float64(tc.slow)/1000, 1e-12) {
			t.Fatalf("%d slow chunks of 1000: SlowFraction %v", tc.slow, got)
		}
		if n.Quiet() != tc.quiet {
			t.Errorf("%d slow chunks of 1000: Quiet() = %v, want %v", tc.slow, n.Quiet(), tc.quiet)
		}
	}
}

// TestAnalyzeNoiseBadInput checks that traces no measurement gives (none,
// empty, one chunk, chunks of no or negative time, absurd start times)
// neither panic nor give values JSON cannot hold.
func TestAnalyzeNoiseBadInput(t *testing.T) {
	for name, traces := range map[string][]CPUTrace{
		"none":       nil,
		"empty":      {{CPU: 0}, {CPU: 1}},
		"one chunk":  {{CPU: 0, Chunks: []Chunk{{0, time.Millisecond}}}, {CPU: 1, Chunks: []Chunk{{0, time.Millisecond}}}},
		"zero times": {{CPU: 0, Chunks: []Chunk{{0, 0}, {1, 0}, {2, 0}, {3, 0}}}, quietTrace(1)},
		"negative":   {{CPU: 0, Chunks: []Chunk{{-5, -1}, {-3, 7}, {1 << 62, -9}, {math.MinInt64, math.MaxInt64}}}, quietTrace(1)},
		"constant":   {cumulative(0, []time.Duration{time.Millisecond, time.Millisecond, time.Millisecond})},
	} {
		n := AnalyzeNoise(traces)
		if len(n.CPUs) != len(traces) {
			t.Errorf("%s: %d CPUs described, want %d", name, len(n.CPUs), len(traces))
		}
		if _, err := json.Marshal(n); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if n.Summary() == "" {
			t.Errorf("%s: empty summary", name)
		}
		if err := n.WriteText(new(strings.Builder)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	var none *Noise
	if none.Quiet() || none.Summary() != "noise: not measured" {
		t.Errorf("nil Noise: Quiet %v, Summary %q", none.Quiet(), none.Summary())
	}
	var b strings.Builder
	none.WriteText(&b)
	if b.String() != "noise: not measured\n" {
		t.Errorf("nil Noise: WriteText %q", b.String())
	}
}

func TestShortDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{95 * time.Second, "95 s"},
		{2100 * time.Millisecond, "2.1 s"},
		{400 * time.Millisecond, "0.4 s"},
		{40 * time.Millisecond, "40 ms"},
		{980 * time.Microsecond, "0.98 ms"},
		{1200 * time.Microsecond, "1.2 ms"},
		{3500, "3.5 µs"},
		{0, "0 µs"},
	} {
		if got := shortDuration(tc.d); got != tc.want {
			t.Errorf("shortDuration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestCPURanges(t *testing.T) {
	for _, tc := range []struct {
		cpus []int
		want string
	}{{nil, ""}, {[]int{0}, "0"}, {[]int{0, 1}, "0-1"}, {[]int{0, 1, 2, 5, 7, 8}, "0-2,5,7-8"}} {
		if got := cpuRanges(tc.cpus); got != tc.want {
			t.Errorf("cpuRanges(%v) = %q, want %q", tc.cpus, got, tc.want)
		}
	}
}

// TestSaveNoise checks that the saved noise reads back as it was, without
// its traces, that a second save replaces the first and leaves no
// temporary file, and that a missing file is no noise and no error.
func TestSaveNoise(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	if n, err := LoadNoise(dir); n != nil || err != nil {
		t.Fatalf("no file: LoadNoise = %v, %v; want nil, nil", n, err)
	}
	n := AnalyzeNoise([]CPUTrace{byTime(0, phased), quietTrace(1)})
	n.Start, n.Work = time.Date(2026, 3, 4, 5, 6, 7, 8, time.UTC), 5000
	for range 2 {
		if err := SaveNoise(dir, n); err != nil {
			t.Fatal(err)
		}
	}
	got, err := LoadNoise(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := *n
	want.Traces = nil
	if !reflect.DeepEqual(got, &want) {
		t.Errorf("LoadNoise:\n got %+v\nwant %+v", got, &want)
	}
	if n.Traces == nil {
		t.Error("SaveNoise dropped the traces of the noise it was given")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != NoiseFile {
		t.Errorf("directory holds %v, want only %s", entries, NoiseFile)
	}

	if err := os.WriteFile(filepath.Join(dir, NoiseFile), []byte("{"), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadNoise(dir); err == nil || !strings.Contains(err.Error(), NoiseFile) {
		t.Errorf("a broken file: error %v, want one naming %s", err, NoiseFile)
	}
	if err := SaveNoise(dir, nil); err == nil {
		t.Error("SaveNoise(nil): no error")
	}
}

// TestMeasureNoise measures for a moment and checks what it records, not
// how fast: one trace per CPU the process may run on, each of at least one
// chunk, starting after the common start.
func TestMeasureNoise(t *testing.T) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		t.Fatal(err)
	}
	n, err := MeasureNoise(context.Background(), 30*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Traces) != set.Count() || len(n.CPUs) != set.Count() {
		t.Fatalf("%d traces and %d CPUs described, want %d", len(n.Traces), len(n.CPUs), set.Count())
	}
	for i, tr := range n.Traces {
		if !set.IsSet(tr.CPU) || n.CPUs[i].CPU != tr.CPU {
			t.Errorf("trace %d: CPU %d (described as %d), not one the process may run on", i, tr.CPU, n.CPUs[i].CPU)
		}
		if len(tr.Chunks) == 0 || n.CPUs[i].Chunks != len(tr.Chunks) {
			t.Errorf("cpu%d: %d chunks (described as %d)", tr.CPU, len(tr.Chunks), n.CPUs[i].Chunks)
		}
		for _, c := range tr.Chunks {
			if c.Start < 0 || c.Time <= 0 {
				t.Errorf("cpu%d: chunk %+v", tr.CPU, c)
				break
			}
		}
	}
	if n.Work < 1 || n.Start.IsZero() || n.Duration < 30*time.Millisecond {
		t.Errorf("work %d, start %v, duration %v", n.Work, n.Start, n.Duration)
	}
	if _, err := json.Marshal(n); err != nil {
		t.Error(err)
	}
}

func TestMeasureNoiseBadInput(t *testing.T) {
	for _, d := range []time.Duration{0, -time.Second, MaxNoiseTime + 1} {
		if _, err := MeasureNoise(context.Background(), d); err == nil {
			t.Errorf("MeasureNoise(%v): no error", d)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := MeasureNoise(ctx, time.Minute); err != context.Canceled {
		t.Errorf("cancelled: error %v, want %v", err, context.Canceled)
	}
}

// TestPrepareNoise checks that a run records the noise kept in its
// NoiseDir under the noise settings, with its age, and goes on, with a
// warning and without them, when the file is broken.
func TestPrepareNoise(t *testing.T) {
	dir := t.TempDir()
	n := AnalyzeNoise([]CPUTrace{byTime(0, phased), quietTrace(1)})
	n.Start = time.Now().Add(-90 * time.Minute)
	if err := SaveNoise(dir, n); err != nil {
		t.Fatal(err)
	}
	st := &memStore{}
	j := fixtureJob(t, st)
	j.Bench = "Sum"
	j.NoiseDir = dir
	p, err := Prepare(context.Background(), j)
	if err != nil {
		t.Fatal(err)
	}
	s := st.runs[0].Settings
	if s[bench.SettingNoise] != n.Summary() {
		t.Errorf("noise setting %q, want %q", s[bench.SettingNoise], n.Summary())
	}
	age, err := time.ParseDuration(s[bench.SettingNoiseAge])
	if err != nil || age < 90*time.Minute || age > 100*time.Minute {
		t.Errorf("noise-age setting %q (%v), want 1h30m and a little", s[bench.SettingNoiseAge], err)
	}
	if h := p.Platform.Header(); !strings.Contains(h, "\n"+n.Summary()+" (measured 1h30m") {
		t.Errorf("header does not give the noise and its age:\n%s", h)
	}

	if err := os.WriteFile(filepath.Join(dir, NoiseFile), []byte("not json"), 0o666); err != nil {
		t.Fatal(err)
	}
	st = &memStore{}
	j.Store = st
	p, err = Prepare(context.Background(), j)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := st.runs[0].Settings[bench.SettingNoise]; ok || p.Platform.Noise != nil {
		t.Error("a broken noise file was recorded")
	}
	if !slices.ContainsFunc(p.Warnings, func(w string) bool { return strings.Contains(w, NoiseFile) }) {
		t.Errorf("no warning names the broken %s: %q", NoiseFile, p.Warnings)
	}

	var none Platform
	if none.NoiseSettings(time.Now()) != nil || strings.Contains(none.Header(), "noise") {
		t.Error("a platform without noise records some")
	}
}
