package run

import (
	"context"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
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

// TestMinOps measures the fixture's Cold/N, a b.N loop whose op allocates
// 8 MiB on its first call in a process and 64 B in one allocation
// afterwards, with an iteration time so short that calibration always asks
// for one op. At N = MinOps every iteration is timed after the untimed
// first call, so none, warm-up or not, sees the scratch space; at N = 1
// the first result of a process would. B/op tells, not ns/op, whatever the
// machine's speed.
func TestMinOps(t *testing.T) {
	bin := fixture(t)
	ctx := context.Background()
	targets, err := Discover(ctx, bin, "^BenchmarkCold$/^N$", nil, nil, time.Minute)
	if err != nil || len(targets) != 1 {
		t.Fatalf("Discover: %d targets, %v", len(targets), err)
	}
	if b := get(t, lastResult(t, &targets[0], "1x", 1), "B/op"); b < scratchSize {
		t.Fatalf("Cold/N at -benchtime 1x: %v B/op, want the scratch space; the fixture is not cold", b)
	}
	o := fastOptions()
	o.Config.IterTime = time.Nanosecond
	o.Benchmem = true
	results, err := Suite(ctx, targets, o)
	if err != nil {
		t.Fatal(err)
	}
	r := results[0]
	if r.Failed() || len(r.Measurements) == 0 {
		t.Fatalf("Cold/N: %d measurements, failures %v", len(r.Measurements), r.Failures)
	}
	if r.N != MinOps {
		t.Errorf("Cold/N: N = %d for an iteration time of 1ns, want MinOps = %d", r.N, MinOps)
	}
	for _, m := range r.Measurements {
		if b, a := get(t, &m, "B/op"), get(t, &m, "allocs/op"); b != 64 || a != 1 {
			t.Errorf("Cold/N, fork %d, iteration %d: %v B/op, %v allocs/op; want the 64 B and 1 allocation of a warm op", m.Coord.Fork, m.Coord.Iteration, b, a)
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
