package report

import (
	"cmp"
	_ "embed"
	"fmt"
	"github.com/mbench/mbench/plot"
	"html/template"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/stats"
)

//go:embed report.html.tmpl
var pageText string

var pageTemplate = template.Must(template.New("report").Parse(pageText))

// pointBudget is the most values the distributions and traces draw in
// all; each figure gets an equal share, at least minFigurePoints and at
// most maxFigurePoints. It keeps a report of 100 benchmarks well under
// 2 MB.
const (
	pointBudget     = 6000
	minFigurePoints = 30
	maxFigurePoints = 600
)

// maxTraces is the most trace figures a page draws. Each figure costs
// kilobytes whatever its data, and a suite's hundreds of traces are more
// than anyone reads: a larger report draws the traces most worth a look
// (see traceOrder) and names the others.
const maxTraces = 40

// A page is the report as the template shows it.
type page struct {
	Title string
	// Package is the package path every benchmark shares, which the
	// page states once and leaves out of their names; Packages is set
	// when they are packages under it rather than it alone.
	Package  string
	Packages bool
	// Style is the style sheet of the figures, once for all of them.
	Style         template.CSS
	Nav           []section
	Warnings      []string
	Comparisons   []pageComparison
	Paired        []pageFigure
	Scaling       []pageFigure
	Distributions []pageFigure
	Traces        []pageFigure
	// TracesLeftOut names the benchmarks whose traces were not drawn.
	TracesLeftOut []string
	History       []pageFigure
	Profiles      []pageFigure
	Changes       []pageChange
	HistoryRuns   int
	HistoryTooFew string
	Platform      *Platform
}

type section struct{ ID, Name string }

type pageFigure struct {
	Title   string
	SVG     template.HTML
	Caption string
}

type pageComparison struct {
	Result *compare.Result
	// Header and Figures are the two lines of compare.Result.Header,
	// Level the interval's level as the tables print it.
	Header, Figures, Level string
	Figure                 template.HTML
	Rows                   []pageRow
	Geomean                string
	Only                   []only
}

// only lists the benchmarks measured on one side only.
type only struct {
	Label string
	Names []string
}

type pageRow struct {
	Name, Old, New, Change, Interval, Verdict, Class string
}

type pageChange struct {
	Name, Label, Change, Interval, P string
}

func (r *Report) writeHTML(w io.Writer) error {
	p, err := r.page()
	if err != nil {
		return err
	}
	return pageTemplate.Execute(w, p)
}

