package stoptimer_test

import (
	"testing"

	"github.com/mbench/mbench/vet/stoptimer"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), stoptimer.Analyzer, "a")
}
