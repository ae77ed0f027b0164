// Package ab compares two versions of a module's benchmarks, paired in
// time, and stops each benchmark when its verdict is decided.
//
// Two runs taken one after the other sample two levels of a machine whose
// speed drifts by several percent from minute to minute: the difference
// between the runs is as much the machine's as the code's. Package ab
// measures the versions so that drift hits both alike, in one of two modes.
//
// # Interleaved (the default)
//
// Each round runs, for every benchmark still undecided in a fresh random
// order, one process (fork) of the old version and one of the new, back to
// back, in a random order per round: the randomized multiple interleaved
// trials of Abedi & Brecht ("Conducting repeatable experiments in highly
// variable cloud computing environments", ICPE 2017) as µOpTime (Japke,
// Grambow, Laaber & Bermbach, 2025) uses them. A process runs unpinned at
// the user's GOMAXPROCS, so b.RunParallel benchmarks and code whose speed
// depends on GOMAXPROCS are measured as `go test` measures them. Every
// process of a benchmark does the same work per iteration (b.N calibrated
// once, on the old version), one discarded warm-up iteration and two
// measured ones of about 20ms: short processes, because what limits the
// ratio of a round is how two processes differ, not the iterations inside
// one, so more rounds of shorter processes give narrower intervals for the
// same time. The analysis (compare.Interleaved) pairs the two processes
// of each round and takes the geometric mean of their ratios with a
// bootstrap interval over rounds (stats.RoundRatio): a drift slower than a
// round cancels.
//
// # Sequential decision
//
// Dynamic reconfiguration (Laaber, Würsten, Gall & Leitner, "Dynamically
// reconfiguring software microbenchmarks", ESEC/FSE 2020) stops a
// benchmark when its results are stable; here the statistic is the ratio and
// stable means decided. After a planned number of rounds (a look of a
// stats.Sequence: 10, 15, 23, 35, 53, 80, 120 and 200 rounds by
// default) each benchmark
// that reached the look is analysed with the interval of that look, whose
// error rate is the session's alpha divided by the number of looks, and
// stops when its verdict is one of
//
//	slower/faster  the interval excludes 1 and the estimate moves by more
//	               than the threshold
//	no change      the whole interval lies within ±threshold
//
// Otherwise it goes on to the next look. When the last look, or the time
// budget (10s per benchmark by default, which decided benchmarks leave to
// the others), is reached first, the verdict is inconclusive and the report says
// the smallest change the data could have shown. Spending the error rate
// over the looks keeps it under optional stopping: whatever look a
// benchmark stops at, its interval misses the true ratio with probability
// at most alpha (see stats.Sequence, and its seeded simulation).
//
// # Storage
//
// A session is one run of the store whose measurements carry their
// version (bench.Coord.Version): the old and new labels. Every process's
// iterations are committed when the process ends, so an interrupted or
// killed session keeps every finished process; `mbench compare` analyses
// the stored session the same way (compare.Interleaved), and Resume goes
// on where it stopped. A parallel session (RunParallel, duet benchmarking)
// stores its two sides as two runs, and commits the pairs of each run of
// processes, both sides in one transaction, when the run ends: a killed
// session keeps every finished run, each pair whole.
//
// RunInterleaved and NewParallel are the entry points of `mbench ab` and
// `mbench duet`: they build the versions (revisions are checked out by
// internal/gitrev, which leaves nothing in the repository even when the
// process is killed), run the session and store it; Options and
// ParallelConfig hold what the commands' flags set.
package ab
