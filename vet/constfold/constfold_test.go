package constfold_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/mbench/mbench/vet/constfold"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), constfold.Analyzer, "c")
}

// TestFix checks the fix that passes constant inputs through
// package-level variables, and that it is offered only when safe.
func TestFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), constfold.Analyzer, "fix")
}
