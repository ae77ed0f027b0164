package stats

import (
	"fmt"
	"testing"
)

// benchData is shared by the benchmarks and the allocation test: 5 forks
// × 50 iterations of timings per side, the shape of a `go test -count`
// experiment over five processes.
type benchData struct {
	x, y   []float64
	gx, gy [][]float64
	ix, iy [][][]float64 // gx and gy as instances of 2 and 3 forks
	runs   [][]float64
}

func newBenchData() benchData {
	r := newRand(42)
	d := benchData{
		gx:   forks(r, 5, 50, 1000, 0.03, 0.05),
		gy:   forks(r, 5, 50, 1030, 0.03, 0.05),
		runs: forks(r, 10, 100, 1.03, 0.02, 0.05),
	}
	d.ix = [][][]float64{d.gx[:2], d.gx[2:]}
	d.iy = [][][]float64{d.gy[:2], d.gy[2:]}
	for i := range d.gx {
		d.x = append(d.x, d.gx[i]...)
		d.y = append(d.y, d.gy[i]...)
	}
	return d
}

// calls returns every bootstrap as a closure over d with settings b.
func (d benchData) calls(b Bootstrap) []struct {
	name string
	f    func(seed uint64) Interval
} {
	return []struct {
		name string
		f    func(seed uint64) Interval
	}{
		{"Percentile/mean", func(s uint64) Interval { return b.Percentile(d.x, StatMean, newRand(s)) }},
		{"Percentile/median", func(s uint64) Interval { return b.Percentile(d.x, StatMedian, newRand(s)) }},
		{"Studentized", func(s uint64) Interval { return b.Studentized(d.x, newRand(s)) }},
		{"Hierarchical/mean", func(s uint64) Interval { return b.Hierarchical(d.gx, StatMean, newRand(s)) }},
		{"Hierarchical/median", func(s uint64) Interval { return b.Hierarchical(d.gx, StatMedian, newRand(s)) }},
		{"HierarchicalRatio/mean", func(s uint64) Interval { return b.HierarchicalRatio(d.gy, d.gx, StatMean, newRand(s)) }},
		{"HierarchicalRatio/median", func(s uint64) Interval { return b.HierarchicalRatio(d.gy, d.gx, StatMedian, newRand(s)) }},
		{"BlockRatio/mean", func(s uint64) Interval { return b.BlockRatio(d.y, d.x, StatMean, newRand(s)) }},
		{"BlockRatio/median", func(s uint64) Interval { return b.BlockRatio(d.y, d.x, StatMedian, newRand(s)) }},
		{"GeoMeanRatio", func(s uint64) Interval { return b.GeoMeanRatio(d.runs, newRand(s)) }},
		{"RoundRatio", func(s uint64) Interval { return b.RoundRatio(d.gx, d.gy, newRand(s)) }},
		{"Nested/mean", func(s uint64) Interval { return b.Nested(d.ix, StatMean, newRand(s)) }},
		{"Nested/median", func(s uint64) Interval { return b.Nested(d.ix, StatMedian, newRand(s)) }},
		{"NestedRatio/mean", func(s uint64) Interval { return b.NestedRatio(d.iy, d.ix, StatMean, newRand(s)) }},
	}
}

// TestAllocsPerReplicate checks that no replicate allocates: a call with
// 10,000 replicates makes exactly as many allocations as one with 100.
// AllocsPerRun counts the whole process's allocations and truncates their
// mean over the runs; 10 runs keep a stray allocation by the runtime during
// the longer calls from showing up as a replicate's.
func TestAllocsPerReplicate(t *testing.T) {
	d := newBenchData()
	few, many := d.calls(Bootstrap{0.99, 100}), d.calls(Bootstrap{0.99, 10000})
	for i := range few {
		a100 := testing.AllocsPerRun(10, func() { few[i].f(1) })
		a10k := testing.AllocsPerRun(10, func() { many[i].f(1) })
		if a100 != a10k {
			t.Errorf("%s: %v allocations with 100 replicates, %v with 10,000", few[i].name, a100, a10k)
		}
	}
}

// BenchmarkHierarchical99_5x50_1000 is the reference case of
// docs/eval/run.md: 5 forks × 50 iterations, 1,000 replicates, 99 %, the
// mean.
func BenchmarkHierarchical99_5x50_1000(b *testing.B) {
	d := newBenchData()
	bs := Bootstrap{0.99, 1000}
	r := newRand(1)
	b.ReportAllocs()
	for b.Loop() {
		bs.Hierarchical(d.gx, StatMean, r)
	}
}

// BenchmarkBootstrap runs every bootstrap on 250 values (5 × 50; 10 runs ×
// 100 ratios for GeoMeanRatio) at 1,000 and 10,000 replicates.
func BenchmarkBootstrap(b *testing.B) {
	d := newBenchData()
	for _, reps := range []int{1000, 10000} {
		for _, c := range d.calls(Bootstrap{0.99, reps}) {
			b.Run(fmt.Sprintf("%s/reps=%d", c.name, reps), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					c.f(1)
				}
			})
		}
	}
}

// BenchmarkKLSimilarity is Laaber et al. 2020's KLD criterion on two windows of 250
// values with its 1,000 grid points.
func BenchmarkKLSimilarity(b *testing.B) {
	d := newBenchData()
	b.ReportAllocs()
	for b.Loop() {
		KLSimilarity(d.x, d.y, 1000)
	}
}
