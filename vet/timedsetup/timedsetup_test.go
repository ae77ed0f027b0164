package timedsetup_test

import (
	"testing"

	"github.com/mbench/mbench/vet/timedsetup"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestAnalyzer checks the findings and their b.ResetTimer fixes against
// the .golden files: package a holds benchmarks of its own package, lib
// an external test package (lib_test) of a package under test.
func TestAnalyzer(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), timedsetup.Analyzer, "a", "lib")
}
