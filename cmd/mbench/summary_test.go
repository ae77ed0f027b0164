package main

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/run"
	"github.com/mbench/mbench/stop"
)

// summaryResult is one benchmark of the example suite (examples/suite) as
// a run with the defaults leaves it: forks of one warm-up and five
// measurement iterations of seeded values around mean (relative noise
// noise), and the controller's report.
func summaryResult(name string, mean, noise float64, forks int, rep stop.Report) *run.Result {
	r := rand.New(rand.NewPCG(uint64(len(name)), uint64(forks)))
	n := int(0.05 / mean) // 50ms iterations, as -iter asks
	res := &run.Result{Target: &run.Target{Key: bench.Key{Package: "example.com/suite", Name: name, Procs: 2}}, N: n}
	for f := range forks {
		for i := range 6 {
			phase := bench.Measure
			if i == 0 {
				phase = bench.Warmup
			}
			res.Measurements = append(res.Measurements, bench.Measurement{
				Key:   res.Target.Key,
				Coord: bench.Coord{SuiteRun: f + 1, Fork: 1, Iteration: i, Phase: phase},
				N:     n,
				Values: []bench.Value{
					{Value: mean * (1 + noise*r.NormFloat64()), Unit: "sec/op"},
					{Value: 14976, Unit: "B/op"},
					{Value: 100, Unit: "allocs/op"},
				},
			})
		}
	}
	rep.Criterion, rep.Forks, rep.Done = "cv", forks, true
	rep.Measured = 5 * forks
	trend := rep.WarmupTrend != nil // a trending report comes with an empty slice
	rep.WarmupTrend = nil
	for range forks {
		rep.Warmup = append(rep.Warmup, 1)
		rep.WarmupStable = append(rep.WarmupStable, false)
		rep.WarmupTrend = append(rep.WarmupTrend, trend)
	}
	rep.CheckTime = 800 * time.Microsecond
	res.Report = rep
	res.Time = time.Duration(forks) * 6 * 50 * time.Millisecond
	return res
}

// TestRunSummary renders the summary of a run of the example suite with
// every kind of stop and note: the table and its legend must fit a
// 120-column terminal, with the words of the stopped column explained
// below it, and each distinct
// warning must be printed once, naming its benchmarks.
func TestRunSummary(t *testing.T) {
	trending := stop.Report{WarmupTrend: []bool{}}
	failed := summaryResult("Itoa", 40e-9, 0.02, 1, stop.Report{})
	failed.Failures = []*run.ForkError{{Spec: &run.ForkSpec{Binary: run.Binary{Path: "suite.test"}, Pattern: "^Itoa$"},
		Err: errors.New("exit status 2"), Output: "panic: boom"}}
	results := []*run.Result{
		summaryResult("Concat/plus", 11e-6, 0.25, 6, stop.Report{Stable: true}),
		summaryResult("Concat/builder", 1.3e-6, 0.03, 5, stop.Report{Stable: true}),
		summaryResult("Encode", 930e-9, 0.26, 10, trending),
		summaryResult("Sort", 18.8e-6, 0.02, 10, trending),
		summaryResult("Contains/linear", 67e-9, 0.15, 10, stop.Report{}),
		summaryResult("Contains/map", 8.7e-9, 0.02, 5, stop.Report{Stable: true}),
		failed,
	}
	o := run.DefaultJob.Options
	o.Benchmem = true
	var stdout, stderr bytes.Buffer
	run.WriteSummary(&stdout, (&env{stdout: &stdout, stderr: &stderr}).warnf, results, &o, 38*time.Second)
	for _, line := range strings.Split(stdout.String(), "\n") {
		if n := utf8.RuneCountInString(line); n > 120 {
			t.Errorf("summary line of %d columns, want at most 120:\n%s", n, line)
		}
	}
	for _, note := range []string{"warm-up still trending at -wi-max (its iterations still getting faster or slower) in 2 benchmarks: Encode-2, Sort-2; raise -wi-max",
		"-f-max reached before the results settled (-criterion cv) in 3 benchmarks: Encode-2, Sort-2, Contains/linear-2;"} {
		if c := strings.Count(stderr.String(), note); c != 1 {
			t.Errorf("stderr has %q %d times, want once:\n%s", note, c, &stderr)
		}
	}
	got := "-- stdout --\n" + stdout.String() + "-- stderr --\n" + stderr.String()
	golden := filepath.Join("testdata", "golden", "run-summary.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("summary differs from %s (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", golden, got, want)
	}
}
