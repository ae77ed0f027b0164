package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTrendByHand checks Trend against values worked out by hand. With 3
// and 4 values Student's t has 1 and 2 degrees of freedom, whose two-sided
// tail has a closed form: p = 1 − 2·atan(|t|)/π and p = 1 − |t|/sqrt(2+t²).
//
//   - 1, 3, 2: slope 0.5, residuals −0.5, 1, −0.5, se = sqrt(1.5/1/2), so
//     t = 1/√3, atan(t) = π/6 and p = 2/3.
//   - 1, 3, 2, 4: slope 4/5, residuals −0.3, 0.9, −0.9, 0.3, se =
//     sqrt(1.8/2/5), so t² = 32/9 and p = 1 − sqrt(32/50) = 0.2.
func TestTrendByHand(t *testing.T) {
	for _, tt := range []struct {
		y        []float64
		slope, p float64
	}{
		{[]float64{1, 3, 2}, 0.5, 2.0 / 3},
		{[]float64{1, 3, 2, 4}, 0.8, 0.2},
		{[]float64{4, 2, 3, 1}, -0.8, 0.2},
		{[]float64{5, 5, 5, 5}, 0, 1},
		{[]float64{1, 2, 3, 4, 5}, 1, 0},
	} {
		slope, p := Trend(tt.y)
		if math.Abs(slope-tt.slope) > 1e-12 || math.Abs(p-tt.p) > 1e-9 {
			t.Errorf("Trend(%v) = %v, %v; want %v, %v", tt.y, slope, p, tt.slope, tt.p)
		}
	}
	for _, y := range [][]float64{nil, {1}, {1, 2}, {1, math.NaN(), 3}} {
		if slope, p := Trend(y); !math.IsNaN(slope) || !math.IsNaN(p) {
			t.Errorf("Trend(%v) = %v, %v; want NaN, NaN", y, slope, p)
		}
	}
}

// TestTrendInvariance checks that p does not depend on the unit or level of
// the data, and that reversing a series negates the slope and keeps p.
func TestTrendInvariance(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		y := make([]float64, 8)
		for i := range y {
			y[i] = 1 + 0.02*float64(i) + 0.05*r.NormFloat64()
		}
		s, p := Trend(y)
		scaled := make([]float64, len(y))
		for i, v := range y {
			scaled[i] = 1e-9*v + 3e-9
		}
		s2, p2 := Trend(scaled)
		if math.Abs(s2-1e-9*s) > 1e-9*1e-9 || math.Abs(p2-p) > 1e-9 {
			t.Errorf("scaled: %v, %v; want %v, %v", s2, p2, 1e-9*s, p)
		}
		rev := slices.Clone(y)
		slices.Reverse(rev)
		s3, p3 := Trend(rev)
		if math.Abs(s3+s) > 1e-12 || math.Abs(p3-p) > 1e-9 {
			t.Errorf("reversed: %v, %v; want %v, %v", s3, p3, -s, p)
		}
	}
}

// TestTrendLevel checks, on seeded Gaussian noise without a trend, that
// p ≤ 0.05 in about 5% of series (4,000 series of 6 values: the binomial
// standard error is 0.34%), and that a decay of 10% per value among 1% noise
// is found in every series.
func TestTrendLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	r := rand.New(rand.NewPCG(1, 2))
	const trials = 4000
	flat, decay := 0, 0
	y := make([]float64, 6)
	for range trials {
		for i := range y {
			y[i] = 1 + 0.1*r.NormFloat64()
		}
		if _, p := Trend(y); p <= 0.05 {
			flat++
		}
		for i := range y {
			y[i] = math.Pow(0.9, float64(i)) * (1 + 0.01*r.NormFloat64())
		}
		if _, p := Trend(y); p <= 0.05 {
			decay++
		}
	}
	if rate := float64(flat) / trials; math.Abs(rate-0.05) > 0.015 {
		t.Errorf("flat noise: p <= 0.05 in %.2f%% of series, want 5%% ± 1.5%%", 100*rate)
	}
	if decay != trials {
		t.Errorf("decay: found in %d of %d series, want all", decay, trials)
	}
}
