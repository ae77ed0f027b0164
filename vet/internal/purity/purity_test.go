package purity_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/mbench/mbench/vet/internal/purity"
)

// TestFacts checks the summary of each function of p, and that q sees
// p's summaries as facts.
func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), purity.Analyzer, "p", "q")
}
