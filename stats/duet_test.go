package stats

import (
	"math"
	"slices"
	"testing"
)

// TestWinsorize checks Bulej et al. 2020 §4's rule on cases worked by hand with
// p = 0.2: "replacing at most one observation in a run with its nearest
// neighbor when that observation is further than 20 % away from the min-max
// range of the remaining observations".
func TestWinsorize(t *testing.T) {
	for _, c := range []struct {
		x, want []float64
		why     string
	}{
		{[]float64{10, 11, 12, 20, 13}, []float64{10, 11, 12, 13, 13}, "max 7 above a range of 3"},
		{[]float64{10, 11, 12, 13, 13.6}, []float64{11, 11, 12, 13, 13.6}, "max 0.6 = 0.2·3 is not further; min 1 > 0.2·2.6 is"},
		{[]float64{10.5, 11, 12, 13, 13.5}, []float64{10.5, 11, 12, 13, 13.5}, "max 0.5 ≤ 0.2·3, min 0.5 ≤ 0.2·2.5"},
		{[]float64{0, 5, 6, 7, 13}, []float64{0, 5, 6, 7, 7}, "both out, max 6/7 beats min 5/8"},
		{[]float64{-1, 5, 6, 7, 12}, []float64{5, 5, 6, 7, 12}, "both out, min 6/7 beats max 5/8"},
		{[]float64{0, 5, 6, 7, 12}, []float64{0, 5, 6, 7, 7}, "tie 5/7 each: the maximum"},
		{[]float64{1, 1, 1, 2}, []float64{1, 1, 1, 1}, "others have zero range"},
		{[]float64{4, 1, 4, 1}, []float64{4, 1, 4, 1}, "repeated extremes are not outliers"},
		{[]float64{1, 100}, []float64{1, 100}, "fewer than three values"},
		{[]float64{3, 3, 3}, []float64{3, 3, 3}, "all equal"},
		{nil, []float64{}, "empty"},
	} {
		orig := slices.Clone(c.x)
		got := Winsorize(nil, c.x, DuetWinsorFraction)
		if !slices.Equal(got, c.want) {
			t.Errorf("Winsorize(%v) = %v, want %v: %s", c.x, got, c.want, c.why)
		}
		if !slices.Equal(c.x, orig) {
			t.Errorf("Winsorize modified x %v", orig)
		}
	}
	// p = 0 replaces any strictly separated extreme, a large p nothing.
	if got := Winsorize(nil, []float64{1, 2, 3, 4.1}, 0); !slices.Equal(got, []float64{1, 2, 3, 3}) {
		t.Errorf("Winsorize(p=0) = %v", got)
	}
	if got := Winsorize(nil, []float64{1, 2, 3, 40}, 100); !slices.Equal(got, []float64{1, 2, 3, 40}) {
		t.Errorf("Winsorize(p=100) = %v", got)
	}
	// dst with capacity is reused, and dst may be x itself.
	buf := make([]float64, 0, 8)
	x := []float64{10, 11, 12, 20, 13}
	if got := Winsorize(buf, x, 0.2); &got[0] != &buf[:1][0] {
		t.Error("Winsorize did not reuse dst")
	}
	if got := Winsorize(x, x, 0.2); !slices.Equal(got, []float64{10, 11, 12, 13, 13}) {
		t.Errorf("Winsorize in place = %v", got)
	}
}

// TestGeoMeanRatioCenter checks Bulej et al. 2020 §3 steps (3)–(4) by hand: run
// {2, 2, 2, 8} winsorises to {2, 2, 2, 2} (6 above a zero range), so its
// geometric mean is 2 (8^(1/4)·2^(3/4) = 2^1.5 without winsorising);
// {1, 1, 4, 4} keeps its repeated extremes, GM = (1·1·4·4)^(1/4) = 2;
// {0.5, 0.5, 0.5} has GM 0.5. The grand geometric mean is
// (2·2·0.5)^(1/3) = 2^(1/3). Tolerance 1e-14 relative.
func TestGeoMeanRatioCenter(t *testing.T) {
	runs := [][]float64{{2, 2, 2, 8}, {1, 1, 4, 4}, {0.5, 0.5, 0.5}}
	iv := Bootstrap{0.9, 1000}.GeoMeanRatio(runs, newRand(1))
	if want := math.Cbrt(2); !near(iv.Center, want, 1e-14) {
		t.Errorf("GeoMeanRatio center = %.17g, want 2^(1/3) = %.17g", iv.Center, want)
	}
	// Every replicate is a geometric mean of the run means 2, 2, 0.5, so
	// the bounds lie in [0.5, 2].
	if !(iv.Lo >= 0.5 && iv.Hi <= 2 && iv.Lo < iv.Hi) {
		t.Errorf("GeoMeanRatio = %+v, want bounds within [0.5, 2]", iv)
	}
	if runs[0][3] != 8 {
		t.Error("GeoMeanRatio modified its input")
	}
}
