package report

import (
	"io"

	"github.com/mbench/mbench/plot"
)

// A figure is a drawn figure: WriteInlineSVG writes it as an <svg>
// element for a page that holds plot.StyleSheet.
type figure interface{ WriteInlineSVG(io.Writer) error }

// The data of the figures, as package plot takes them.
type (
	interval      = plot.Interval
	stripGroup    = plot.StripGroup
	traceFork     = plot.TraceFork
	pairedPoint   = plot.PairedPoint
	scalingPoint  = plot.ScalingPoint
	scalingLine   = plot.ScalingLine
	historyPoint  = plot.HistoryPoint
	historySeries = plot.HistorySeries
)

// The figures of package plot.
var (
	strip = func(title, unit string, groups []stripGroup) figure {
		return plot.Strip(title, unit, groups)
	}
	trace = func(title, unit string, forks []traceFork, stopAfter int) figure {
		return plot.Trace(title, unit, forks, stopAfter)
	}
	paired = func(title, unit string, points []pairedPoint) figure {
		return plot.Paired(title, unit, points)
	}
	scalingPlot = func(title, xName, unit string, lines []scalingLine) figure {
		return plot.Scaling(title, xName, unit, lines)
	}
	historyPlot = func(title, unit string, series []historySeries) figure {
		return plot.History(title, unit, series)
	}
)
