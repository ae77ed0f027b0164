// Package vet runs mbench's analyzers of benchmark code. Each lives in a
// package of its own under vet/ and finds one mistake that makes benchmark
// results lie:
//
//   - deadresult: a result nobody uses, so that the compiler may delete
//     the work;
//   - constfold: a call whose arguments are all constants, so that the
//     compiler may compute it at compile time;
//   - stoptimer: b.StopTimer and b.StartTimer inside the loop;
//   - bnsize: b.N used as a problem size;
//   - driftstate: state the loop changes, so that later iterations
//     measure something else (sorting sorted data, unbounded growth).
//
// # Why these mistakes
//
// A benchmark loop is compiled like any other code. When nothing uses the
// result of the measured work, or its inputs are constants, the compiler
// may delete or precompute the work, and the benchmark times an empty
// loop. Rodriguez-Cancio, Combemale and Baudry, "Automatic Microbenchmark
// Generation to Prevent Dead Code Elimination and Constant Folding" (ASE
// 2016), describe these two as the first mistakes of hand-written
// microbenchmarks, with a third, a loop that drives its state into a
// different steady state, which driftstate looks for. Sestoft,
// "Microbenchmarks in Java and C#" (2015), adds timer calls that cost more
// than the operation they leave out, and problem sizes tied to the
// iteration count. Since Go 1.24, for b.Loop() keeps the results of calls
// in its body alive, which removes the first mistake but not the second.
// Each analyzer's package documentation gives its rule and what it leaves
// out on purpose.
//
// # Loops
//
// The analyzers look at timed loops: for i := 0; i < b.N; i++ (and for
// range b.N), for b.Loop(), and for pb.Next() in the function passed to
// b.RunParallel, whose goroutines together run b.N iterations. A b.N loop
// followed by b.ResetTimer, or run while the timer is stopped, is setup,
// not measured.
//
// # How far to trust a finding
//
// The rules were written on one set of modules and measured on sets of
// modules they had not seen, every finding checked by hand; how many were
// true is in docs/eval/vet.md. A static finding is a reason to look, not
// proof. Running decides better: `mbench vet -run` times the benchmark of
// each finding as written and with its fix, or at growing b.N for
// findings that say ns/op depends on b.N, and -confirmed keeps only the
// findings the timings bear out. `mbench vet -run -confirmed` is the gate
// to use in CI; the static findings serve while writing benchmarks.
//
// # Drivers
//
// The analyzers are golang.org/x/tools/go/analysis analyzers: Vet (and
// `mbench vet`) runs them, `go vet -vettool=$(which mbench-vet)` runs them
// inside go vet, and any analysis driver (gopls, golangci-lint's plugin
// system through package golangci) can load them from Analyzers.
package vet
