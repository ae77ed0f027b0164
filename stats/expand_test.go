package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestExpansionKnown(t *testing.T) {
	// Values calculated by R 4.2.2 using
	// sqrt(n/(n-1)) * qt(1-alpha/2, n-1) / qnorm(1-alpha/2); tolerance 1e-8.
	for _, tc := range []struct {
		n, alpha, want float64
	}{
		{2, 0.01, 34.9496088755}, {3, 0.01, 4.7190241966}, {5, 0.01, 1.9983989415},
		{10, 0.01, 1.3299124439}, {30, 0.01, 1.0883900656},
		{2, 0.05, 9.1681720715}, {5, 0.05, 1.5837842022}, {30, 0.05, 1.0613426480},
	} {
		if got := Expansion(tc.n, tc.alpha); math.Abs(got-tc.want) > 1e-8 {
			t.Errorf("Expansion(%v, %v) = %.10f, want %.10f", tc.n, tc.alpha, got, tc.want)
		}
	}
}

func TestExpandProperties(t *testing.T) {
	iv := Interval{Center: 2, Lo: 1.8, Hi: 2.3, Level: 0.99}
	e := Expand(iv, 5)
	if !(e.Lo < iv.Lo && e.Hi > iv.Hi && e.Center == iv.Center && e.Level == iv.Level) {
		t.Errorf("Expand(%+v, 5) = %+v, want a wider interval around the same centre", iv, e)
	}
	// On the log scale: (lo/c)^k.
	k := Expansion(5, 0.01)
	if want := 2 * math.Pow(0.9, k); math.Abs(e.Lo-want) > 1e-12 {
		t.Errorf("Lo = %v, want %v", e.Lo, want)
	}
	// Many units: almost no change; fewer units: wider.
	if big := Expand(iv, 1e6); math.Abs(big.Lo-iv.Lo) > 1e-3 || math.Abs(big.Hi-iv.Hi) > 1e-3 {
		t.Errorf("Expand with 1e6 units = %+v, want about %+v", big, iv)
	}
	if Expand(iv, 3).RelWidth() <= Expand(iv, 5).RelWidth() {
		t.Error("3 units give no wider interval than 5")
	}
	// Left alone: one unit, NaN bounds, non-positive intervals.
	for _, in := range []Interval{iv, {Center: 1, Lo: math.NaN(), Hi: math.NaN(), Level: 0.99}, {Center: 1, Lo: -1, Hi: 2, Level: 0.99}} {
		n := 5.0
		if in == iv {
			n = 1
		}
		if got := Expand(in, n); !(got == in || (math.IsNaN(got.Lo) && math.IsNaN(in.Lo))) {
			t.Errorf("Expand(%+v, %v) = %+v, want it unchanged", in, n, got)
		}
	}
}

// TestExpandCoverage is a seeded simulation: a nominal 99% hierarchical
// interval over 5 forks (2% between forks, 1% within) covers the
// true mean too rarely; expanded, it covers at least 98%.
func TestExpandCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	b := Bootstrap{Level: 0.99, Replicates: 1000}
	const trials = 2000
	sim := func(expand bool) func(r *rand.Rand) (Interval, float64) {
		return func(r *rand.Rand) (Interval, float64) {
			groups := forks(r, 5, 10, 100, 0.02, 0.01)
			iv := b.Hierarchical(groups, StatMean, r)
			if expand {
				iv = Expand(iv, 5)
			}
			return iv, 100
		}
	}
	plain, expanded := coverage(trials, sim(false)), coverage(trials, sim(true))
	t.Logf("99%% hierarchical interval over 5 forks covers %.1f%%, expanded %.1f%%", 100*plain, 100*expanded)
	if plain > 0.975 {
		t.Errorf("plain coverage %.3f: the simulation no longer shows the problem Expand fixes", plain)
	}
	if expanded < 0.98 {
		t.Errorf("expanded coverage %.3f, want >= 0.98", expanded)
	}
}

func TestWelchDF(t *testing.T) {
	// Values calculated by R 4.2.2 using
	// t.test(log(c(1.0,1.02,0.99)), log(c(1.05,1.01,1.10,1.03)))$parameter;
	// tolerance 1e-9.
	a := []float64{math.Log(1.0), math.Log(1.02), math.Log(0.99)}
	b := []float64{math.Log(1.05), math.Log(1.01), math.Log(1.10), math.Log(1.03)}
	if got, want := WelchDF(a, b), 4.20585995542; math.Abs(got-want) > 1e-9 {
		t.Errorf("WelchDF = %.11f, want %.11f", got, want)
	}
	if got := WelchDF([]float64{1, 1}, []float64{2, 2, 2}); got != 3 {
		t.Errorf("WelchDF of constant samples = %v, want n_a+n_b-2 = 3", got)
	}
	if got := WelchDF([]float64{1}, b); !math.IsNaN(got) {
		t.Errorf("WelchDF with one value = %v, want NaN", got)
	}
	// Value calculated by R 4.2.2 using
	// sqrt(3/2) * qt(0.995, 4) / qnorm(0.995); tolerance 1e-8.
	if got, want := ExpansionDF(3, 4, 0.01), 2.1891363583; math.Abs(got-want) > 1e-8 {
		t.Errorf("ExpansionDF(3, 4, 0.01) = %.10f, want %.10f", got, want)
	}
}
