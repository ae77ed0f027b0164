package report

import (
	"fmt"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/plot"
	"golang.org/x/perf/benchunit"
)

// Kinds lists the figures Plot draws.
var Kinds = []string{"comparison", "trace", "scaling", "history"}

// PlotOptions say which figure Plot draws.
type PlotOptions struct {
	// Kind is one of Kinds.
	Kind string
	// Compare are the options of a comparison; its Metric is also the
	// unit a trace draws.
	Compare compare.Options
	// Match selects, by name, the benchmark a trace draws, the family
	// of a scaling figure and the series of a history; Pattern is its
	// pattern, which messages quote.
	Match   func(name string) bool
	Pattern string
}

// Plot draws one figure of runs, as mbench plot does: the comparison of
// runs' two sides (compare.Sides; its errors wrap compare.ErrSides), the
// trace of the first benchmark of runs[0] that Match accepts, the first
// scaling family of runs[0] it accepts, or the history of runs. The
// warnings are the comparison's, or that Match accepted several traces.
func Plot(runs []*bench.Run, o PlotOptions) (*plot.Figure, []string, error) {
	if len(runs) == 0 {
		return nil, nil, ErrNoRuns
	}
	switch o.Kind {
	case "comparison":
		old, new, err := compare.Sides(runs...)
		if err != nil {
			return nil, nil, err
		}
		res, err := compare.Compare(old, new, o.Compare)
		if err != nil {
			return nil, nil, err
		}
		return ComparisonFigure(res), res.Warnings, nil
	case "trace":
		_, unit := benchunit.Tidy(1, o.Compare.Metric)
		fig, names := plot.RunTrace(runs[0], func(k bench.Key) bool { return o.Match(k.Name) }, unit)
		switch {
		case fig == nil:
			return nil, nil, fmt.Errorf("%s: no benchmark with %s values matches -bench %q", runs[0].Label, unit, o.Pattern)
		case len(names) > 1:
			return fig, []string{fmt.Sprintf("-bench %q matches %d benchmarks; drawing the first, %s", o.Pattern, len(names), names[0])}, nil
		}
		return fig, nil, nil
	case "scaling", "history":
		opts := Options{Compare: o.Compare, Only: o.Kind}
		if o.Kind == "history" {
			opts.History = runs
		}
		r, err := Build(runs, opts)
		if err != nil {
			return nil, nil, err
		}
		fig, err := r.Figure(o.Kind, o.Match)
		if err != nil {
			return nil, nil, fmt.Errorf("%w -bench %q", err, o.Pattern)
		}
		return fig, nil, nil
	}
	return nil, nil, fmt.Errorf("no figure of kind %q", o.Kind)
}
