package vet

import (
	"github.com/mbench/mbench/vet/bnsize"
	"github.com/mbench/mbench/vet/constfold"
	"github.com/mbench/mbench/vet/deadresult"
	"github.com/mbench/mbench/vet/driftstate"
	"github.com/mbench/mbench/vet/stoptimer"
	"golang.org/x/tools/go/analysis"
)

// Analyzers are the analyzers mbench vet runs.
var Analyzers = []*analysis.Analyzer{
	deadresult.Analyzer,
	constfold.Analyzer,
	stoptimer.Analyzer,
	bnsize.Analyzer,
	driftstate.Analyzer,
}

// Lookup returns the analyzer of Analyzers with the given name, or nil.
func Lookup(name string) *analysis.Analyzer {
	for _, a := range Analyzers {
		if a.Name == name {
			return a
		}
	}
	return nil
}
