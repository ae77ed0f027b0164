package report

import (
	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
)

// A family and its points, as package scaling finds them: sub-benchmarks
// that share a name and differ in one numeric parameter.
type (
	family struct {
		Base, Param string
		Variant     string
		Points      []familyPoint
		Slope       stats.Interval
	}
	familyPoint struct {
		Name           string
		X              float64
		Center, Lo, Hi float64
	}
)

// findFamilies is scaling.Find with its default options.
var findFamilies func(r *bench.Run, unit string) ([]*family, error)
