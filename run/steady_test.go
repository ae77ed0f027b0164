package run

import (
	"context"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
	"github.com/mbench/mbench/stop"
)

// scratchSize is the fixture's fixture.ScratchSize: the bytes Parse
// allocates on its first call in a process.
const scratchSize = 8 << 20

// lastResult runs one fork of t at the given -test.benchtime and count,
// with -benchmem, and returns its last result.
func lastResult(t *testing.T, tg *Target, benchtime string, count int) *bench.Measurement {
	t.Helper()
	spec := ForkSpec{Binary: *tg.Binary, Pattern: tg.Pattern, BenchTime: benchtime, Count: count, Benchmem: true, Timeout: time.Minute}
	var last *bench.Measurement
	err := RunFork(context.Background(), spec, func(m *bench.Measurement) bool {
		if m.Key == tg.Key {
			last = m
		}
		return true
	})
	if err != nil || last == nil {
		t.Fatalf("%s at %s: %v, result %v", tg.Key, benchtime, err, last)
	}
	return last
}

func get(t *testing.T, m *bench.Measurement, unit string) float64 {
	t.Helper()
	v, ok := m.Get(unit)
	if !ok {
		t.Fatalf("%s: no %s in %+v", m.Key, unit, m.Values)
	}
	return v
}

// TestSteadyState measures the fixture's Cold benchmarks, whose op
// allocates 8 MiB on its first call in a process and 64 B in one
// allocation afterwards, with an iteration time so short that calibration
// always asks for one op, under a criterion (Suite) and in a fixed
// configuration (StaticSuite, -levels). Run must report what go test
// reports after many ops, 64 B/op and 1 allocs/op, as B/op and allocs/op,
// not ns/op, tell whatever the machine's speed:
//
//   - Cold/N, a b.N loop, times N = MinOps ops after its untimed first
//     call, so no iteration, warm-up or not, sees the scratch space; at
//     N = 1 the first result of a process would.
//   - Cold/loop, with b.Loop, times its first call in its first
//     iteration at any N; warm-up must discard it and go on until B/op
//     settles, which takes at least one more iteration.
func TestSteadyState(t *testing.T) {
	bin := fixture(t)
	ctx := context.Background()
	targets, err := Discover(ctx, bin, "^BenchmarkCold$", nil, nil, time.Minute)
	if err != nil || len(targets) != 2 {
		t.Fatalf("Discover: %d targets, %v", len(targets), err)
	}
	// What go test measures after many ops: the second result of
	// -benchtime 1000x -count 2, which b.Loop's first op cannot reach.
	type perOp struct{ bytes, allocs float64 }
	want := make(map[string]perOp)
	for i := range targets {
		ref := lastResult(t, &targets[i], "1000x", 2)
		w := perOp{get(t, ref, "B/op"), get(t, ref, "allocs/op")}
		if w.bytes != 64 || w.allocs != 1 {
			t.Fatalf("%s: go test -benchtime 1000x: %v B/op, %v allocs/op; the fixture should allocate 64 B once per op", targets[i].Key.Name, w.bytes, w.allocs)
		}
		want[targets[i].Key.Name] = w
	}
	// The control: at N = 1 the first result of Cold/N is the first op.
	if b := get(t, lastResult(t, &targets[0], "1x", 1), "B/op"); targets[0].Key.Name != "Cold/N" || b < scratchSize {
		t.Fatalf("%s at -benchtime 1x: %v B/op, want the scratch space; the fixture is not cold", targets[0].Key.Name, b)
	}

	o := DefaultOptions
	o.Config = stop.Config{WarmupMin: 1, WarmupMax: 10, Measure: 3, ForksMin: 2, ForksMax: 2, IterTime: time.Nanosecond}
	o.ForkTimeout = time.Minute
	o.Benchmem = true
	for _, suite := range []struct {
		name string
		run  func() ([]*Result, error)
	}{
		{"Suite", func() ([]*Result, error) { return Suite(ctx, targets, o) }},
		{"StaticSuite", func() ([]*Result, error) {
			return StaticSuite(ctx, targets, StaticOptions{Options: o, Warmup: 1, MinPerSuiteRun: 1,
				Levels: func(*Target) (bench.Levels, bool) { return bench.Levels{SuiteRuns: 1, Forks: 2, Iterations: 3}, true }})
		}},
	} {
		t.Run(suite.name, func(t *testing.T) {
			results, err := suite.run()
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range results {
				name := r.Target.Key.Name
				if r.Failed() {
					t.Fatalf("%s failed: %v", name, r.Failures[0])
				}
				w := want[name]
				if r.N != MinOps {
					t.Errorf("%s: N = %d for an iteration time of 1ns, want MinOps = %d", name, r.N, MinOps)
				}
				// The runtime allocates a few kB of its own now and then
				// (a goroutine's stack, a timer) during an iteration of
				// two operations; the cold first call's 8 MiB is a
				// thousand times that.
				const runtimeBytes, runtimeAllocs = 8 << 10, 8
				near := func(b, a float64) bool {
					return b >= w.bytes && b <= w.bytes+runtimeBytes && a >= w.allocs && a <= w.allocs+runtimeAllocs
				}
				s := Summarize(r, "sec/op", stats.Bootstrap{Level: 0.99, Replicates: 100}, 1)
				if !near(s.BytesPerOp, s.AllocsPerOp) {
					t.Errorf("%s: run reports %v B/op, %v allocs/op; go test %v and %v", name, s.BytesPerOp, s.AllocsPerOp, w.bytes, w.allocs)
				}
				cold := 0
				for _, m := range r.Measurements {
					b, a := get(t, &m, "B/op"), get(t, &m, "allocs/op")
					isCold := b >= scratchSize/MinOps
					if isCold {
						cold++
					}
					switch {
					case isCold && (m.Coord.Phase != bench.Warmup || m.Coord.Iteration != 0):
						t.Errorf("%s, fork %d: iteration %d (%v) sees the scratch space: %v B/op", name, m.Coord.Fork, m.Coord.Iteration, m.Coord.Phase, b)
					case !isCold && m.Coord.Phase == bench.Measure && !near(b, a):
						t.Errorf("%s, fork %d: measurement iteration %d has %v B/op, %v allocs/op; want %v, %v", name, m.Coord.Fork, m.Coord.Iteration, b, a, w.bytes, w.allocs)
					}
				}
				rep := r.Report
				switch name {
				case "Cold/N":
					if cold > 0 {
						t.Errorf("Cold/N: %d iterations timed the process's first op", cold)
					}
				case "Cold/loop":
					if cold != rep.Forks || rep.Forks != 2 {
						t.Errorf("Cold/loop: %d cold iterations in %d forks, want the first of each of 2", cold, rep.Forks)
					}
					for f, w := range rep.Warmup {
						if w < 2 || rep.WarmupWhy[f] == stop.WhyMin {
							t.Errorf("Cold/loop, fork %d: warm-up of %d iterations, ended by %q; want B/op to hold it past the cold first", f+1, w, rep.WarmupWhy[f])
						}
					}
				}
				// On a noisy machine sec/op may still fall at wi_max, with
				// a warning; what the test asserts holds either way.
				t.Logf("%s: warm-up %s; warnings %q", name, rep.WarmupSummary(), rep.Warnings())
			}
		})
	}
}

