package duet

import (
	"context"
	"flag"
	"strconv"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/run"
	"github.com/mbench/mbench/stats"
)

var measure = flag.Bool("measure", false, "run TestMeasure: start skew and probe overhead on this machine (about a minute)")

// TestMeasure measures, on this machine, what the duet execution costs
// and achieves; it reports and asserts nothing. Run it with
//
//	go test ./duet -run TestMeasure -measure -v
//
// Start skew: BenchmarkJSON (encoding and decoding 2000 records: allocation,
// garbage collection, memory traffic) with N calibrated to 50 ms, A/A, in
// runs with the CPUs swapped. Probe overhead off: the plain binary against
// the probed one without MBENCH_PROBE, on BenchmarkEmpty with N=1 (the
// timed duration is then the timer's and the hooks' own cost) and on
// BenchmarkJSON, alternating processes. Probe on: the same two benchmarks
// paired.
func TestMeasure(t *testing.T) {
	if !*measure {
		t.Skip("run with -measure")
	}
	probed, plain := fixture(t)
	ctx := context.Background()
	target := run.Target{Binary: &probed, Key: bench.Key{Package: probed.Package, Name: "JSON"}, Pattern: run.Anchored("JSON"), CPUs: []int{0}}
	n, _, err := run.Calibrate(ctx, &target, 50*time.Millisecond, false, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("BenchmarkJSON: N=%d for 50ms iterations", n)

	// Start skew and durations, paired.
	var pairs []Pair
	const runs, iters = 6, 20
	for r := range runs {
		s := spec(probed, run.Anchored("JSON"), n, iters)
		if r%2 == 1 {
			s.Old.CPU, s.New.CPU = 1, 0
		}
		got, _, err := collect(t, s)
		if err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, got...)
	}
	sk := SkewOf(pairs)
	var pairedSec []float64
	for _, p := range pairs {
		pairedSec = append(pairedSec, p.Old.Duration.Seconds()/float64(p.Old.N), p.New.Duration.Seconds()/float64(p.New.N))
	}
	t.Logf("start skew, %d pairs of ~50ms: median %v (%.5f%% of the iteration), max %v (%.5f%%)",
		sk.Pairs, sk.Median, 100*sk.MedianFraction, sk.Max, 100*sk.MaxFraction)

	// Isolated, plain and probed with the probe off, alternating.
	isolated := func(bin run.Binary, name string, n, count, forks int) []float64 {
		var v []float64
		for range forks {
			spec := run.ForkSpec{Binary: bin, Pattern: run.Anchored(name), BenchTime: strconv.Itoa(n) + "x", Count: count, CPUs: []int{0}, Timeout: time.Minute}
			err := run.RunFork(ctx, spec, func(m *bench.Measurement) bool {
				if sec, ok := m.Get("sec/op"); ok {
					v = append(v, sec*float64(m.N))
				}
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		return v
	}
	var plainJSON, offJSON, plainEmpty, offEmpty []float64
	for range 5 {
		plainJSON = append(plainJSON, isolated(plain, "JSON", n, 10, 1)...)
		offJSON = append(offJSON, isolated(probed, "JSON", n, 10, 1)...)
		plainEmpty = append(plainEmpty, isolated(plain, "Empty", 1, 1000, 1)...)
		offEmpty = append(offEmpty, isolated(probed, "Empty", 1, 1000, 1)...)
	}
	med := stats.Median
	t.Logf("BenchmarkJSON iteration, isolated: plain %.3fms, probe off %.3fms (%+.2f%%); paired A/A with the probe on: %.3fms",
		1e3*med(plainJSON), 1e3*med(offJSON), 100*(med(offJSON)/med(plainJSON)-1), 1e3*med(pairedSec)*float64(n))

	// BenchmarkEmpty paired: the timed duration with the probe on, and
	// the wall time per iteration (barrier, report, garbage collection
	// in runN) against an isolated process.
	s := spec(probed, run.Anchored("Empty"), 1, 2000)
	emptyPairs, st, err := collect(t, s)
	if err != nil {
		t.Fatal(err)
	}
	var onEmpty []float64
	for _, p := range emptyPairs {
		onEmpty = append(onEmpty, p.Old.Duration.Seconds(), p.New.Duration.Seconds())
	}
	start := time.Now()
	isolated(probed, "Empty", 1, 2000, 1)
	isoWall := time.Since(start)
	esk := SkewOf(emptyPairs)
	t.Logf("BenchmarkEmpty N=1, timed duration: plain %.0fns, probe off %.0fns, probe on (paired) %.0fns",
		1e9*med(plainEmpty), 1e9*med(offEmpty), 1e9*med(onEmpty))
	t.Logf("BenchmarkEmpty N=1, 2000 iterations: %v per paired iteration (process wall time), %v per isolated iteration; start skew median %v, max %v",
		st.Old.WallTime/2000, isoWall/2000, esk.Median, esk.Max)
}
