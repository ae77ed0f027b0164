package report

import (
	"time"

	"github.com/mbench/mbench/bench"
)

// A series of one benchmark across runs with its change points, as package
// history analyses them.
type (
	series struct {
		Pkg, Name string
		Unit      string
		Points    []seriesPoint
		Changes   []seriesChange
	}
	seriesPoint struct {
		Run, Label     string
		Time           time.Time
		Center, Lo, Hi float64
	}
	seriesChange struct {
		Index            int
		Run, Label       string
		Ratio, Lo, Hi, P float64
	}
)

// analyzeHistory is history.Analyze with its default options for unit.
var analyzeHistory func(runs []*bench.Run, unit string) ([]*series, error)
