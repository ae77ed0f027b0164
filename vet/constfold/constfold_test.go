package constfold_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/mbench/mbench/vet/constfold"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), constfold.Analyzer, "c")
}
