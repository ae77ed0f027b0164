package report

import (
	"fmt"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/plot"
)

// ComparisonFigure draws the rows of res as a forest plot: each
// benchmark's relative change with its interval and verdict, exactly as
// res holds them, and the interval's level in the title, as the tables of
// res print it (compare.Percent). The page and mbench plot draw it alike.
func ComparisonFigure(res *compare.Result) *plot.Figure {
	keys := make([]bench.Key, len(res.Rows))
	for i, r := range res.Rows {
		keys[i] = r.Key
	}
	common, names := plot.Names(keys)
	rows := make([]plot.ForestRow, len(res.Rows))
	for i, r := range res.Rows {
		rows[i] = plot.ForestRow{Name: names[i], Verdict: res.Word(r.Verdict),
			Change: plot.Interval{Center: r.Ratio.Center - 1, Lo: r.Ratio.Lo - 1, Hi: r.Ratio.Hi - 1}}
	}
	title := FigureTitle(res)
	if common != "" {
		title += ", " + common
	}
	return plot.Forest(title, rows, res.Threshold)
}

// FigureTitle is the title of res's forest plot: metric, sides and the
// level of the intervals.
func FigureTitle(res *compare.Result) string {
	return fmt.Sprintf("%s: %s vs %s, %s%% CI", res.Metric, res.NewLabel, res.OldLabel, compare.Percent(res.Level))
}
