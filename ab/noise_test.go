package ab

import (
	"math"
	"testing"

	"github.com/mbench/mbench/run"
)

// TestBinomialTail checks binomialTail against the exact sum
// Σ_{j≥k} C(n,j) p^j (1−p)^(n−j), which R's pbinom(k−1, n, p,
// lower.tail = FALSE) computes, evaluated term by term (Python's
// math.comb): 0.2195832218 and 0.0513883749.
func TestBinomialTail(t *testing.T) {
	for _, c := range []struct {
		n, k    int
		p, want float64
	}{
		{6, 3, 0.28, 0.2195832218},
		{16, 8, 0.28, 0.0513883749},
	} {
		if got := binomialTail(c.n, c.k, c.p); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("P(X ≥ %d), X ~ Bin(%d, %v) = %.7f, want %.7f (the exact sum, to 1e-6)", c.k, c.n, c.p, got, c.want)
		}
	}
}

func TestNoisePairs(t *testing.T) {
	noise := func(slow ...float64) *run.Noise {
		n := &run.Noise{}
		for i, s := range slow {
			n.CPUs = append(n.CPUs, run.CPUNoise{CPU: i, SlowFraction: s})
		}
		return n
	}
	for _, c := range []struct {
		slow []float64
		want int
	}{
		{[]float64{0, 0.01}, 24},
		{[]float64{0.05, 0.02}, 24},
		{[]float64{0.02, 0.10}, 24},
		{[]float64{0.14, 0.13}, 32},
		{[]float64{0.17}, 48},
		{[]float64{0.9}, 48},
	} {
		if got := NoisePairs(noise(c.slow...)); got != c.want {
			t.Errorf("NoisePairs(slow %v) = %d, want %d", c.slow, got, c.want)
		}
	}
}

func TestTurnIterations(t *testing.T) {
	for _, c := range []struct {
		iterations int
		long       float64
		want       int
	}{
		{24, 0.5, 24},
		{24, 1, 24},
		{24, 2, 12},
		{24, 3.5, 7},
		{24, 8.4, 6},
		{24, 1000, 6},
		{4, 10, 4},
		{24, math.NaN(), 24},
	} {
		if got := turnIterations(c.iterations, c.long); got != c.want {
			t.Errorf("turnIterations(%d, %v) = %d, want %d", c.iterations, c.long, got, c.want)
		}
	}
}
