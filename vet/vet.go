// Package vet lists mbench's analyzers of benchmark code. Each lives in a
// package of its own under vet/ and finds one mistake that makes benchmark
// results lie (Sestoft 2015 §3; Rodriguez-Cancio et al. 2016 §2):
//
//   - deadresult: a result nobody uses, in a b.N loop (dead-code elimination);
//   - constfold: a call whose arguments are all constants (constant folding,
//     which b.Loop does not prevent);
//   - timedsetup (experimental, not in Analyzers): setup before a b.N loop
//     that the timer measures;
//   - stoptimer: b.StopTimer/b.StartTimer inside the loop;
//   - bnsize: b.N used as a problem size;
//   - driftstate: state the loop mutates so that later iterations measure
//     something else (sorting sorted data, unbounded growth);
//   - cachehot (experimental, not in Analyzers): a search for the same key
//     in every iteration, in a collection the setup filled with many.
//
// The analyzers are golang.org/x/tools/go/analysis analyzers: `mbench vet`
// runs them, `go vet -vettool=$(which mbench-vet)` runs them inside go vet,
// and any analysis driver (gopls, golangci-lint's plugin system) can load
// them from Analyzers.
package vet

import (
	"github.com/mbench/mbench/vet/bnsize"
	"github.com/mbench/mbench/vet/cachehot"
	"github.com/mbench/mbench/vet/constfold"
	"github.com/mbench/mbench/vet/deadresult"
	"github.com/mbench/mbench/vet/driftstate"
	"github.com/mbench/mbench/vet/stoptimer"
	"github.com/mbench/mbench/vet/timedsetup"
	"golang.org/x/tools/go/analysis"
)

// Analyzers are the analyzers mbench runs by default: those whose findings
// held up on modules their rules were not tuned on (docs/EVALUATION.md).
var Analyzers = []*analysis.Analyzer{
	deadresult.Analyzer,
	constfold.Analyzer,
	stoptimer.Analyzer,
	bnsize.Analyzer,
	driftstate.Analyzer,
}

// Experimental are analyzers run only on request (`mbench vet -only` or
// -all): timedsetup was right in 0 of its 14 findings on three corpora of
// modules its rules had not seen, because whether setup is expensive enough
// to matter depends on sizes and costs it cannot see statically; cachehot
// in 6 of the 27 of its first run that were checked (docs/vet-cachehot.md):
// in Go maps of hundreds of keys a fixed key hardly changes the time, and
// many fixed keys are deliberate (a worst case, a miss, a baseline).
var Experimental = []*analysis.Analyzer{
	timedsetup.Analyzer,
	cachehot.Analyzer,
}

// All are Analyzers and Experimental.
var All = append(append([]*analysis.Analyzer(nil), Analyzers...), Experimental...)

// Lookup returns the analyzer of All with the given name, or nil.
func Lookup(name string) *analysis.Analyzer {
	for _, a := range All {
		if a.Name == name {
			return a
		}
	}
	return nil
}