func (r *Report) page() (*page, error) {
	p := &page{Title: r.Title, Warnings: r.Warnings(), Platform: r.Platform, HistoryRuns: r.HistoryRuns,
		HistoryTooFew: r.HistoryTooFew, Style: template.CSS(plot.StyleSheet())}
	common, several, name := r.names()
	p.Package, p.Packages = common, several
	var err error
	draw := func(f figure) template.HTML {
		if err != nil {
			return ""
		}
		var s template.HTML
		s, err = svg(f)
		return s
	}
	for _, c := range r.Comparisons {
		p.Comparisons = append(p.Comparisons, comparisonOf(c, name, draw))
	}
	for _, pr := range r.Paired {
		title := name(pr.Key)
		p.Paired = append(p.Paired, pageFigure{Title: title, SVG: draw(paired(title, r.Unit, pr.Points)),
			Caption: fmt.Sprintf("%d paired %ss in time order: interference moves both versions together", len(pr.Points), pr.Kind)})
	}
	for _, f := range r.Families {
		title, fig, hints := r.scalingFigure(f)
		p.Scaling = append(p.Scaling, pageFigure{Title: title, SVG: draw(fig),
			Caption: "slope of the log-log fit — " + strings.Join(hints, "; ")})
	}
	drawn := traceOrder(r.Benchmarks, maxTraces)
	figures := 0
	for bi, b := range r.Benchmarks {
		figures += min(len(b.Groups), 1)
		if drawn[bi] {
			figures += len(b.Traces)
		}
	}
	budget := min(max(pointBudget/max(figures, 1), minFigurePoints), maxFigurePoints)
	for bi, b := range r.Benchmarks {
		short := name(b.Key)
		if len(b.Groups) > 0 {
			var groups []stripGroup
			var caption []string
			thinned := false
			for _, g := range b.Groups {
				forks, k := thin(g.Forks, budget)
				thinned = thinned || k > 1
				groups = append(groups, stripGroup{Name: short, Version: g.Side, Forks: forks,
					Center: toInterval(g.Center.Center, g.Center.Lo, g.Center.Hi)})
				caption = append(caption, fmt.Sprintf("%s: mean %s, %s%% CI %s, %d values from %d forks",
					g.Side, r.scale(g.Center.Center), compare.Percent(g.Center.Level), r.scaledInterval(g.Center.Lo, g.Center.Hi), g.N, len(g.Forks)))
			}
			if thinned {
				caption = append(caption, "a share of the values drawn, evenly spaced, and each fork's smallest and largest")
			}
			p.Distributions = append(p.Distributions, pageFigure{Title: short, SVG: draw(strip(short, r.Unit, groups)),
				Caption: strings.Join(caption, "; ")})
		}
		if !drawn[bi] && len(b.Traces) > 0 {
			p.TracesLeftOut = append(p.TracesLeftOut, short)
			continue
		}
		for _, t := range b.Traces {
			title := short
			if len(r.Sides) > 1 {
				title += " (" + t.Side + ")"
			}
			forks, k := thinTrace(t.Forks, budget)
			caption := fmt.Sprintf("%d forks in run order", len(t.Forks))
			if t.Stop != "" {
				caption += "; stopped: " + t.Stop
			}
			if k > 1 {
				caption += fmt.Sprintf("; every %d. value drawn, and each fork's smallest and largest", k)
			}
			p.Traces = append(p.Traces, pageFigure{Title: title, SVG: draw(trace(title, r.Unit, forks, t.StopAfter)), Caption: caption})
		}
	}
	if len(r.History) > 0 {
		for _, s := range r.History {
			for _, c := range s.Changes {
				p.Changes = append(p.Changes, pageChange{Name: name(seriesKey(s)), Label: c.Label, Change: pctChange(c.Ratio - 1),
					Interval: "[" + pctChange(c.Lo-1) + ", " + pctChange(c.Hi-1) + "]", P: fmt.Sprintf("%.3g", c.P)})
			}
		}
		title, fig := r.historyFigure(r.History)
		p.History = append(p.History, pageFigure{Title: title, SVG: draw(fig),
			Caption: fmt.Sprintf("%d benchmarks; bands are intervals, marks are change points", len(r.History))})
	}
	for _, pr := range r.Profiles {
		p.Profiles = append(p.Profiles, pageFigure{Title: pr.Name, SVG: draw(flame{title: pr.Name, p: pr}),
			Caption: fmt.Sprintf("go tool pprof -diff_base %s %s", pr.Old, pr.New)})
	}
	for _, s := range []struct {
		id, name string
		ok       bool
	}{
		{"comparison", "Comparison", len(p.Comparisons) > 0},
		{"paired", "Paired samples", len(p.Paired) > 0},
		{"scaling", "Scaling", len(p.Scaling) > 0},
		{"distributions", "Distributions", len(p.Distributions) > 0},
		{"traces", "Traces", len(p.Traces) > 0},
		{"history", "History", len(p.History) > 0},
		{"profiles", "Profiles", len(p.Profiles) > 0},
		{"platform", "Platform", p.Platform != nil},
	} {
		if s.ok {
			p.Nav = append(p.Nav, section{s.id, s.name})
		}
	}
	return p, err
}

// scalingFigure draws family f, one line per variant, and returns its
// title and the slope hint of each line.
func (r *Report) scalingFigure(f *Family) (title string, fig figure, hints []string) {
	var lines []scalingLine
	for _, l := range f.Lines {
		sl := scalingLine{Name: l.Name, Slope: toInterval(l.Slope.Center, l.Slope.Lo, l.Slope.Hi)}
		for _, pt := range l.Points {
			sl.Points = append(sl.Points, scalingPoint{X: pt.X, Y: toInterval(pt.Center, pt.Lo, pt.Hi)})
		}
		lines = append(lines, sl)
		hints = append(hints, l.Name+": "+cmp.Or(l.Hint, slope(f.Param, sl.Slope)))
	}
	title = f.Name + " by " + f.Param
	return title, scalingPlot(title, f.Param, r.Unit, lines), hints
}

