package bnsize_test

import (
	"testing"

	"github.com/mbench/mbench/vet/bnsize"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestAnalyzer runs the analyzer on package a, whose benchmarks call their
// own package, and on lib, whose external test package lib_test relies
// on the loop-count fact of lib.Run.
func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), bnsize.Analyzer, "a", "lib")
}
