// Package vet runs mbench's analyzers of benchmark code. Each lives in a
// package of its own under vet/ and finds one mistake that makes benchmark
// results lie:
//
//   - deadresult: a result nobody uses, in a b.N loop (dead-code elimination);
//   - constfold: a call whose arguments are all constants (constant folding,
//     which b.Loop does not prevent);
//   - stoptimer: b.StopTimer/b.StartTimer inside the loop;
//   - bnsize: b.N used as a problem size;
//   - driftstate: state the loop mutates so that later iterations measure
//     something else (sorting sorted data, unbounded growth).
//
// The analyzers are golang.org/x/tools/go/analysis analyzers: `mbench vet`
// runs them, `go vet -vettool=$(which mbench-vet)` runs them inside go vet,
// and any analysis driver (gopls, golangci-lint's plugin system) can load
// them from Analyzers.
package vet
