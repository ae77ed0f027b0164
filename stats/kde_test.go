package stats

import (
	"math"
	"testing"
)

// Samples for the KDE known answers, drawn by NumPy 1.24.2
// (np.random.default_rng(7); kdeC = round(normal(100, 3, 30), 2); kdeD =
// round(concat(normal(101, 3, 25), normal(115, 2, 5)), 2)): kdeD has a
// second mode.
var (
	kdeC = []float64{100.0, 100.9, 99.18, 97.33, 98.64, 97.03, 100.18, 104.02, 98.52, 98.14, 101.47, 101.07, 100.32, 97.21, 99.91, 102.09, 95.97, 98.63, 94.3, 96.13, 94.47, 99.29, 96.2, 100.81, 100.47, 99.44, 92.45, 98.38, 99.85, 100.34}
	kdeD = []float64{96.41, 99.57, 98.06, 98.57, 104.18, 98.58, 100.9, 103.65, 99.25, 100.66, 101.33, 101.19, 97.32, 101.23, 105.08, 96.36, 103.58, 101.36, 99.08, 107.0, 103.29, 97.4, 101.22, 102.73, 100.43, 116.37, 114.87, 116.33, 117.88, 113.65}
)

// TestKDEKnown compares with SciPy 1.10.1:
// k = scipy.stats.gaussian_kde(x, bw_method='silverman');
// bandwidth = sqrt(k.covariance[0,0]); density = k([90, 100, 104.5, 115]).
// Tolerance 1e-12 relative (the formula is the same; only summation order
// differs).
func TestKDEKnown(t *testing.T) {
	at := []float64{90, 100, 104.5, 115}
	for _, c := range []struct {
		name string
		x    []float64
		bw   float64
		pdf  []float64
	}{
		{"C", kdeC, 1.3457794573315178, []float64{0.001985043938318216, 0.15521561120953753, 0.013377581442315321, 3.4677320211402507e-17}},
		{"D", kdeD, 3.3642424647986235, []float64{0.002981554660488578, 0.07570726228245787, 0.05157635416619668, 0.017984883025702805}},
	} {
		k := NewKDE(c.x)
		if got := k.Bandwidth(); !near(got, c.bw, 1e-12) {
			t.Errorf("NewKDE(%s).Bandwidth() = %.17g, want %.17g (SciPy)", c.name, got, c.bw)
		}
		for i, v := range at {
			if got := k.At(v); !near(got, c.pdf[i], 1e-12) {
				t.Errorf("NewKDE(%s).At(%v) = %.17g, want %.17g (SciPy)", c.name, v, got, c.pdf[i])
			}
		}
	}
}

// TestKLSimilarityKnown compares with SciPy 1.10.1 and NumPy 1.24.2 doing the
// documented steps: fences by np.quantile([0.25, 0.75]) (type 7), grid =
// np.linspace(min lower fence, max upper fence, points), f, g =
// gaussian_kde(·, bw_method='silverman')(grid), kl = entropy(f, g, base=2) +
// entropy(g, f, base=2), p = 2**-kl. Tolerance 1e-9 relative: the sums run
// over up to 1,000 terms and the result is an exponential of them.
func TestKLSimilarityKnown(t *testing.T) {
	for _, c := range []struct {
		name   string
		a, b   []float64
		points int
		want   float64
	}{
		{"C,D,1000", kdeC, kdeD, 1000, 0.31074008808506404},
		{"C,D,50", kdeC, kdeD, 50, 0.29804904501110385},
		{"C,C[:20],1000", kdeC, kdeC[:20], 1000, 0.9798391440730538},
		{"C,C,1000", kdeC, kdeC, 1000, 1},
	} {
		if got := KLSimilarity(c.a, c.b, c.points); !near(got, c.want, 1e-9) {
			t.Errorf("KLSimilarity(%s) = %.17g, want %.17g (SciPy)", c.name, got, c.want)
		}
	}
}

func TestKLSimilarityProperties(t *testing.T) {
	// Symmetric by construction, and invariant to a common change of scale
	// and location (fences, bandwidths and grid all move with the data).
	p := KLSimilarity(kdeC, kdeD, 1000)
	if q := KLSimilarity(kdeD, kdeC, 1000); !near(q, p, 1e-12) {
		t.Errorf("KLSimilarity not symmetric: %v vs %v", p, q)
	}
	scaled := func(x []float64) []float64 {
		y := make([]float64, len(x))
		for i, v := range x {
			y[i] = 1e6 + 1000*v
		}
		return y
	}
	if q := KLSimilarity(scaled(kdeC), scaled(kdeD), 1000); !near(q, p, 1e-6) {
		t.Errorf("KLSimilarity changed under affine map: %v vs %v", q, p)
	}
	// Disjoint samples give 0: each density underflows where the other lives.
	far := make([]float64, len(kdeC))
	for i, v := range kdeC {
		far[i] = v + 1000
	}
	if got := KLSimilarity(kdeC, far, 1000); got != 0 {
		t.Errorf("KLSimilarity of disjoint samples = %v, want 0", got)
	}
}

func TestKDEBadData(t *testing.T) {
	for _, x := range [][]float64{nil, {1}, {1, math.NaN(), 3}, {2, 2, 2}} {
		if v := NewKDE(x).At(1); !math.IsNaN(v) {
			t.Errorf("NewKDE(%v).At(1) = %v, want NaN", x, v)
		}
		if v := KLSimilarity(x, kdeC, 100); !math.IsNaN(v) {
			t.Errorf("KLSimilarity(%v, C) = %v, want NaN", x, v)
		}
	}
	mustPanic(t, "KLSimilarity(points=1)", func() { KLSimilarity(kdeC, kdeD, 1) })
}
