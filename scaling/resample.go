package scaling

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
)

// resampleUnits returns the independent units a point's bootstrap resamples:
// its forks when it has several, as `mbench run` measures them, and
// otherwise blocks of stats.BlockLength consecutive iterations, since
// iterations of one process are not independent (as `mbench compare` treats
// `go test -count` output).
func resampleUnits(s *bench.Sample) [][]float64 {
	if s.HasForks() {
		return s.Forks
	}
	all := s.All()
	if len(all) == 0 {
		return nil
	}
	return slices.Collect(slices.Chunk(all, stats.BlockLength(len(all))))
}

// replicates returns n hierarchical bootstrap replicates of the statistic
// of units (stats.HierarchicalReplicates), or nil when the data cannot be
// resampled.
func replicates(units [][]float64, s stats.Stat, n int, r *rand.Rand) []float64 {
	reps := make([]float64, n)
	if !stats.HierarchicalReplicates(reps, units, s, r) {
		return nil
	}
	return reps
}

// percentile returns the percentile interval of reps at level, the type 7
// quantiles as stats.Bootstrap's intervals take them, about center.
func percentile(center float64, reps []float64, level float64) stats.Interval {
	a := (1 - level) / 2
	iv := stats.Interval{Center: center, Lo: stats.Quantile(reps, a), Hi: stats.Quantile(reps, 1-a), Level: level}
	if math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi) {
		iv.Lo, iv.Hi = math.NaN(), math.NaN()
	}
	return iv
}