// historyFigure draws series, one panel each, with their change points,
// named without the package path they share, which the title states.
func (r *Report) historyFigure(series []*series) (title string, fig figure) {
	var keys []bench.Key
	for _, s := range series {
		keys = append(keys, seriesKey(s))
	}
	common, names := plot.Names(keys)
	var hs []historySeries
	for i, s := range series {
		h := historySeries{Name: names[i]}
		for _, pt := range s.Points {
			h.Points = append(h.Points, historyPoint{Label: pt.Label, Y: toInterval(pt.Center, pt.Lo, pt.Hi)})
		}
		for _, c := range s.Changes {
			h.Changes = append(h.Changes, c.Index)
		}
		hs = append(hs, h)
	}
	title = fmt.Sprintf("%s across %d runs", r.Unit, r.HistoryRuns)
	if common != "" {
		title += ", " + common
	}
	return title, historyPlot(title, r.Unit, hs)
}

// Figure returns one figure of the report alone, as mbench plot draws it:
// kind "scaling" draws the first family whose name match accepts; kind
// "history" draws the series whose names match accepts, in small multiples.
func (r *Report) Figure(kind string, match func(name string) bool) (*plot.Figure, error) {
	var fig figure
	switch kind {
	case "scaling":
		for _, f := range r.Families {
			if match(f.Name) {
				_, fig, _ = r.scalingFigure(f)
				break
			}
		}
	case "history":
		var picked []*series
		for _, s := range r.History {
			if match(seriesName(s)) {
				picked = append(picked, s)
			}
		}
		if len(picked) > 0 {
			_, fig = r.historyFigure(picked)
		}
	default:
		return nil, fmt.Errorf("no figure of kind %q", kind)
	}
	if fig == nil {
		return nil, fmt.Errorf("no %s data match", kind)
	}
	return fig.(*plot.Figure), nil
}

func comparisonOf(c *compare.Result, name func(bench.Key) string, draw func(figure) template.HTML) pageComparison {
	pc := pageComparison{Result: c, Level: compare.Percent(c.Level)}
	pc.Header, pc.Figures = c.Header()
	for i := range c.Rows {
		row := &c.Rows[i]
		word := c.Word(row.Verdict)
		pr := pageRow{Name: name(row.Key), Old: scaleUnit(row.Old.Center, c.Metric), New: scaleUnit(row.New.Center, c.Metric),
			Change: pctChange(row.Change()), Interval: "-", Verdict: word, Class: verdictClass(word)}
		if !math.IsNaN(row.Ratio.Lo) {
			pr.Interval = "[" + pctChange(row.Ratio.Lo-1) + ", " + pctChange(row.Ratio.Hi-1) + "]"
		}
		if row.Note != "" {
			pr.Verdict += " (" + row.Note + ")"
		}
		pc.Rows = append(pc.Rows, pr)
	}
	if c.Geomean.N > 1 {
		pc.Geomean = fmt.Sprintf("geomean %s → %s (%s) over %d benchmarks", scaleUnit(c.Geomean.Old, c.Metric),
			scaleUnit(c.Geomean.New, c.Metric), pctChange(c.Geomean.Ratio-1), c.Geomean.N)
	}
	for i, ks := range [][]bench.Key{c.OnlyOld, c.OnlyNew} {
		if len(ks) > 0 {
			o := only{Label: []string{c.OldLabel, c.NewLabel}[i]}
			for _, k := range ks {
				o.Names = append(o.Names, name(k))
			}
			pc.Only = append(pc.Only, o)
		}
	}
	if len(c.Rows) > 0 {
		pc.Figure = draw(ComparisonFigure(c))
	}
	return pc
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return +1
	}
	return 0
}

func scaleUnit(v float64, unit string) string { return (&Report{Unit: unit}).scale(v) }

// verdictClass is the class of a verdict's word in the page's tables,
// coloured as the forest plot colours it: a larger value (slower, more)
// as a regression, a smaller one (faster, less) as an improvement.
func verdictClass(word string) string {
	switch word {
	case "slower", "more":
		return "slower"
	case "faster", "less":
		return "faster"
	}
	return ""
}

