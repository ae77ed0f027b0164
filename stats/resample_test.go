package stats

import (
	"math/rand/v2"
	"testing"
)

// The resampling loops never build the resample; these tests build it the
// slow, obvious way from the same random stream and require the same
// statistic: exactly for the median (same order statistics), to rounding
// for the mean (gonum sums in a different order).

// refIID, refHier and refBlock materialise one replicate as documented.
func refIID(r *rand.Rand, x []float64) []float64 {
	var out []float64
	for range x {
		out = append(out, x[r.IntN(len(x))])
	}
	return out
}

func refHier(r *rand.Rand, groups [][]float64) []float64 {
	var out []float64
	for range groups {
		g := groups[r.IntN(len(groups))]
		for range g {
			out = append(out, g[r.IntN(len(g))])
		}
	}
	return out
}

func refBlock(r *rand.Rand, x []float64, l int) []float64 {
	var out []float64
	for len(out) < len(x) {
		s := r.IntN(len(x))
		for j := 0; j < l && len(out) < len(x); j++ {
			out = append(out, x[(s+j)%len(x)])
		}
	}
	return out
}

func TestPoolMatchesMaterialised(t *testing.T) {
	src := newRand(21)
	// Unequal group sizes make the pooled resample's length vary, so both
	// odd and even lengths reach the median; rounding to 0.1 adds ties.
	var groups [][]float64
	for _, m := range []int{3, 8, 1, 6, 5} {
		g := timings(src, m, 10, 0.3)
		for i := range g {
			g[i] = float64(int(g[i]*10)) / 10
		}
		groups = append(groups, g)
	}
	var flat []float64
	for _, g := range groups {
		flat = append(flat, g...)
	}
	for _, s := range []Stat{StatMean, StatMedian} {
		tol := 1e-13
		if s == StatMedian {
			tol = 0
		}
		ph, _ := newPool(groups, s)
		pf, _ := newPool([][]float64{flat}, s)
		for _, c := range []struct {
			name string
			fast func(r *rand.Rand) float64
			slow func(r *rand.Rand) []float64
		}{
			{"iid", pf.iid, func(r *rand.Rand) []float64 { return refIID(r, flat) }},
			{"hier", ph.hier, func(r *rand.Rand) []float64 { return refHier(r, groups) }},
			{"block3", func(r *rand.Rand) float64 { return pf.block(r, 3) },
				func(r *rand.Rand) []float64 { return refBlock(r, flat, 3) }},
			{"block5", func(r *rand.Rand) float64 { return pf.block(r, 5) },
				func(r *rand.Rand) []float64 { return refBlock(r, flat, 5) }},
		} {
			for seed := range uint64(300) {
				got := c.fast(newRand(seed))
				want := s.Of(c.slow(newRand(seed)))
				if !near(got, want, tol) {
					t.Fatalf("%s/%v seed %d: pool gives %.17g, materialised resample %.17g", c.name, s, seed, got, want)
				}
			}
		}
		if got, want := ph.full(), s.Of(flat); !near(got, want, tol) {
			t.Errorf("full/%v = %v, want %v", s, got, want)
		}
	}
}
