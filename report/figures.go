package report

import "io"

// A figure is a drawn figure: WriteSVG writes it as a standalone <svg>
// element, usable inline in HTML.
type figure interface{ WriteSVG(io.Writer) error }

// The data of the figures, as package plot takes them.
type (
	interval  struct{ Center, Lo, Hi float64 }
	forestRow struct {
		Name    string
		Change  interval
		Verdict string
	}
	stripGroup struct {
		Name, Version string
		Forks         [][]float64
		Center        interval
	}
	traceFork struct {
		Values []float64
		Warmup int
	}
	pairedPoint  struct{ Old, New float64 }
	scalingPoint struct {
		X float64
		Y interval
	}
	scalingLine struct {
		Name   string
		Points []scalingPoint
		Slope  interval
	}
	historyPoint struct {
		Label string
		Y     interval
	}
	historySeries struct {
		Name    string
		Points  []historyPoint
		Changes []int
	}
)

// The figures of package plot.
var (
	forest      func(title string, rows []forestRow, threshold float64) figure
	strip       func(title, unit string, groups []stripGroup) figure
	trace       func(title, unit string, forks []traceFork, stopAfter int) figure
	paired      func(title, unit string, points []pairedPoint) figure
	scalingPlot func(title, xName, unit string, lines []scalingLine) figure
	historyPlot func(title, unit string, series []historySeries) figure
)
