package driftstate_test

import (
	"testing"

	"github.com/mbench/mbench/vet/driftstate"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), driftstate.Analyzer, "a")
}
