// Package stats holds the statistics mbench's decisions rest on: descriptive
// stability metrics, bootstrap confidence intervals shaped like benchmark
// data, and a kernel-density similarity.
//
// The pieces map onto the papers in shared/papers:
//
//   - CV, RMAD and the relative width (Interval.RelWidth) of the Percentile
//     (mean: RCIW1, median: RCIW3) and Studentized (RCIW2) intervals are
//     Japke et al. 2025's stability metrics.
//   - Hierarchical and HierarchicalRatio resample forks and then the
//     iterations within them (Kalibera & Jones), the RCIW criterion and the
//     A/A ratio-of-means test of Laaber et al. 2020 §4.2.3 and §5.4.1.
//   - Nested and NestedRatio add instances (machines) as the outermost
//     level, instances → forks → iterations, the cloud setting of Japke et
//     al. 2025, widened to Student's t over the instances when they differ.
//   - BlockRatio is for one process's sequence whose iterations are
//     dependent; it cannot see variance between processes.
//   - GeoMeanRatio and Winsorize are Bulej et al. 2020 §3's duet analysis.
//   - RoundRatio is the ratio of two versions measured in interleaved
//     rounds, one process of each per round (RMIT, Japke et al. 2025), and
//     Sequence spends an error rate over the looks of a comparison that
//     stops when its verdict is decided.
//   - KDE and KLSimilarity are Laaber et al. 2020's KLD criterion as its authors'
//     code computes it.
//   - Expand widens a percentile interval that rests on few units (forks,
//     blocks) to the coverage of Student's t.
//   - Trend, a least-squares slope with its t-test, is the evidence that a
//     fork's warm-up is still moving (package stop).
//
// # Conventions
//
// Functions are pure: they take data as []float64 first, never print, and
// take randomness from a caller's *rand.Rand (math/rand/v2), drawing
// uniformly with r.IntN, so a seed reproduces an interval exactly. Misuse
// (a level outside (0,1), fewer than one replicate, a nil generator, an
// unknown Stat) panics with a "stats: " prefix; bad data (empty, NaN, too
// few values) gives NaN, or an Interval with NaN bounds, not a panic.
// Quantiles everywhere, including the percentile of the replicates, are R's
// type 7.
//
// # Cost
//
// The bootstraps are written by hand. Each call allocates its scratch once
// (replicates, the data laid out by group, ranks for the median) and then
// no replicate allocates: a replicate draws indices and accumulates a sum,
// or counts per rank from which the median is read in one pass, so the
// resample is never built and never sorted. TestAllocsPerReplicate holds
// allocations at 100 and 10,000 replicates equal.
//
// Measured on a 2-core VM (Intel Xeon, go1.26, `go test -bench . -benchmem`),
// 250 values (5 forks × 50 iterations per side; GeoMeanRatio: 10 runs × 100
// ratios), 99 %:
//
//	                             1,000 replicates    10,000 replicates   allocs/op
//	Hierarchical99_5x50_1000     1.0 ms              –                   4
//	Percentile mean / median     0.9 / 1.5 ms        9.5 / 14 ms         5 / 9
//	Studentized                  0.9 ms              9.6 ms              3
//	Hierarchical mean / median   1.0 / 1.5 ms        10 / 15 ms          5 / 9
//	HierarchicalRatio mean / med 1.9 / 3.0 ms        20 / 30 ms          8 / 16
//	BlockRatio mean / median     1.1 / 1.9 ms        11 / 19 ms          8 / 16
//	GeoMeanRatio                 0.09 ms             1.1 ms              4
//	KLSimilarity (1,000 points, 250 values each side): 3.4 ms, 8 allocs
//
// allocs/op include the generator each call is given. The cost is dominated
// by the uniform draws, about 4 ns each.
package stats
