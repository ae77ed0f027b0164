// Package stop decides when a benchmark has run enough: Laaber et al. 2020's dynamic
// reconfiguration (Laaber et al., "Dynamically Reconfiguring Software
// Microbenchmarks", ESEC/FSE 2020). A fork stops its warm-up once its
// iterations are stable, and a benchmark stops adding forks once the
// measurements of all its forks are stable, each between a minimum and a
// maximum (Config). Static, the paper's baseline, always runs the maximum.
//
// # Algorithm 1 as events
//
// A Controller holds one benchmark's state and turns Algorithm 1's loops
// into calls a runner makes as iterations arrive, so the forks of many
// benchmarks can be interleaved (RMIT): NeedFork, StartFork, Warmup (line
// 7's checkpoint after each warm-up iteration from wi_min on), Measure and
// EndFork (line 10's checkpoint after each fork from f_min on). Report says
// what ran and why it stopped, Report.Warnings gives the paper's warning when
// a criterion gave up at wi_max or f_max.
//
// # Criteria and their windows
//
// A Go iteration yields one number (the mean time of b.N operations), where
// a JMH iteration in the paper's sample mode yields thousands of invocation
// samples. The windows below are Laaber et al. 2020's §4.2 adapted to that, with
// window s = Options.Window (5) and n warm-up values v_1 … v_n of the
// current fork:
//
//	cv      warm-up  max − min over i' < x ≤ n of CV(v_i' … v_x) ≤ t          n ≥ s+1
//	        forks    |CV(M_1..f) − CV(M_1..f−1)| ≤ t                         f ≥ 2
//	rciw    warm-up  max − min over i' < x ≤ n of RCIW(v_i' … v_x) ≤ t        n ≥ s+1
//	        forks    |RCIW_h(M_1..f) − RCIW_h(M_1..f−1)| ≤ t                 f ≥ 2
//	kld     warm-up  mean over n−s < x ≤ n of p(v_1 … v_x−1, v_1 … v_x) > t  n ≥ s+2
//	        forks    p(M_1..f−1, M_1..f) > t                                 f ≥ 2
//	static  never stable
//
// where the last column is the data a check needs before it can be stable,
// i' = n − s is Eq. (1)'s window start, M_1..k all measurements of forks 1
// to k pooled, RCIW the percentile bootstrap of the mean within a fork and
// RCIW_h the hierarchical (forks, then iterations) bootstrap across forks,
// and p stats.KLSimilarity. The fork checks count forks with measurements,
// so with f_min = 1 the first possible stop is still after fork 2. CV and RCIW test how much the statistic still changes over the
// window (stable^var), not its size; KLD tests the mean probability
// (stable^prob). The defaults (DefaultOptions) are §5.3.2's: s = 5,
// t = 0.01 (CV), 0.03 (RCIW, 99%, 1,000 replicates), 0.99 (KLD, 1,000
// points).
//
// # Warm-up: stable, or no evidence of a trend
//
// The warm-up checkpoint ends a fork's warm-up when the criterion finds the
// window stable, as in the paper, and also when the window shows no trend:
// the least-squares slope of its values (the criterion's window, s+1 = 6
// values, or all of them if fewer) against their index has a p-value above
// TrendLevel = 5% (stats.Trend, Student's t with n−2 degrees of freedom).
// The paper's rule alone misjudges Go on a noisy machine: the CV or RCIW of
// two to six iterations of 50ms keeps changing by more than its threshold
// even when nothing drifts, so forks ran to wi_max and then warned "raise
// -wi-max", which could not help. Only a fork that reaches wi_max with its
// window still trending warns now; Report.WarmupTrend records it.
//
// The evidence is in docs/eval/run.md (section Time): in go-toml no
// warm-up effect lasts beyond a fork's first iteration, so mbench run's
// -wi-min 1 discards that one, and a slope needs 3 values, so with -wi-min
// below 3 warm-up is exactly -wi-min; on examples/suite the rule with the
// trend spends a fraction of the criterion's warm-up iterations and warns
// on no benchmark, where the criterion alone ran every fork to wi_max and
// warned on all. A warm-up that still decays is kept
// (TestDecayingWarmupWarns); raise -wi-min to 5 or so to let the slope
// extend warm-up where a benchmark needs it.
//
// # Warm-up: steady per-op figures
//
// The criteria and the trend watch one metric; neither sees a fork whose
// first iteration allocates megabytes per op and its second nothing, and with
// wi_min 1 the second iteration is already measured. So the warm-up
// checkpoint also asks the per-op figures (PerOp: sec/op, B/op,
// allocs/op) to be steady under Steady, DefaultSteady's tolerances:
//
//	B/op, allocs/op  within max(16 B or 1 alloc, 10% of the larger) of the iteration before
//	sec/op           not below the iteration before by more than a factor 1.25
//
// or, in a fork after the first to find it, within those of the steady
// state an earlier fork found (SteadyState): steady state belongs to the
// benchmark, so a later fork whose first iteration is warm stops at wi_min
// as before, and only the first fork of a benchmark pays one more
// iteration. Report.WarmupWhy says per fork what ended warm-up, and
// Report.WarmupUnsteady which figure still changed at wi_max (a warning).
// Settled is the same rule on a whole fork, for runners that decide after
// it.
//
// # Choices where the paper, its authors' code and Go differ
//
//   - Eq. (1)'s window also lists x = i', a single value; no CV or bootstrap
//     exists for one number, so CV and RCIW use the s prefixes of 2 … s+1
//     values (the same count of statistics as the authors' code's window).
//   - stable^var is the paper's max(v) − min(v) ≤ t. The authors' JMH fork
//     tests max over the window of |s_n − s_k| < t, which is never larger;
//     both measure change, ours is the slightly stricter.
//   - KLD's warm-up distributions grow from the fork's first iteration (He
//     et al.; the authors' code) instead of from i': p of 2 to 6 single
//     numbers stays below 0.99 on stationary noise (see KLD). It averages p over the window as the paper
//     says; the authors' code takes the minimum.
//   - The fork checks compare forks 1..f with 1..f−1 only (the authors'
//     code's fork window of 2). Eq. (2)'s vector runs from fork 1, and its
//     max − min can only grow with f, so a benchmark unstable at f_min could
//     never become stable.
//   - No invocation level and no subsampling: the paper samples 1,000
//     invocations per iteration and resamples invocations in RCIW's
//     hierarchy; Go has one value per iteration. KLD leaves outliers to
//     stats.KLSimilarity, whose grid spans the 1.5·IQR fences as in the
//     authors' code, rather than removing them first (§5.3.2's text).
//   - RCIW draws from a PCG stream per interval, seeded with Options.Seed
//     and keyed by checkpoint and data size, rather than from one source per
//     controller: a decision depends only on its data and the seed, never on
//     the runner's interleaving, and a Criterion can be shared.
//
// # Cost
//
// A warm-up check runs after every warm-up iteration and must cost well
// under 1% of one (100ms–1s), i.e. under about 1ms; a fork check runs once
// per fork of at least 11 iterations. BenchmarkCheck times the checks of
// each criterion; the figures are in docs/eval/run.md (section Time).
//
// RCIW costs Replicates × values uniform draws per interval; KLD evaluates
// two kernel density estimates of all values on 1,000 points per
// probability. A Controller memoizes what earlier checks of the same fork
// (KLD's p_x) or benchmark (RCIW's interval of forks 1..f−1) already
// computed, which keeps both linear in the data instead of Window times
// that; see memoizer. KLD's fork check has nothing to reuse, and its cost
// grows with the forks, but a fork check concludes a fork of many
// iterations.
package stop
