// Package stoptimer defines an Analyzer that reports b.StopTimer and
// b.StartTimer called on every iteration of a benchmark loop.
//
// # Analyzer stoptimer
//
// Pausing the timer around per-iteration preparation looks free but is
// not. B.StopTimer and B.StartTimer read the clock and call
// runtime.ReadMemStats, which stops the world and flushes every P's
// allocation cache. The clock reads fall inside the timed interval and the
// flushed caches slow the next allocations, so for short operations the
// timer calls dominate what is measured: Sestoft, "Microbenchmarks in Java
// and C#" (2015), puts the limit at operations of about 100 ns. Untimed,
// the stop-the-world work still runs b.N times, so such benchmarks also
// take very long to run (golang/go#27217).
//
// In a b.N or b.Loop loop, the first b.StopTimer() is reported when the
// loop body calls both b.StopTimer() and b.StartTimer() as unconditional
// statements and the timed statements are provably short: every call they
// make is to a function with no loop, goroutine, channel operation,
// recursion or dynamic call, transitively, and to no builtin that copies
// or clears data. Whether a function is short is recorded as a fact, so
// functions of imported packages are judged from their code too.
//
// Not reported: timer calls under a condition, which amortise their cost
// over a batch; a timed part that loops, calls anything not provably
// short, calls a function with an error result or passes a slice, array
// or map to a call (an operation on a data set); an untimed part that
// loops, copies or calls a function with an error result (it rebuilds a
// data set for an operation that is rarely short); a lone b.StartTimer;
// and timer calls in function literals or outside the timed loop.
//
// In a pb.Next loop under b.RunParallel every b.StopTimer or b.StartTimer
// is reported, short or not: all goroutines share one timer, and the
// testing package says that RunParallel bodies must not call them.
package stoptimer
