package run

import (
	"math"
	"math/rand/v2"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
)

// A Summary is one benchmark's result as the run reports it.
type Summary struct {
	Mean, Median float64
	// CI is the confidence interval of the mean from the hierarchical
	// bootstrap over forks and iterations, widened for few forks
	// (stats.Expand).
	CI stats.Interval
	// BytesPerOp and AllocsPerOp are the means of B/op and allocs/op, NaN
	// when not measured.
	BytesPerOp, AllocsPerOp float64
	Iterations, Forks       int
}

// Summarize computes the summary of r's measurement iterations in metric.
func Summarize(r *Result, metric string, boot stats.Bootstrap, seed uint64) Summary {
	run := bench.Run{Measurements: r.Measurements}
	s := Summary{Mean: math.NaN(), Median: math.NaN(), BytesPerOp: math.NaN(), AllocsPerOp: math.NaN()}
	s.CI = stats.Interval{Center: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Level: boot.Level}
	sample := run.Samples(metric)[r.Target.Key]
	if sample == nil {
		return s
	}
	all := sample.All()
	s.Mean, s.Median = stats.Mean(all), stats.Median(all)
	s.Iterations, s.Forks = len(all), len(sample.Forks)
	if len(sample.Forks) >= 2 {
		rng := rand.New(rand.NewPCG(seed, 0x73756d6d617279))
		s.CI = stats.Expand(boot.Hierarchical(sample.Forks, stats.StatMean, rng), float64(len(sample.Forks)))
	}
	for _, u := range []struct {
		unit string
		dst  *float64
	}{{"B/op", &s.BytesPerOp}, {"allocs/op", &s.AllocsPerOp}} {
		if smp := run.Samples(u.unit)[r.Target.Key]; smp != nil {
			*u.dst = stats.Mean(smp.All())
		}
	}
	return s
}
