package optimize

import (
	"strconv"
	"testing"

	"github.com/mbench/mbench/bench"
)

// The speed requirement: Algorithm 1 on 1,000 benchmarks of a 3×5×5 run
// with 10,000 bootstrap replicates in under a minute on a 2-core machine.
// suite(…) spreads the benchmarks' noise from 0.05% to 20%, so the fixture
// has quiet benchmarks that stop at the cheapest cost class, noisy ones
// that stay unstable up to the full configuration, and everything between.
//
//	go test -run XXX -bench 'Optimize/n=1000' -benchtime 1x ./optimize/
//
// The n=100 variant is the same at a tenth of the size.
func BenchmarkOptimize(b *testing.B) {
	for _, n := range []int{100, 1000} {
		bs := suite(42, n, bench.Levels{SuiteRuns: 3, Forks: 5, Iterations: 5})
		for _, m := range []Metric{RCIWMean, RCIWT, RCIWMedian, CV, RMAD} {
			b.Run("n="+strconv.Itoa(n)+"/metric="+m.String(), func(b *testing.B) {
				opts := DefaultOptions
				opts.Metric = m
				opts.Baselines = false
				var rep *Report
				for b.Loop() {
					var err error
					if rep, err = Optimize(bs, opts); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(rep.Plan.Stable)/float64(n), "stable/bench")
				b.ReportMetric(rep.Plan.Saving, "saving")
			})
		}
	}
}
