package scaling

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mbench/mbench/bench"
)

// simulate returns a run of one family Sim/n=x for x = 16, 64, ..., 16384
// whose true cost is c(x)·e^(between + within): each fork has a lognormal
// level (sd 5%), each iteration lognormal noise (sd 2%), as `mbench run`
// measures 5 forks of 5 iterations.
func simulate(r *rand.Rand, cost func(x float64) float64) *bench.Run {
	var run bench.Run
	for x := 16.0; x <= 16384; x *= 4 {
		name := "Sim/n=" + fmtFloat(x)
		for f := 1; f <= 5; f++ {
			level := math.Exp(0.05 * r.NormFloat64())
			vals := make([]float64, 5)
			for i := range vals {
				vals[i] = cost(x) * level * math.Exp(0.02*r.NormFloat64())
			}
			measure(&run, name, "", f, vals...)
		}
	}
	return &run
}

// TestCoverage is the seeded simulation behind the slope's interval: for
// families whose cost is exactly n^1 and n^2 under fork-level and
// iteration-level noise, the 99% interval must hold the true exponent in at
// least 90% of trials (the bar the issue sets; a working interval holds it
// in about 99%), and Curved, a test at the same level, must fire in at most
// 10% of them.
func TestCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("coverage simulation")
	}
	const trials = 300
	opts := DefaultOptions
	opts.Replicates = 1000
	for _, b := range []float64{1, 2} {
		r := rand.New(rand.NewPCG(uint64(b), 19))
		covered, curved := 0, 0
		for trial := range trials {
			opts.Seed = uint64(trial)
			fams, err := Find(simulate(r, func(x float64) float64 { return 3e-9 * math.Pow(x, b) }), "sec/op", opts)
			if err != nil || len(fams) != 1 || len(fams[0].Points) != 6 {
				t.Fatalf("Find: %v, %d families", err, len(fams))
			}
			if fams[0].Slope.Contains(b) {
				covered++
			}
			if fams[0].Curved {
				curved++
			}
		}
		t.Logf("n^%g: slope interval covered %d of %d, curved in %d", b, covered, trials, curved)
		if covered < trials*90/100 {
			t.Errorf("n^%g: the slope interval held %g in %d of %d trials, want at least 90%%", b, b, covered, trials)
		}
		if curved > trials/10 {
			t.Errorf("n^%g: a straight line was called curved in %d of %d trials", b, curved, trials)
		}
	}
}

// TestCurved requires a linear cost behind a fixed cost per call, the
// common shape of real benchmarks, to be reported as bending, with a tail
// slope near 1 and a slope over all points well below it.
func TestCurved(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	fams, err := Find(simulate(r, func(x float64) float64 { return 1e-7 + 1e-9*x }), "sec/op", DefaultOptions)
	if err != nil || len(fams) != 1 {
		t.Fatalf("Find: %v, %d families", err, len(fams))
	}
	f := fams[0]
	if !f.Curved || !(f.Slope.Hi < 0.9) || !(f.Tail.Center > 0.9) {
		t.Errorf("100ns + n·1ns: Slope %+v, Tail %+v, Curved %v; want a bend with the tail near 1", f.Slope, f.Tail, f.Curved)
	}
}

// TestReproducible requires the same seed to give the same families, and a
// family's result not to depend on the other families in the run.
func TestReproducible(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	run := simulate(r, func(x float64) float64 { return x })
	a, _ := Find(run, "sec/op", DefaultOptions)
	b, _ := Find(run, "sec/op", DefaultOptions)
	if a[0].Slope != b[0].Slope || a[0].Points[3] != b[0].Points[3] {
		t.Errorf("same seed, different results: %+v, %+v", a[0].Slope, b[0].Slope)
	}
	measure(run, "Other/n=1", "", 1, 1, 2)
	measure(run, "Other/n=2", "", 1, 1, 2)
	measure(run, "Other/n=3", "", 1, 1, 2)
	c, _ := Find(run, "sec/op", DefaultOptions)
	if len(c) != 2 || c[0].Slope != a[0].Slope {
		t.Errorf("another family changed the first: %+v, was %+v", c[0].Slope, a[0].Slope)
	}
	opts := DefaultOptions
	opts.Seed = 2
	d, _ := Find(run, "sec/op", opts)
	if d[0].Slope == a[0].Slope {
		t.Errorf("seed 2 gave the interval of seed 1: the seed is not used")
	}
}
