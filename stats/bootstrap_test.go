package stats

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// replicateMoments returns the mean and variance (n denominator) of B
// replicates drawn by draw.
func replicateMoments(B int, draw func() float64) (mean, variance float64) {
	reps := make([]float64, B)
	for i := range reps {
		reps[i] = draw()
	}
	mean = Mean(reps)
	for _, v := range reps {
		variance += (v - mean) * (v - mean)
	}
	return mean, variance / float64(B)
}

// TestResampleMoments compares the replicates of the three resampling
// schemes with their exact bootstrap mean and variance, derived by hand
// (the bootstrap distribution of a mean is known in closed form):
//
//	iid:          E* = x̄,  Var* = σ̂²/n,  σ̂² = 1/n Σ (x_i − x̄)²
//	              (Efron & Tibshirani 1993, eq. 5.12)
//	two-level, G groups of m: E* = x̄,
//	              Var* = 1/G · (1/G Σ_g (x̄_g − x̄)² + 1/G Σ_g σ̂²_g/m)
//	              (the mean of G iid group draws, each a group mean plus the
//	              within-group bootstrap noise σ̂²_g/m)
//	circular blocks of l, n = k·l: E* = x̄,
//	              Var* = 1/k · 1/n Σ_s (B̄_s − x̄)²
//	              (B̄_s the mean of the block starting at s, wrapping)
//
// With B = 40,000 replicates the variance estimate has relative standard
// error √(2/B) ≈ 0.7 %; the tolerance is 4 %. The replicate mean must be
// within 4 of its standard errors √(Var*/B) of x̄.
func TestResampleMoments(t *testing.T) {
	const B = 40000
	r := newRand(11)

	check := func(name string, p *pool, draw func() float64, wantMean, wantVar float64) {
		t.Helper()
		mean, variance := replicateMoments(B, draw)
		if math.Abs(mean-wantMean) > 4*math.Sqrt(wantVar/B) {
			t.Errorf("%s: replicate mean %v, want %v", name, mean, wantMean)
		}
		if !near(variance, wantVar, 0.04) {
			t.Errorf("%s: replicate variance %.6g, want %.6g", name, variance, wantVar)
		}
	}
	plugVar := func(x []float64) float64 { // σ̂², n denominator
		m, s := Mean(x), 0.0
		for _, v := range x {
			s += (v - m) * (v - m)
		}
		return s / float64(len(x))
	}

	x := timings(r, 60, 100, 0.1)
	p, _ := newPool([][]float64{x}, StatMean)
	check("iid", p, func() float64 { return p.iid(r) }, Mean(x), plugVar(x)/60)

	// Within-group spread larger than between, so that resampling only
	// the groups (a plausible bug) would miss a third of the variance.
	const G, m = 12, 15
	groups := forks(r, G, m, 100, 0.05, 0.15)
	var all, means []float64
	var within float64
	for _, g := range groups {
		all = append(all, g...)
		means = append(means, Mean(g))
		within += plugVar(g) / m
	}
	ph, _ := newPool(groups, StatMean)
	wantVar := (plugVar(means) + within/G) / G
	check("hierarchical", ph, func() float64 { return ph.hier(r) }, Mean(all), wantVar)

	// An AR(1) sequence, where blocks matter; n = 125 = 25 blocks of 5.
	seq := make([]float64, 125)
	seq[0] = 100
	for i := 1; i < len(seq); i++ {
		seq[i] = 100 + 0.8*(seq[i-1]-100) + r.NormFloat64()
	}
	l := BlockLength(len(seq))
	if l != 5 {
		t.Fatalf("BlockLength(125) = %d, want 5", l)
	}
	var blockVar float64
	xbar := Mean(seq)
	for s := range seq {
		var sum float64
		for j := range l {
			sum += seq[(s+j)%len(seq)]
		}
		blockVar += (sum/float64(l) - xbar) * (sum/float64(l) - xbar)
	}
	pb, _ := newPool([][]float64{seq}, StatMean)
	check("block", pb, func() float64 { return pb.block(r, l) }, xbar, blockVar/float64(len(seq))/25)
}