// names returns the package path that every benchmark of the report
// shares, whether the benchmarks are of several packages under it, and a
// function that names a benchmark without it (plot.Names).
func (r *Report) names() (common string, several bool, name func(bench.Key) string) {
	var keys []bench.Key
	seen := make(map[bench.Key]bool)
	add := func(k bench.Key) {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	for _, b := range r.Benchmarks {
		add(b.Key)
	}
	for _, c := range r.Comparisons {
		for _, row := range c.Rows {
			add(row.Key)
		}
		for _, k := range slices.Concat(c.OnlyOld, c.OnlyNew) {
			add(k)
		}
	}
	for _, p := range r.Paired {
		add(p.Key)
	}
	for _, s := range r.History {
		add(seriesKey(s))
	}
	common, names := plot.Names(keys)
	short := make(map[bench.Key]string, len(keys))
	for i, k := range keys {
		short[k] = names[i]
		several = several || k.Package != common
	}
	return common, several, func(k bench.Key) string {
		if s, ok := short[k]; ok {
			return s
		}
		return k.String()
	}
}

// thin keeps every k-th value of each fork, with k the smallest step that
// keeps at most budget values in all, and each fork's smallest and
// largest value besides, so that what stands out (a slow outlier, a fast
// first iteration) is drawn whatever the step.
func thin(forks [][]float64, budget int) ([][]float64, int) {
	kept, k := thinned(forks, budget)
	if k == 1 {
		return forks, 1
	}
	out := make([][]float64, len(forks))
	for i, f := range forks {
		for _, j := range kept[i] {
			out[i] = append(out[i], f[j])
		}
	}
	return out, k
}

// thinned returns the indexes of the values thin keeps of each fork, in
// order, and the step.
func thinned(forks [][]float64, budget int) ([][]int, int) {
	n := 0
	for _, f := range forks {
		n += len(f)
	}
	k := max((n+budget-1)/max(budget, 1), 1)
	kept := make([][]int, len(forks))
	for i, f := range forks {
		lo, hi := 0, 0
		for j, v := range f {
			if v < f[lo] {
				lo = j
			}
			if v > f[hi] {
				hi = j
			}
		}
		for j := range f {
			if j%k == 0 || j == lo || j == hi {
				kept[i] = append(kept[i], j)
			}
		}
	}
	return kept, k
}

// thinTrace thins the forks of a trace as thin does, keeping the count
// of warm-up values among those kept.
func thinTrace(forks []traceFork, budget int) ([]traceFork, int) {
	values := make([][]float64, len(forks))
	for i, f := range forks {
		values[i] = f.Values
	}
	kept, k := thinned(values, budget)
	if k == 1 {
		return forks, 1
	}
	out := make([]traceFork, len(forks))
	for i, f := range forks {
		for _, j := range kept[i] {
			out[i].Values = append(out[i].Values, f.Values[j])
			if j < f.Warmup {
				out[i].Warmup++
			}
		}
	}
	return out, k
}

// traceOrder chooses the benchmarks of bs whose traces to draw, at most n
// traces in all: every one when there are no more, otherwise first the
// benchmarks the stopping criterion did not find stable, then those whose
// forks' means spread the most relative to their mean.
func traceOrder(bs []*Benchmark, n int) map[int]bool {
	type cand struct {
		at, traces int
		unstable   bool
		spread     float64
	}
	var cands []cand
	total := 0
	for bi, b := range bs {
		c := cand{at: bi, traces: len(b.Traces)}
		for _, t := range b.Traces {
			c.unstable = c.unstable || t.Stop != "" && t.StopAfter == 0
			var means []float64
			for _, f := range t.Forks {
				if f.Warmup < len(f.Values) {
					means = append(means, stats.Mean(f.Values[f.Warmup:]))
				}
			}
			if len(means) > 1 {
				c.spread = max(c.spread, stats.StdDev(means)/math.Abs(stats.Mean(means)))
			}
		}
		total += c.traces
		cands = append(cands, c)
	}
	if total > n {
		slices.SortStableFunc(cands, func(a, b cand) int {
			if a.unstable != b.unstable {
				if a.unstable {
					return -1
				}
				return +1
			}
			return cmpFloat(b.spread, a.spread)
		})
	}
	out := make(map[int]bool)
	for _, c := range cands {
		if n -= c.traces; n < 0 {
			break
		}
		out[c.at] = true
	}
	return out
}
