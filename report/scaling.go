package report

import (
	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/scaling"
)

// A family and its points, as package scaling finds them: sub-benchmarks
// that share a name and differ in one numeric parameter.
type (
	family      = scaling.Family
	familyPoint = scaling.Point
)

// findFamilies is scaling.Find with its default options.
var findFamilies = func(r *bench.Run, unit string) ([]*family, error) {
	return scaling.Find(r, unit, scaling.DefaultOptions)
}
