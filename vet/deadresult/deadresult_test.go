package deadresult_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/mbench/mbench/vet/deadresult"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), deadresult.Analyzer, "a")
}

// TestFix checks the rewrite to b.Loop, and that it is offered only when
// safe: the golden file leaves every loop after "No fix below" unchanged.
func TestFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), deadresult.Analyzer, "fix")
}