// TestBenchmemKept runs forks with B/op and allocs/op always, for warm-up,
// but keeps them only with -benchmem or for a benchmark that reports them
// itself (b.ReportAllocs in Cold/loop).
func TestBenchmemKept(t *testing.T) {
	bin := fixture(t)
	ctx := context.Background()
	targets, err := Discover(ctx, bin, "^BenchmarkCold$", nil, nil, time.Minute)
	if err != nil || len(targets) != 2 {
		t.Fatalf("Discover: %d targets, %v", len(targets), err)
	}
	o := fastOptions()
	o.Benchmem = false
	results, err := Suite(ctx, targets, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if len(r.Measurements) == 0 {
			t.Fatalf("%s: no measurements", r.Target.Key.Name)
		}
		for _, m := range r.Measurements {
			_, hasB := m.Get("B/op")
			_, hasA := m.Get("allocs/op")
			if want := r.Target.Key.Name == "Cold/loop"; hasB != want || hasA != want {
				t.Fatalf("%s without -benchmem: B/op %v, allocs/op %v; want both %v", r.Target.Key.Name, hasB, hasA, want)
			}
		}
	}
}

// TestCalibrateWarm calibrates Cold/loop, whose b.Loop times the
// process's first op, the one that allocates the scratch space, in its
// first result at any N: Calibrate scales that result, CalibrateWarm the
// second, which sees only the 64 B of every later op. B/op tells them
// apart however fast the machine: the ramp to 1ms stays far below the
// 8 million ops that would hide the scratch space's 8 MiB.
func TestCalibrateWarm(t *testing.T) {
	bin := fixture(t)
	targets, err := Discover(context.Background(), bin, "^BenchmarkCold$/^loop$", nil, nil, time.Minute)
	if err != nil || len(targets) != 1 {
		t.Fatalf("Discover: %d targets, %v", len(targets), err)
	}
	for _, c := range []struct {
		name      string
		calibrate func(context.Context, *Target, time.Duration, bool, time.Duration) (int, *bench.Measurement, error)
		cold      bool
	}{{"Calibrate", Calibrate, true}, {"CalibrateWarm", CalibrateWarm, false}} {
		n, m, err := c.calibrate(context.Background(), &targets[0], time.Millisecond, true, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if b := get(t, m, "B/op"); (b > 64) != c.cold || b < 64 {
			t.Errorf("%s: scaled a result of %v B/op (N=%d), want it %s", c.name, b, n, map[bool]string{true: "above the 64 B of a warm op", false: "64 B"}[c.cold])
		}
	}
}
