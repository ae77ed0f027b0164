package plot

import (
	"fmt"
	"math"
	"strconv"
)

// Layout of single-panel figures, in pixels.
const (
	panelHeight = 440
	panelLeft   = 92 // tick labels and the rotated axis label
	panelRight  = 24
	panelTop    = 64 // below the title and the legend
	panelBottom = 56 // tick labels and the axis label
)

// singlePanel starts a one-panel figure and returns its plotting area.
func singlePanel(kind, title string, h float64) (*Figure, frame) {
	f := newFigure(kind, title, "", figureWidth, h)
	f.heading()
	return f, frame{x0: panelLeft, y0: panelTop, x1: figureWidth - panelRight, y1: h - panelBottom}
}

// drawable reports whether v can be placed on s.
func drawable(s scale, v float64) bool { return finite(v) && (!s.log || v > 0) }

// A TraceFork is the values of one fork (process) in the order they were
// measured, warm-up first.
type TraceFork struct {
	Values []float64
	// Warmup is the number of leading values that were warm-up.
	Warmup int
}

// maxCuts is the most forks whose end of warm-up a trace marks with a
// dashed line. More lines would be a comb more than a picture: the open
// warm-up markers then show it alone.
const maxCuts = 12

// Trace draws the iterations of every fork in run order, one fork after
// the other: warm-up values as open grey markers, measurement values
// filled, the span of every other fork shaded, a dashed cut where each
// fork's warm-up ended (up to maxCuts forks), and, when stopAfter > 0, a
// line after the fork at which the stopping criterion fired. The value
// axis shows the bulk of the values; values far out are drawn at its edge
// with their count.
//
// Forks are told apart by shading rather than by a line each: at a
// hundred forks, lines a few pixels apart would grey the plot over, while
// alternate bands stay as legible as a table's alternate rows, and every
// value is still drawn.
func Trace(title, unit string, forks []TraceFork, stopAfter int) *Figure {
	var vals []float64
	for _, fk := range forks {
		vals = append(vals, fk.Values...)
	}
	f, fr := singlePanel("trace", title, panelHeight)
	ys, ok := valueAxisOf(vals, nil, fr.y1, fr.y0)
	if !ok {
		return empty("trace", title, "no finite values to draw")
	}
	f.desc = fmt.Sprintf("%d iterations of %d forks in run order, every other fork shaded; warm-up values open", len(vals), len(forks))
	xs := scale{lo: -0.5, hi: float64(len(vals)) - 0.5, a: fr.x0, b: fr.x1}
	start := 0
	for k, fk := range forks {
		if k%2 == 1 && len(fk.Values) > 0 {
			f.rect("fork", xs.at(float64(start)-0.5), fr.y0, xs.at(float64(start+len(fk.Values))-0.5), fr.y1)
		}
		start += len(fk.Values)
	}
	f.yAxis(fr, ys.scale, ys.ticks, formatter(unit, ys.ticks, ys.log), unit)
	// Label forks at their middle, as many as fit a label every 60 pixels.
	var starts []float64
	labelEvery := 1
	for len(forks) > 0 && (fr.x1-fr.x0)/float64((len(forks)+labelEvery-1)/labelEvery) < 60 {
		labelEvery = nextStep(labelEvery)
	}
	cuts := len(forks) <= maxCuts
	beyond := [2]int{}
	start = 0
	for k, fk := range forks {
		if k%labelEvery == 0 && len(fk.Values) > 0 {
			starts = append(starts, float64(start)+float64(len(fk.Values)-1)/2)
		}
		if w := min(max(fk.Warmup, 0), len(fk.Values)); w > 0 && cuts {
			x := xs.at(float64(start+w) - 0.5)
			f.line("cut", point{x, fr.y0}, point{x, fr.y1})
		}
		for j, v := range fk.Values {
			if !drawable(ys.scale, v) {
				continue
			}
			x := xs.at(float64(start + j))
			y, side := ys.place(v)
			switch {
			case side != 0:
				beyond[(side+1)/2]++
				f.marker("edge", []shape{triDown, triUp}[(side+1)/2], x, y, 4)
			case j < fk.Warmup:
				f.marker("warm", circle, x, y, 3)
			default:
				f.marker("c0", circle, x, y, 3)
			}
		}
		start += len(fk.Values)
	}
	forkNo := func(x float64) string {
		for k, s := range starts {
			if s == x {
				return strconv.Itoa(k*labelEvery + 1)
			}
		}
		return ""
	}
	f.xAxis(fr, xs, starts, forkNo, fmt.Sprintf("fork (%d in all), iterations in run order", len(forks)))
	keys := []legendEntry{
		{"measurement", markerKey("c0", circle)},
		{"warm-up", markerKey("warm", circle)},
	}
	if cuts {
		keys = append(keys, legendEntry{"end of warm-up", lineKey("cut")})
	}
	if len(forks) > 1 {
		keys = append(keys, legendEntry{"every other fork", func(f *Figure, x, y float64) { f.rect("fork", x-6, y-7, x+6, y+7) }})
	}
	if stopAfter > 0 && len(forks) > 0 {
		k := min(stopAfter, len(forks))
		end := 0
		for _, fk := range forks[:k] {
			end += len(fk.Values)
		}
		x := xs.at(float64(end) - 0.5)
		f.line("stop", point{x, fr.y0}, point{x, fr.y1})
		f.marker("stop", triDown, x, fr.y0+6, 5.5)
		f.desc += fmt.Sprintf("; the stopping criterion fired after fork %d", stopAfter)
		keys = append(keys, legendEntry{fmt.Sprintf("criterion fired (fork %d)", stopAfter), markerKey("stop", triDown)})
	}
	if n := beyond[0] + beyond[1]; n > 0 {
		f.edgeCounts(fr, beyond)
		keys = append(keys, edgeKey(n, []shape{triDown, triUp}[boolInt(beyond[1] > 0)]))
		f.desc += fmt.Sprintf("; %d values far beyond the rest drawn at the edge", n)
	}
	f.box(fr)
	f.legend(legendX, legendY, f.w-8, keys)
	return f
}

