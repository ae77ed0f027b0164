// Package optimize is Japke et al. 2025's µOpTime (Japke et al., "µOpTime:
// Statically Reducing the Execution Time of Microbenchmark Suites Using
// Stability Metrics"): from one full run of a suite it chooses, for each
// benchmark, the cheapest configuration whose results are still stable, and
// it checks how well such a plan detects changes between versions.
//
// # Data
//
// A full run measures every benchmark in the same Levels: S suite runs, I
// forks of the benchmark in each suite run, D measurement iterations in
// each fork, of one iteration time each — Japke et al. 2025's (suite runs,
// iterations, duration), §2 and §4.1 — on N instances: the machines of the
// paper's cloud setting, runs on several machines gathered under one label.
// A Benchmark holds one benchmark's N·S·I·D values (one unit, typically
// sec/op); Collect lays them out from the coordinates of `mbench run
// -levels` measurements. Most runs have one instance, and everything below
// is then the paper's; "Instances" says what several change. A smaller
// configuration (s, i, d) is simulated by its prefix: the first s suite
// runs, the first i forks of each, the first d iterations of each fork
// (§3.1). Its cost is s·i·d iterations (times the iteration time): the
// measurement phase only, as in the paper, so warm-up iterations and
// process start-up, paid per fork, come on top.
//
// # Algorithm
//
// Optimize is Algorithm 1 (§3.1) per benchmark:
//
//  1. Candidates are every (s, i, d) within the full levels with s·i·d ≥ 3
//     measurements (line 8; the authors' code counts s·i only).
//  2. Each candidate's stability metric (Metric: CV, RMAD, RCIW₁, RCIW₂,
//     RCIW₃ of §2) is computed on its measurements pooled.
//  3. The plan is the cheapest candidate with metric ≤ threshold (default
//     0.01, §3.1), the lower metric among equally cheap ones (lines 15–18),
//     and among exact ties the first in (s, i, d) order, as the authors'
//     code enumerates them. If none is stable the plan is the full
//     configuration, marked not stable.
//
// Each result reports r, the mean of the chosen measurements for the
// mean-based metrics (CV, RCIW₁, RCIW₂) and their median for the
// median-based ones (RMAD, RCIW₃), as §4.2 does; the change rate
// c = |r_plan − r_full|/r_full (equation 1); and the cost. The suite totals
// give the iterations saved and the fractions of benchmarks whose change rate
// is within 1%, 3% and 5% (Figure 3), for the plan and for the two baselines
// of §4.2: the minimum configuration (the cheapest candidate; (1, 3, 1) for
// the paper's (3, 5, 5), as the authors' code has it) and a random
// candidate, drawn uniformly per benchmark.
//
// # Instances
//
// A benchmark measured on N > 1 instances has one more level: a
// configuration is (n, s, i, d), n instances each in (s, i, d), costing
// n·s·i·d. Its RCIW is the relative width of a bootstrap interval that
// draws n of the N instances with replacement and then each drawn
// instance's measurements of (s, i, d) (stats.NestedSample), so that it is
// stable on few instances only when the instances agree; its result r is
// that of the first n instances. The search runs over instances first: the
// plan is the cheapest stable configuration on the fewest instances that
// have one, each instance being a machine of its own whose build, warm-up
// and process start-ups the iteration count leaves out. A plan records the
// instances of the full run and of each benchmark; `mbench run -plan`
// measures one machine and says when a plan asks for more
// (Plan.InstanceNote).
//
// # Cost
//
// The RCIWs bootstrap 10,000 replicates per configuration, and a 3×5×5 run
// has 75 configurations holding 1,350 measurements in all, so evaluating
// everything costs 13.5 million draws per benchmark. Optimize does less and
// gets the same answers:
//
//   - it evaluates cheapest first and stops after the first cost class with
//     a stable configuration;
//   - a configuration whose RCIW is certainly above the threshold is
//     abandoned after a fraction of its replicates (a 20th, a 10th, a 5th,
//     half): the m-th smallest of the replicates drawn so far is never
//     below the m-th smallest of all of them, nor the m-th largest above the
//     m-th largest of all, so with m just past the 0.5% tails they bound the
//     final interval's width from below whatever the remaining replicates
//     are — a proof of instability that changes no metric that is used;
//   - the interval's quantiles are found by selection, not by sorting;
//   - benchmarks run in parallel, and every configuration of every
//     benchmark draws from its own stream, seeded from Options.Seed, the
//     benchmark's key and the configuration, so no result depends on
//     scheduling or on which configurations were evaluated.
//
// TestSearchMatchesExhaustive compares every answer with the exhaustive
// evaluation. The metric values are those of package stats to the bit
// (TestMetricMatchesStats).
//
// # Plans and replay
//
// NewPlan turns a Report into a Plan, which WritePlan and ReadPlan store as
// JSON (docs/formats.md, "mbench plan") for `mbench run -plan`;
// WritePlanFile replaces a plan file only once the new plan is complete.
// Replay is §4.5's evaluation (RQ4): over the full runs of consecutive
// versions it detects changes — 99% percentile-bootstrap intervals of the
// mean that do not overlap and a change of at least 3%, slower or faster —
// with the full configuration and with the plan's, and counts the plan's
// true and false positives and negatives against the full configuration's.
//
// # From runs
//
// `mbench optimize` is Run and `mbench optimize -replay` is
// ReplayRuns, on runs as package bench reads them or package store loads
// them: FromRun lays out a run's measurements by the levels it recorded,
// IterTime reads its iteration time. Problems of the data (levels inferred,
// suite runs dropped, no iteration time) come back as warnings with the
// results, as errors only what leaves nothing to report; Options.Validate
// and ReplayOptions.Validate name a setting out of range as the command's
// flag does. Report.Write and ReplayReport.Write print the results as text
// or as the JSON docs/formats.md specifies.
package optimize
