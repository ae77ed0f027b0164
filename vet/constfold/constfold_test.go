package constfold_test

import (
	"strings"
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

// TestFixQualified checks that a constant of another package
// (math.MaxInt8, os.ModeDir) does not stop the fix: the golden files are
// compared only for files that get a fix, so their absence would pass
// TestFix.
func TestFixQualified(t *testing.T) {
	n := 0
	for _, r := range analysistest.Run(t, analysistest.TestData(), constfold.Analyzer, "fix") {
		for _, d := range r.Diagnostics {
			if strings.HasSuffix(r.Pass.Fset.Position(d.Pos).Filename, "qual_test.go") {
				n++
				if len(d.SuggestedFixes) != 1 {
					t.Errorf("%s: %d fixes, want 1", r.Pass.Fset.Position(d.Pos), len(d.SuggestedFixes))
				}
			}
		}
	}
	if n == 0 {
		t.Error("no finding in qual_test.go")
	}
}