// TestPercentileMedianExact checks the median's percentile interval against
// the exact bootstrap distribution of a sample median (Efron 1982, §10.4):
// for odd n and distinct values x_(1) < … < x_(n), the resampled median is
// at most x_(k) iff at least (n+1)/2 of the n draws are among the k
// smallest, so
//
//	P*(median* ≤ x_(k)) = P(Binomial(n, k/n) ≥ (n+1)/2)
//
// computed here with gonum's distuv.Binomial. With B = 20,000 replicates the
// empirical α/2 and 1−α/2 quantiles are exactly the order statistics where
// that CDF crosses them, provided the crossing is not within a few Monte
// Carlo standard errors (√(0.05·0.95/B) ≈ 0.0015); the test asserts that
// margin (0.02 for n = 25 at 90 %) so it cannot pass by luck.
func TestPercentileMedianExact(t *testing.T) {
	const n, B, level = 25, 20000, 0.90
	x := timings(newRand(5), n, 100, 0.1)
	sorted := slices.Sorted(slices.Values(x))
	cdf := func(k int) float64 { // P*(median* ≤ sorted[k-1])
		b := distuv.Binomial{N: n, P: float64(k) / n}
		return 1 - b.CDF(float64((n+1)/2-1))
	}
	a := (1 - level) / 2
	var lo, hi float64
	for k := 1; k <= n; k++ {
		c := cdf(k)
		if math.Abs(c-a) < 0.01 || math.Abs(c-(1-a)) < 0.01 {
			t.Fatalf("CDF %v at k=%d too near a quantile for an exact test; change n or level", c, k)
		}
		if lo == 0 && c >= a {
			lo = sorted[k-1]
		}
		if hi == 0 && c >= 1-a {
			hi = sorted[k-1]
		}
	}
	iv := Bootstrap{level, B}.Percentile(x, StatMedian, newRand(6))
	if iv.Lo != lo || iv.Hi != hi || iv.Center != sorted[n/2] {
		t.Errorf("Percentile median = %+v, want [%v, %v] around %v (exact binomial)", iv, lo, hi, sorted[n/2])
	}
}

// TestPercentileMeanNormal compares the mean's percentile interval with its
// large-sample normal limit, x̄ ± z_(1−α/2)·σ̂/√n (σ̂ with n denominator, the
// exact bootstrap standard error), for n = 200 normal values at 90 %.
// Tolerance 4 % of the half-width: Monte Carlo error of the quantiles with
// B = 20,000 is about 1 %, the remaining skewness of a mean of 200 normal
// values smaller.
func TestPercentileMeanNormal(t *testing.T) {
	r := newRand(9)
	x := make([]float64, 200)
	for i := range x {
		x[i] = 10 + r.NormFloat64()
	}
	n := float64(len(x))
	se := StdDev(x) * math.Sqrt((n-1)/n) / math.Sqrt(n)
	z := distuv.UnitNormal.Quantile(0.95)
	iv := Bootstrap{0.90, 20000}.Percentile(x, StatMean, newRand(10))
	m := Mean(x)
	if !near(m-iv.Lo, z*se, 0.04) || !near(iv.Hi-m, z*se, 0.04) {
		t.Errorf("Percentile mean = %+v, want about %v ± %v", iv, m, z*se)
	}
}

// TestStudentizedNormal compares the bootstrap-t interval of normal data
// with Student's t interval, x̄ ± t_(n−1, 1−α/2)·s/√n (distuv.StudentsT), to
// which it converges for normal data; n = 200, 90 %, tolerance 5 % of the
// half-width (the bootstrap-t tails are noisier than the percentile's).
func TestStudentizedNormal(t *testing.T) {
	r := newRand(12)
	x := make([]float64, 200)
	for i := range x {
		x[i] = 10 + r.NormFloat64()
	}
	n := float64(len(x))
	se := StdDev(x) / math.Sqrt(n)
	tq := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.95)
	iv := Bootstrap{0.90, 20000}.Studentized(x, newRand(13))
	m := Mean(x)
	if !near(m-iv.Lo, tq*se, 0.05) || !near(iv.Hi-m, tq*se, 0.05) {
		t.Errorf("Studentized = %+v, want about %v ± %v", iv, m, tq*se)
	}
}

