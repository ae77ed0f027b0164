// Package profdiff says why a benchmark's time or allocation changed: it
// diffs the profiles of two versions per operation, function by function,
// and names a function only when its change stands out of the variation
// between processes.
//
// # Input
//
// Each version contributes the profiles of several processes (a
// Process each), every process having run the same benchmark for a known
// number of operations. Profiles are read and written with
// github.com/google/pprof/profile; profdiff parses nothing itself. A CPU
// profile's samples are scaled, per process, so that they add up to the
// CPU time the operating system measured for the process (Process.CPU):
// the kernel delivers the profiling signal at most once per scheduler
// tick, so a rate above the tick's is recorded with the requested period
// but arrives at the tick's rate, and the scale puts the samples back on
// the process's real time.
//
// # Per function, per operation
//
// Functions are matched across versions by name, never by address, and
// inlined frames count as functions of their own (each pprof Line of a
// Location is a frame). For process k of a version and function f:
//
//	flat_k(f) = Σ value of samples whose innermost frame is f   · scale_k / ops_k
//	cum_k(f)  = Σ value of samples with f anywhere in the stack · scale_k / ops_k
//
// a sample counting once in cum_k however often f recurs in its stack.
// A sample taken in the runtime's asynchronous preemption
// (runtime.asyncPreempt and what it calls) counts for the function it
// interrupted.
// The change of f is mean_k(new) − mean_k(old), with Welch's interval
// over the processes (stats.Welch): the processes are the independent
// units, so the interval holds the profile's sampling error and the
// process-to-process variation together. A function absent from every
// process of one version has zeros there and is marked as found in the
// other version only (new, or gone, or renamed).
//
// # Naming the functions at fault
//
// A profile has hundreds of functions, and at 95% some of them would
// show a change by chance alone. Only functions whose flat value is at
// least 0.5% of the total in one version are tested (m of them): the
// rest could not explain a change that matters, and a choice made on
// size alone leaves the test of the change valid. They are selected by the
// Benjamini–Hochberg procedure at false discovery rate Alpha over the
// p-values of their flat changes, and each function's interval is taken
// at the level 1 − R·Alpha/m for R selected of m tested: the false
// coverage-statement rate intervals of Benjamini & Yekutieli ("False
// discovery rate-adjusted multiple confidence intervals for selected
// parameters", JASA 2005). A function is named (Change.Named) exactly
// when its interval excludes 0, and the intervals of the named functions
// together miss their true changes at a rate of at most Alpha.
//
// Changes are given per operation (ns/op, B/op, allocs/op) and in points
// of the old version's total: a function whose time grows by 11.2% of
// what the whole operation took before has changed by +11.2 pts, and the
// points of all functions' flat changes add up to the total's change in
// percent.
package profdiff
