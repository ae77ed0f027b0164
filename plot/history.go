package plot

import (
	"fmt"
	"math"
)

// A HistoryPoint is one run of a series: its label (a commit, a run
// label) and the value with its interval.
type HistoryPoint struct {
	Label string
	Y     Interval
}

// A HistorySeries is one benchmark across runs, in time order, with the
// change points found in it.
type HistorySeries struct {
	Name   string
	Points []HistoryPoint
	// Changes are indexes into Points at which a step starts.
	Changes []int
}

// Sizes of history panels, in pixels: one series gets a wide panel,
// several share a grid of small multiples.
const (
	historyW, historyH = figureWidth - 16, 360
	smallW, smallH     = historyW / smallCols, 240
	smallCols          = 3
	historyTop         = 66
)

// History draws each series in a panel of its own: the interval of every
// run as a band, its centre as a marker, and a dashed line before each run
// at which a change point starts a step. Several series form a grid of
// small multiples, each with its own y axis.
func History(title, unit string, series []HistorySeries) *Figure {
	if len(series) == 0 {
		return empty("history", title, "no series to draw")
	}
	pw, ph, cols := historyW, historyH, 1
	if len(series) > 1 {
		pw, ph, cols = smallW, smallH, min(smallCols, len(series))
	}
	rows := (len(series) + cols - 1) / cols
	f := newFigure("history", title, "", float64(cols*pw+16), float64(historyTop+rows*ph))
	f.heading()
	changes := 0
	for i, s := range series {
		x0, y0 := float64(8+(i%cols)*pw), float64(historyTop+(i/cols)*ph)
		changes += f.historyPanel(s, unit, frame{x0 + 76, y0 + 26, x0 + float64(pw) - 16, y0 + float64(ph) - 36})
	}
	f.desc = fmt.Sprintf("%d series across runs, intervals as bands, %d change points as dashed lines", len(series), changes)
	f.legend(legendX, legendY, f.w-8, []legendEntry{
		{"centre", markerKey("c0", circle)},
		{"interval", func(f *Figure, x, y float64) { f.rect("a0", x-6, y-6, x+6, y+6) }},
		{"change point", lineKey("chg")},
	})
	return f
}

// historyPanel draws one series in fr and returns how many change points
// it marked.
func (f *Figure) historyPanel(s HistorySeries, unit string, fr frame) int {
	f.text("t", fr.x0, fr.y0-8, "start", truncate(s.Name, int((fr.x1-fr.x0)/8)))
	var vals []float64
	for _, p := range s.Points {
		vals = append(vals, p.Y.Center, p.Y.Lo, p.Y.Hi)
	}
	ys, yticks, ok := linear(vals, fr.y1, fr.y0)
	if !ok {
		f.box(fr)
		f.text("msg", (fr.x0+fr.x1)/2, (fr.y0+fr.y1)/2, "middle", "no finite values")
		return 0
	}
	n := len(s.Points)
	xs := scale{lo: -0.5, hi: float64(n) - 0.5, a: fr.x0, b: fr.x1}
	yticks = thin(yticks, int((fr.y1-fr.y0)/30))
	f.yAxis(fr, ys, yticks, formatter(unit, yticks, false), "")
	// Label a few runs, evenly spread, the last one always.
	maxLabels := max(1, int((fr.x1-fr.x0)/90))
	step := int(math.Ceil(float64(n) / float64(maxLabels)))
	var xticks []float64
	for i := n - 1; i >= 0; i -= step {
		xticks = append([]float64{float64(i)}, xticks...)
	}
	f.xAxis(fr, xs, xticks, func(v float64) string { return truncate(s.Points[int(v)].Label, 10) }, "")
	// The band, in runs of consecutive points with a finite interval.
	var upper, lower []point
	flush := func() {
		if len(upper) > 0 {
			band := append(upper, reversed(lower)...)
			if len(upper) == 1 { // one run: a bar of the marker's width
				band = []point{{upper[0].x - 2, upper[0].y}, {upper[0].x + 2, upper[0].y}, {lower[0].x + 2, lower[0].y}, {lower[0].x - 2, lower[0].y}}
			}
			f.area("a0", band)
		}
		upper, lower = nil, nil
	}
	for i, p := range s.Points {
		if !finite(p.Y.Lo, p.Y.Hi) {
			flush()
			continue
		}
		x := xs.at(float64(i))
		upper = append(upper, point{x, ys.at(p.Y.Hi)})
		lower = append(lower, point{x, ys.at(p.Y.Lo)})
	}
	flush()
	r := 3.0
	if n > 100 {
		r = 2
	}
	var centres []point
	for i, p := range s.Points {
		if finite(p.Y.Center) {
			centres = append(centres, point{xs.at(float64(i)), ys.at(p.Y.Center)})
		}
	}
	f.dots("d0", centres, r)
	marked := 0
	for _, c := range s.Changes {
		if c > 0 && c < n {
			x := xs.at(float64(c) - 0.5)
			f.line("chg", point{x, fr.y0}, point{x, fr.y1})
			marked++
		}
	}
	f.box(fr)
	return marked
}

// thin keeps every k-th tick so that at most n remain.
func thin(ticks []float64, n int) []float64 {
	if n < 2 || len(ticks) <= n {
		return ticks
	}
	k := (len(ticks) + n - 1) / n
	var out []float64
	for i := 0; i < len(ticks); i += k {
		out = append(out, ticks[i])
	}
	return out
}

func reversed(p []point) []point {
	out := make([]point, len(p))
	for i, q := range p {
		out[len(p)-1-i] = q
	}
	return out
}