// TestStudentizedSkew checks the property that distinguishes bootstrap-t
// from the percentile interval: for right-skewed data it reaches further
// up than down from the mean (Efron & Tibshirani 1993 §12.5).
func TestStudentizedSkew(t *testing.T) {
	x := timings(newRand(14), 30, 100, 0.8)
	iv := Bootstrap{0.95, 10000}.Studentized(x, newRand(15))
	if !(iv.Hi-iv.Center > iv.Center-iv.Lo) {
		t.Errorf("Studentized of right-skewed data = %+v, want a longer upper arm", iv)
	}
}

func TestBlockLength(t *testing.T) {
	for n, want := range map[int]int{1: 1, 2: 2, 8: 2, 9: 3, 27: 3, 28: 4, 50: 4, 64: 4, 65: 5, 1000: 10, 1001: 11} {
		if got := BlockLength(n); got != want {
			t.Errorf("BlockLength(%d) = %d, want %d (⌈n^(1/3)⌉)", n, got, want)
		}
	}
}

// TestBlockSeesLevelShifts checks why BlockRatio exists: for a sequence
// with level shifts lasting several iterations its interval is wider than
// the one that treats the values as independent.
func TestBlockSeesLevelShifts(t *testing.T) {
	r := newRand(16)
	seq := make([]float64, 200)
	level := 100.0
	for i := range seq {
		if i%10 == 0 {
			level = 100 * (1 + 0.05*r.NormFloat64())
		}
		seq[i] = level * (1 + 0.005*r.NormFloat64())
	}
	ref := timings(r, 200, 100, 0.005)
	b := Bootstrap{0.95, 4000}
	block := b.BlockRatio(seq, ref, StatMean, newRand(17))
	// The same ratio with independent resampling, from the same seed.
	iid := make([]float64, b.Replicates)
	pn, _ := newPool([][]float64{seq}, StatMean)
	pd, _ := newPool([][]float64{ref}, StatMean)
	rr := newRand(17)
	for i := range iid {
		n := pn.iid(rr)
		iid[i] = n / pd.iid(rr)
	}
	indep := b.percentile(block.Center, iid)
	if !(block.RelWidth() > 1.5*indep.RelWidth()) {
		t.Errorf("block interval %+v not clearly wider than independent %+v", block, indep)
	}
}

// TestRatioWidthDeltaMethod checks that a ratio interval reflects the
// uncertainty of both sides. By the delta method the relative width of
// stat(num)/stat(den) with independent sides is about
// √(RelWidth(num)² + RelWidth(den)²) when the relative widths are small;
// tolerance 10 %. Dropping the resampling of either side would make it
// about 1/√2 of that.
func TestRatioWidthDeltaMethod(t *testing.T) {
	r := newRand(31)
	gx := forks(r, 20, 20, 1000, 0.03, 0.05)
	gy := forks(r, 20, 20, 1100, 0.03, 0.05)
	// Independent values for BlockRatio, so that its blocks change
	// nothing and the iid Percentile gives each side's width.
	x, y := timings(r, 400, 1000, 0.05), timings(r, 400, 1100, 0.05)
	b := Bootstrap{0.95, 10000}
	for _, s := range []Stat{StatMean, StatMedian} {
		for _, c := range []struct {
			name          string
			ratio, nu, de Interval
		}{
			{"HierarchicalRatio", b.HierarchicalRatio(gy, gx, s, newRand(1)), b.Hierarchical(gy, s, newRand(2)), b.Hierarchical(gx, s, newRand(3))},
			{"BlockRatio", b.BlockRatio(y, x, s, newRand(1)), b.Percentile(y, s, newRand(2)), b.Percentile(x, s, newRand(3))},
		} {
			want := math.Hypot(c.nu.RelWidth(), c.de.RelWidth())
			if got := c.ratio.RelWidth(); !near(got, want, 0.10) {
				t.Errorf("%s/%v: RelWidth %.4g, want about %.4g (delta method)", c.name, s, got, want)
			}
		}
	}
}
