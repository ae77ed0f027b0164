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
// The cost of each bootstrap, from the benchmarks of this package, is in
// docs/eval/run.md (section "The statistics behind compare"): uniform
// draws dominate it.
package stats