// nextStep returns the step after k in 1, 2, 5, 10, 20, 50, ...
func nextStep(k int) int {
	m, p := k, 1
	for m >= 10 {
		m, p = m/10, p*10
	}
	switch m {
	case 1:
		return 2 * p
	case 2:
		return 5 * p
	}
	return 10 * p
}

// edgeCounts writes, at the right end of the top and bottom edges of a
// panel, how many values beyond them are drawn there.
func (f *Figure) edgeCounts(fr frame, beyond [2]int) {
	if n := beyond[1]; n > 0 {
		f.text("ts", fr.x1-6, fr.y0+18, "end", fmt.Sprintf("%d above", n))
	}
	if n := beyond[0]; n > 0 {
		f.text("ts", fr.x1-6, fr.y1-10, "end", fmt.Sprintf("%d below", n))
	}
}

// A PairedPoint is one old and one new value measured together.
type PairedPoint struct{ Old, New float64 }

// Paired draws the old and new values of paired samples in time order on
// one axis, so that interference that moves both at once shows as both
// series moving together, and a real difference as a steady gap. The axis
// shows the bulk of the values; those far out are drawn at its edge.
func Paired(title, unit string, points []PairedPoint) *Figure {
	var vals []float64
	for _, p := range points {
		vals = append(vals, p.Old, p.New)
	}
	f, fr := singlePanel("paired", title, panelHeight)
	ys, ok := valueAxisOf(vals, nil, fr.y1, fr.y0)
	if !ok {
		return empty("paired", title, "no finite values to draw")
	}
	f.desc = fmt.Sprintf("%d paired samples of old and new in time order on one axis", len(points))
	xs, xticks, _ := linear([]float64{1, float64(len(points))}, fr.x0, fr.x1)
	var whole []float64
	for _, t := range xticks {
		if t == math.Trunc(t) && t >= 1 {
			whole = append(whole, t)
		}
	}
	f.xAxis(fr, xs, whole, func(v float64) string { return strconv.Itoa(int(v)) }, "pair, in time order")
	f.yAxis(fr, ys.scale, ys.ticks, formatter(unit, ys.ticks, ys.log), unit)
	beyond := [2]int{}
	for i, p := range points {
		x := xs.at(float64(i + 1))
		for _, m := range []struct {
			v     float64
			class string
			sh    shape
		}{{p.Old, "c0", circle}, {p.New, "c1", square}} {
			if !drawable(ys.scale, m.v) {
				continue
			}
			y, side := ys.place(m.v)
			if side != 0 {
				beyond[(side+1)/2]++
				f.marker("edge", []shape{triDown, triUp}[(side+1)/2], x, y, 4)
				continue
			}
			f.marker(m.class, m.sh, x, y, 3)
		}
	}
	keys := []legendEntry{{"old", markerKey("c0", circle)}, {"new", markerKey("c1", square)}}
	if n := beyond[0] + beyond[1]; n > 0 {
		f.edgeCounts(fr, beyond)
		keys = append(keys, edgeKey(n, []shape{triDown, triUp}[boolInt(beyond[1] > 0)]))
		f.desc += fmt.Sprintf("; %d values far beyond the rest drawn at the edge", n)
	}
	f.box(fr)
	f.legend(legendX, legendY, f.w-8, keys)
	return f
}
