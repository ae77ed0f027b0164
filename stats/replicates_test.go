package stats

import (
	"math"
	"testing"
)

// TestReplicatesMatchIntervals requires the documented identities to the
// bit: Percentile and Studentized are the type 7 quantiles of Replicates and
// StudentizedReplicates from the same stream, and filling the replicates in
// chunks continues one sequence.
func TestReplicatesMatchIntervals(t *testing.T) {
	const reps = 1000
	b := Bootstrap{Level: 0.99, Replicates: reps}
	a := (1 - b.Level) / 2
	src := newRand(5)
	for _, n := range []int{2, 3, 4, 7, 30} {
		x := timings(src, n, 100, 0.05)
		for seed := range uint64(20) {
			for _, s := range []Stat{StatMean, StatMedian} {
				want := b.Percentile(x, s, newRand(seed))
				got := make([]float64, reps)
				r := newRand(seed)
				// Uneven chunks: 1, 299, 700.
				for _, c := range [][2]int{{0, 1}, {1, 300}, {300, reps}} {
					if !Replicates(got[c[0]:c[1]], x, s, r) {
						t.Fatalf("n=%d: Replicates refused the data", n)
					}
				}
				lo, hi := Quantile(got, a), Quantile(got, 1-a)
				if lo != want.Lo || hi != want.Hi {
					t.Errorf("n=%d seed=%d %v: quantiles of Replicates [%v, %v], Percentile [%v, %v]",
						n, seed, s, lo, hi, want.Lo, want.Hi)
				}
			}
			want := b.Studentized(x, newRand(seed))
			got := make([]float64, reps)
			r := newRand(seed)
			for _, c := range [][2]int{{0, 500}, {500, reps}} {
				if !StudentizedReplicates(got[c[0]:c[1]], x, r) {
					t.Fatalf("n=%d: StudentizedReplicates refused the data", n)
				}
			}
			se := StdDev(x) / math.Sqrt(float64(n))
			mean := Mean(x)
			lo := mean - Quantile(got, 1-a)*se
			hi := mean - Quantile(got, a)*se
			if !same(lo, want.Lo) || !same(hi, want.Hi) {
				t.Errorf("n=%d seed=%d: bootstrap-t from replicates [%v, %v], Studentized [%v, %v]",
					n, seed, lo, hi, want.Lo, want.Hi)
			}
		}
	}
}

// same reports whether a and b are equal or both NaN.
func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

func TestReplicatesBadData(t *testing.T) {
	r := newRand(1)
	dst := []float64{7, 7}
	for _, x := range [][]float64{nil, {1}, {1, math.NaN(), 2}} {
		if Replicates(dst, x, StatMean, r) || Replicates(dst, x, StatMedian, r) || StudentizedReplicates(dst, x, r) {
			t.Errorf("%v: accepted", x)
		}
		if dst[0] != 7 || dst[1] != 7 {
			t.Errorf("%v: dst changed to %v", x, dst)
		}
	}
	// Nothing was drawn: r continues as a fresh generator with its seed.
	if got, want := r.Uint64(), newRand(1).Uint64(); got != want {
		t.Errorf("refused data drew from the generator")
	}
}

// TestReplicatesAllocs holds allocations independent of the number of
// replicates: scratch is per call, never per replicate.
func TestReplicatesAllocs(t *testing.T) {
	x := timings(newRand(3), 50, 100, 0.05)
	few, many := make([]float64, 100), make([]float64, 10000)
	for _, c := range []struct {
		name string
		f    func(dst []float64)
	}{
		{"mean", func(dst []float64) { Replicates(dst, x, StatMean, newRand(1)) }},
		{"median", func(dst []float64) { Replicates(dst, x, StatMedian, newRand(1)) }},
		{"studentized", func(dst []float64) { StudentizedReplicates(dst, x, newRand(1)) }},
	} {
		a := testing.AllocsPerRun(10, func() { c.f(few) })
		b := testing.AllocsPerRun(10, func() { c.f(many) })
		if a != b {
			t.Errorf("%s: %v allocations for 100 replicates, %v for 10,000", c.name, a, b)
		}
	}
}

// TestHierarchicalReplicatesMatch requires Hierarchical to be the type 7
// quantiles of HierarchicalReplicates from the same stream, to the bit, and
// the bad data of Hierarchical to be refused.
func TestHierarchicalReplicatesMatch(t *testing.T) {
	const reps = 1000
	b := Bootstrap{Level: 0.99, Replicates: reps}
	a := (1 - b.Level) / 2
	src := newRand(6)
	groups := [][]float64{timings(src, 5, 100, 0.05), timings(src, 3, 110, 0.05), timings(src, 7, 95, 0.05)}
	for seed := range uint64(10) {
		for _, s := range []Stat{StatMean, StatMedian} {
			want := b.Hierarchical(groups, s, newRand(seed))
			got := make([]float64, reps)
			if !HierarchicalReplicates(got, groups, s, newRand(seed)) {
				t.Fatal("HierarchicalReplicates refused the data")
			}
			if lo, hi := Quantile(got, a), Quantile(got, 1-a); lo != want.Lo || hi != want.Hi {
				t.Errorf("seed=%d %v: quantiles [%v, %v], Hierarchical [%v, %v]", seed, s, lo, hi, want.Lo, want.Hi)
			}
		}
	}
	dst := []float64{42}
	for _, bad := range [][][]float64{{{1}}, {{1, 2}, {}}, {{1, math.NaN()}}} {
		if HierarchicalReplicates(dst, bad, StatMean, newRand(1)) || dst[0] != 42 {
			t.Errorf("HierarchicalReplicates(%v) accepted bad data or wrote dst", bad)
		}
	}
}
