package report

import (
	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/history"
)

// A series of one benchmark across runs with its change points, as package
// history analyses them.
type (
	series       = history.Series
	seriesPoint  = history.Point
	seriesChange = history.Change
)

// analyzeHistory is history.Analyze with its default options for unit.
var analyzeHistory = func(runs []*bench.Run, unit string) ([]*series, error) {
	o := history.DefaultOptions
	o.Unit = unit
	return history.Analyze(runs, o)
}
