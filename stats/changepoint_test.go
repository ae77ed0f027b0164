package stats

import (
	"math"
	"slices"
	"testing"
)

// TestEnergyQKnown checks q̂ against values computed by hand from its
// definition (Matteson & James 2014, eq. 5 with α = 1).
func TestEnergyQKnown(t *testing.T) {
	for _, c := range []struct {
		x, y []float64
		want float64
	}{
		// Σ|x−y| = 3+2 = 5, Σ|x−x| = 1, no pair in y:
		// 2/3·5 − 2·1/(3·1)·1 = 8/3.
		{[]float64{1, 2}, []float64{4}, 8.0 / 3},
		// Σ|x−y| = 7+8+6+7+4+5 = 37, Σ|x−x| = 1+3+2 = 6, Σ|y−y| = 1:
		// 2/5·37 − 2·2/(5·2)·6 − 2·3/(5·1)·1 = 14.8 − 2.4 − 1.2 = 11.2.
		{[]float64{0, 1, 3}, []float64{7, 8}, 11.2},
		// Identical halves: 2/4·4 − 2·2/(4·1)·2 − 2·2/(4·1)·2 = −2; the
		// unbiased within terms make q̂ negative where there is no change.
		{[]float64{1, 3}, []float64{1, 3}, -2},
	} {
		if got := EnergyQ(c.x, c.y); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("EnergyQ(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	if !math.IsNaN(EnergyQ(nil, []float64{1})) {
		t.Error("EnergyQ of an empty side is not NaN")
	}
}

// TestEnergyTable checks the prefix-sum table against the definition for
// every split of every segment of a random series.
func TestEnergyTable(t *testing.T) {
	z := timings(newRand(1), 23, 100, 0.2)
	var e energy
	e.fill(z)
	for s := 0; s < len(z); s++ {
		for tau := s + 1; tau < len(z); tau++ {
			for k := tau + 1; k <= len(z); k++ {
				want := EnergyQ(z[s:tau], z[tau:k])
				if got := e.q(s, tau, k); math.Abs(got-want) > 1e-9*math.Abs(want)+1e-9 {
					t.Fatalf("q(%d,%d,%d) = %v, definition %v", s, tau, k, got, want)
				}
			}
		}
	}
}

// TestTTestP checks the t-test against a value worked by hand: for 1,2,3
// against 4,5,6,7, t = 3.5/sqrt(1.4·(1/3+1/4)) = 3.8730 with 5 degrees of
// freedom; R's t.test(1:3, 4:7, var.equal = TRUE) prints p-value = 0.01172.
func TestTTestP(t *testing.T) {
	p := tTestP([]float64{1, 2, 3}, []float64{4, 5, 6, 7})
	if math.Abs(p-0.01172) > 5e-5 {
		t.Errorf("tTestP = %v, want 0.01172", p)
	}
	if p := tTestP([]float64{2, 2}, []float64{3, 3}); p != 0 {
		t.Errorf("tTestP of two constant sides = %v, want 0", p)
	}
	if p := tTestP([]float64{2}, []float64{3}); p != 1 {
		t.Errorf("tTestP without degrees of freedom = %v, want 1", p)
	}
}

// otavaSequence and its change points are Apache Otava's own test case
// (tests/change_point_divisive_test.py), found there by the t-test at
// p 0.01. (Otava's test also finds them with 100 permutations, at a level
// its seed lets them reach: 8 values of which 3 stepped have only 56
// arrangements, so an exact permutation p cannot fall far below 2/56.)
var otavaSequence = []float64{
	0.3, 2.4, 1.5, -0.9, -0.5,
	99.7, 98.3, 99.1,
	149.0, 149.7, 149.5, 149.1, 148.8, 150.0,
}

func TestChangePointsOtava(t *testing.T) {
	d := Divisive{Alpha: 0.01}
	if got := indexes(d.ChangePoints(otavaSequence, nil)); !slices.Equal(got, []int{5, 8}) {
		t.Errorf("change points %v, want [5 8]", got)
	}
}

// stepSeries returns n values around 1000 with relative noise sd, times
// factor[k] from index at[k] on.
func stepSeries(seed uint64, n int, sd float64, at []int, factor []float64) []float64 {
	r := newRand(seed)
	x := make([]float64, n)
	for i := range x {
		level := 1000.0
		for k := range at {
			if i >= at[k] {
				level *= factor[k]
			}
		}
		x[i] = level * (1 + sd*r.NormFloat64())
	}
	return x
}

func indexes(cps []ChangePoint) []int {
	var out []int
	for _, c := range cps {
		out = append(out, c.Index)
	}
	return out
}

// history is the configuration mbench history uses.
var history = Divisive{Alpha: 0.001, Window: 50, MinChange: 0.03, MinSize: 3}

func TestChangePointsOneStep(t *testing.T) {
	for seed := range uint64(20) {
		for _, c := range []struct {
			n, at  int
			sd, by float64
		}{
			{200, 130, 0.02, 1.10},
			{200, 30, 0.02, 0.90},
			{12, 6, 0.03, 1.25},
			{60, 57, 0.01, 1.25}, // the last three stepped
		} {
			x := stepSeries(seed, c.n, c.sd, []int{c.at}, []float64{c.by})
			cps := history.ChangePoints(x, nil)
			if got := indexes(cps); !slices.Equal(got, []int{c.at}) {
				t.Errorf("seed %d, %d values stepping ×%v at %d: change points %v", seed, c.n, c.by, c.at, got)
				continue
			}
			if r := cps[0].Ratio(); math.Abs(r/c.by-1) > 0.05 || cps[0].P > history.Alpha {
				t.Errorf("seed %d: ratio %v (want about %v), p %v", seed, r, c.by, cps[0].P)
			}
		}
	}
}

func TestChangePointsTwoSteps(t *testing.T) {
	for seed := range uint64(20) {
		x := stepSeries(seed, 150, 0.01, []int{50, 100}, []float64{1.10, 0.92})
		if got := indexes(history.ChangePoints(x, nil)); !slices.Equal(got, []int{50, 100}) {
			t.Errorf("seed %d: change points %v, want [50 100]", seed, got)
		}
		// Close together, within one window.
		x = stepSeries(seed, 40, 0.01, []int{15, 25}, []float64{1.2, 1.2})
		if got := indexes(history.ChangePoints(x, nil)); !slices.Equal(got, []int{15, 25}) {
			t.Errorf("seed %d: close steps: change points %v, want [15 25]", seed, got)
		}
	}
}

// TestChangePointsNone checks that noise and slow drift are not steps.
func TestChangePointsNone(t *testing.T) {
	for seed := range uint64(50) {
		flat := stepSeries(seed, 200, 0.02, nil, nil)
		if got := indexes(history.ChangePoints(flat, nil)); len(got) != 0 {
			t.Errorf("seed %d: flat series (2%% noise): change points %v", seed, got)
		}
		// A drift of 3% over the series: no two segments differ by 3%.
		r := newRand(seed)
		drift := make([]float64, 200)
		for i := range drift {
			drift[i] = 1000 * (1 + 0.03*float64(i)/200) * (1 + 0.01*r.NormFloat64())
		}
		if got := indexes(history.ChangePoints(drift, nil)); len(got) != 0 {
			t.Errorf("seed %d: slow drift: change points %v", seed, got)
		}
	}
}

// TestChangePointsFlatLevel measures the significance test alone on flat
// series (no threshold). The t-test of a split chosen as the largest q̂ of
// many is anti-conservative, as Otava's is: about 8% of flat series of 200
// values show a step at p 0.001. The threshold on the size of a step is
// what keeps noise from being reported.
func TestChangePointsFlatLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	d := Divisive{Alpha: 0.001, Window: 50}
	alarms := 0
	for seed := range uint64(200) {
		if len(d.ChangePoints(stepSeries(seed, 200, 0.02, nil, nil), nil)) > 0 {
			alarms++
		}
	}
	t.Logf("%d of 200 flat series of 200 values show a step at p 0.001", alarms)
	if alarms > 30 {
		t.Errorf("%d of 200 flat series show a step", alarms)
	}
}

