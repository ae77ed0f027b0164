package report

import (
	"fmt"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/plot"
)

// ComparisonFigure compares old and new as mbench compare does, in
// opts.Metric, and draws the rows as a forest plot: each benchmark's
// relative change with its interval. It returns the comparison's warnings.
func ComparisonFigure(old, new *bench.Run, opts compare.Options) (*plot.Figure, []string, error) {
	res, err := compare.Compare(old, new, opts)
	if err != nil {
		return nil, nil, err
	}
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
	title := fmt.Sprintf("%s: %s vs %s", res.Metric, res.OldLabel, res.NewLabel)
	if common != "" {
		title += ", " + common
	}
	return plot.Forest(title, rows, res.Threshold), res.Warnings, nil
}
