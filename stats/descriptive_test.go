package stats

import (
	"math"
	"slices"
	"testing"
)

// Reference samples for the known-answer tests. refA has one large outlier,
// refB an even length and ties.
var (
	refA = []float64{102.3, 98.7, 101.1, 99.4, 100.0, 97.8, 103.6, 100.9, 99.9, 98.2, 150.4, 101.7, 100.3, 99.1, 102.8}
	refB = []float64{5.1, 4.9, 5.6, 5.0, 4.7, 5.3, 5.2, 6.8, 4.8, 5.0, 5.4, 5.1}
)

// near reports whether got is within relative tolerance tol of want
// (absolute when want is 0); NaN matches only NaN.
func near(got, want, tol float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	if want == 0 {
		return math.Abs(got) <= tol
	}
	return math.Abs(got-want) <= tol*math.Abs(want)
}

// TestDescriptiveKnown compares with R 4.2.2 (Rscript, options(digits=17)),
// calls as named per row; tolerance 1e-12 relative, i.e. rounding only.
func TestDescriptiveKnown(t *testing.T) {
	const tol = 1e-12
	for _, c := range []struct {
		name string
		fn   func([]float64) float64
		x    []float64
		want float64
	}{
		{"mean(a)", Mean, refA, 103.74666666666667},
		{"sd(a)", StdDev, refA, 13.015477965355966},
		{"sd(a)/mean(a)", CV, refA, 0.125454420691646},
		{"median(a)", Median, refA, 100.3},
		{"mad(a, constant=1)", MAD, refA, 1.4000000000000057},
		{"mad(a, constant=1)/median(a)", RMAD, refA, 0.013958125623130665},
		{"exp(mean(log(a)))", GeoMean, refA, 103.14200543836654},
		{"mean(b)", Mean, refB, 5.2416666666666663},
		{"sd(b)", StdDev, refB, 0.55178772817968402},
		{"sd(b)/mean(b)", CV, refB, 0.10526951888960587},
		{"median(b)", Median, refB, 5.0999999999999996},
		{"mad(b, constant=1)", MAD, refB, 0.19999999999999973},
		{"mad(b, constant=1)/median(b)", RMAD, refB, 0.039215686274509755},
		{"exp(mean(log(b)))", GeoMean, refB, 5.2179364734715792},
	} {
		if got := c.fn(c.x); !near(got, c.want, tol) {
			t.Errorf("%s = %.17g, want %.17g (R)", c.name, got, c.want)
		}
	}
}

// TestQuantileKnown compares with R 4.2.2:
// quantile(x, c(0, 0.1, 0.25, 1/3, 0.5, 0.75, 0.9, 0.99, 1), type=7);
// tolerance 1e-12 relative.
func TestQuantileKnown(t *testing.T) {
	ps := []float64{0, 0.1, 0.25, 1.0 / 3, 0.5, 0.75, 0.9, 0.99, 1}
	for _, c := range []struct {
		name string
		x    []float64
		want []float64
	}{
		{"a", refA, []float64{97.799999999999997, 98.400000000000006, 99.25, 99.733333333333348, 100.3, 102, 103.28, 143.84799999999996, 150.40000000000001}},
		{"b", refB, []float64{4.7000000000000002, 4.8099999999999996, 4.9749999999999996, 5, 5.0999999999999996, 5.3249999999999993, 5.5800000000000001, 6.668000000000001, 6.7999999999999998}},
	} {
		orig := slices.Clone(c.x)
		for i, p := range ps {
			if got := Quantile(c.x, p); !near(got, c.want[i], 1e-12) {
				t.Errorf("Quantile(%s, %v) = %.17g, want %.17g (R type 7)", c.name, p, got, c.want[i])
			}
		}
		if !slices.Equal(orig, c.x) {
			t.Errorf("Quantile modified its input %s", c.name)
		}
	}
}

// TestDescriptiveBadData checks the NaN conventions: bad data gives NaN.
func TestDescriptiveBadData(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name string
		got  float64
	}{
		{"Mean(nil)", Mean(nil)},
		{"StdDev(one)", StdDev([]float64{3})},
		{"CV(one)", CV([]float64{3})},
		{"Median(nil)", Median(nil)},
		{"Median(NaN)", Median([]float64{1, nan, 2})},
		{"MAD(nil)", MAD(nil)},
		{"MAD(NaN)", MAD([]float64{1, nan, 2})},
		{"GeoMean(nil)", GeoMean(nil)},
		{"GeoMean(zero)", GeoMean([]float64{1, 0, 2})},
		{"GeoMean(negative)", GeoMean([]float64{1, -1, 2})},
		{"GeoMean(NaN)", GeoMean([]float64{1, nan})},
		{"Quantile(nil)", Quantile(nil, 0.5)},
	} {
		if !math.IsNaN(c.got) {
			t.Errorf("%s = %v, want NaN", c.name, c.got)
		}
	}
}

func TestQuantilePanics(t *testing.T) {
	for _, p := range []float64{-0.1, 1.1, math.NaN()} {
		mustPanic(t, "Quantile", func() { Quantile(refA, p) })
	}
}

// TestMedianKeepsInput guards the documented promise that Median, MAD and
// Stat.Of do not reorder their input.
func TestMedianKeepsInput(t *testing.T) {
	x := slices.Clone(refA)
	Median(x)
	MAD(x)
	StatMedian.Of(x)
	if !slices.Equal(x, refA) {
		t.Errorf("input reordered: %v", x)
	}
}

// mustPanic fails t unless f panics with a message starting "stats: ".
func mustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		e := recover()
		if e == nil {
			t.Errorf("%s did not panic", name)
			return
		}
		msg, _ := e.(string)
		if len(msg) < 7 || msg[:7] != "stats: " {
			t.Errorf("%s panicked with %v, want a \"stats: \" message", name, e)
		}
	}()
	f()
}