func TestChangePointsSeeded(t *testing.T) {
	x := stepSeries(3, 30, 0.05, []int{12}, []float64{1.3})
	d := Divisive{Alpha: 0.01, Permutations: 199}
	a, b := d.ChangePoints(x, newRand(9)), d.ChangePoints(x, newRand(9))
	if !slices.Equal(a, b) || len(a) == 0 {
		t.Errorf("one seed, two answers: %v, %v", a, b)
	}
	if got := indexes(a); !slices.Equal(got, []int{12}) {
		t.Errorf("permutation test: change points %v, want [12]", got)
	}
	// p is at least 1/(1+permutations).
	if a[0].P < 1.0/200 {
		t.Errorf("p %v below 1/200", a[0].P)
	}
}

func TestChangePointsBadData(t *testing.T) {
	d := DefaultDivisive
	for _, x := range [][]float64{nil, {1, 2}, {1, 2, math.NaN(), 4}, {1, math.Inf(1), 3, 4}} {
		if got := d.ChangePoints(x, nil); got != nil {
			t.Errorf("ChangePoints(%v) = %v, want none", x, got)
		}
	}
	// A constant series has no step; a step without noise is one.
	if got := d.ChangePoints([]float64{5, 5, 5, 5, 5, 5}, nil); got != nil {
		t.Errorf("constant series: %v", got)
	}
	if got := indexes(d.ChangePoints([]float64{5, 5, 5, 5, 7, 7, 7, 7}, nil)); !slices.Equal(got, []int{4}) {
		t.Errorf("noiseless step: %v, want [4]", got)
	}
	for _, bad := range []Divisive{{Alpha: 0}, {Alpha: 1}, {Alpha: 0.01, Window: 1}, {Alpha: 0.01, Window: -1},
		{Alpha: 0.01, MinChange: -1}, {Alpha: 0.01, Permutations: 10}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%+v with a nil generator did not panic", bad)
				}
			}()
			bad.ChangePoints([]float64{1, 2, 3}, nil)
		}()
	}
}

// BenchmarkChangePoints analyses the history of a suite: 1,000 series of
// 200 values, with a step in every tenth, as mbench history does.
func BenchmarkChangePoints(b *testing.B) {
	series := make([][]float64, 1000)
	for i := range series {
		if i%10 == 0 {
			series[i] = stepSeries(uint64(i), 200, 0.02, []int{120}, []float64{1.1})
		} else {
			series[i] = stepSeries(uint64(i), 200, 0.02, nil, nil)
		}
	}
	for b.Loop() {
		for _, x := range series {
			history.ChangePoints(x, nil)
		}
	}
}

// TestChangePointsWindowEnd checks a step near the end of a window (120
// lies 45 values into the window [75, 125)): without placing the change
// points again after the merge step, these seeds put it at 119.
func TestChangePointsWindowEnd(t *testing.T) {
	for _, seed := range []uint64{88, 119} {
		x := stepSeries(seed, 200, 0.015, []int{120}, []float64{1.25})
		if got := indexes(history.ChangePoints(x, nil)); !slices.Equal(got, []int{120}) {
			t.Errorf("seed %d: change points %v, want [120]", seed, got)
		}
	}
}
