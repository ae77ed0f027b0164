package cachehot_test

import (
	"testing"

	"github.com/mbench/mbench/vet/cachehot"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), cachehot.Analyzer, "a")
}
