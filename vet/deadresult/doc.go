// Package deadresult defines an Analyzer that reports calls in benchmark
// loops whose results are never used, so that the compiler may delete the
// work the benchmark means to measure.
//
// # Analyzer deadresult
//
// When a small function without effects is inlined into a loop that
// discards its result, dead-code elimination deletes the computation and
// the benchmark times an empty loop (Rodriguez-Cancio, Combemale and
// Baudry, "Automatic Microbenchmark Generation to Prevent Dead Code
// Elimination and Constant Folding", 2016). Since Go 1.24 for b.Loop()
// keeps the results of calls in its body alive (testing.B.Loop), so calls
// there are not reported. b.N loops and the pb.Next loops of b.RunParallel
// keep nothing alive, so calls there are checked.
//
// A call is reported when all of these hold:
//
//   - nothing uses its results, judged on the SSA form: only arithmetic,
//     conversions, φ-nodes and stores into local variables that are never
//     read (r := f(x) overwritten in every iteration, _ = f(x), s += f(x)
//     with s unused after the loop);
//   - the callee is pure and inlinable (package purity): within the
//     compiler's inlining budget, without //go:noinline, storing only into
//     memory it allocated, with no dynamic or impure calls and nothing that
//     lowers to a runtime call; or a standard intrinsic such as math.Sqrt;
//   - its work goes with it: a callee with a loop must accumulate its
//     result in the loop without steering a branch (a search loop keeps
//     its loads and branches); a callee without a loop must not return a
//     value it tests in a branch, nor constants chosen by a switch that the
//     compiler turns into a binary search (the comparisons stay);
//   - it computes something: a callee that only selects (fields, elements
//     at constant indices, slices, len) or wraps its parameters in a
//     composite literal loses about what keeping its result costs; a
//     lookup at a computed index is reported only when nothing else in the
//     loop does work.
//
// Calls through interfaces or function values, calls that may have an
// effect and calls too large to inline are not reported: a missed case is
// preferred to a false alarm.
//
// The suggested fix rewrites the loop to for b.Loop() when that cannot
// change what the benchmark does: the loop is for i := 0; i < b.N; i++ or
// for range b.N with i unused, it is the benchmark's only timed loop and a
// top-level statement, b is used only through its methods and fields, b.N
// is not read before the loop ends, the benchmark never calls StopTimer,
// StartTimer or ResetTimer, and nothing leaves the loop early. Otherwise
// the fix assigns each result whose type the file can name to a new
// package-level variable, which the compiler must assume is read; the
// rewrite offers that as its alternative. A pb.Next loop gets no fix: every
// goroutine would write the one variable, a data race on a shared cache
// line that the benchmark would then measure.
package deadresult
