package plot

import (
	"fmt"
	"math"
	"strconv"
)

// Layout of single-panel figures, in pixels.
const (
	panelWidth  = 720
	panelHeight = 360
	panelLeft   = 72 // tick labels and the rotated axis label
	panelTop    = 50 // below the title and the legend
)

// singlePanel starts a one-panel figure and returns its plotting area.
func singlePanel(kind, title string, h float64) (*Figure, frame) {
	f := newFigure(kind, title, "", panelWidth, h)
	f.heading()
	return f, frame{x0: panelLeft, y0: panelTop, x1: panelWidth - 20, y1: h - 45}
}

// valueScale returns the y scale of values: linear, or logarithmic when
// the positive values span more than a factor of 30.
func valueScale(vals []float64, fr frame) (scale, []float64, bool) {
	lo, hi, ok := bounds(vals, false)
	if ok && lo > 0 && hi/lo > 30 {
		return logarithmic(vals, fr.y1, fr.y0)
	}
	return linear(vals, fr.y1, fr.y0)
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

// Trace draws the iterations of every fork in run order, one fork after
// the other: warm-up values as open grey markers, measurement values in a
// colour that alternates from fork to fork, a dashed cut where each fork's
// warm-up ended, and, when stopAfter > 0, a line after the fork at which
// the stopping criterion fired.
func Trace(title, unit string, forks []TraceFork, stopAfter int) *Figure {
	var vals []float64
	for _, fk := range forks {
		vals = append(vals, fk.Values...)
	}
	f, fr := singlePanel("trace", title, panelHeight)
	ys, yticks, ok := valueScale(vals, fr)
	if !ok {
		return empty("trace", title, "no finite values to draw")
	}
	f.desc = fmt.Sprintf("%d iterations of %d forks in run order; warm-up values open, the end of each fork's warm-up dashed", len(vals), len(forks))
	xs := scale{lo: -0.5, hi: float64(len(vals)) - 0.5, a: fr.x0, b: fr.x1}
	f.yAxis(fr, ys, yticks, formatter(unit, yticks, ys.log), unit)
	var starts []float64
	labelEvery := (len(forks) + 19) / 20
	start := 0
	for k, fk := range forks {
		if k > 0 {
			f.line("sep", point{xs.at(float64(start) - 0.5), fr.y0}, point{xs.at(float64(start) - 0.5), fr.y1})
		}
		if k%labelEvery == 0 {
			starts = append(starts, float64(start)+float64(len(fk.Values)-1)/2)
		}
		if w := min(max(fk.Warmup, 0), len(fk.Values)); w > 0 {
			x := xs.at(float64(start+w) - 0.5)
			f.line("cut", point{x, fr.y0}, point{x, fr.y1})
		}
		class := series("c", 3*(k%2)) // blue and orange, fork by fork
		for j, v := range fk.Values {
			if !drawable(ys, v) {
				continue
			}
			if j < fk.Warmup {
				f.marker("warm", circle, xs.at(float64(start+j)), ys.at(v), 2.6)
			} else {
				f.marker(class, circle, xs.at(float64(start+j)), ys.at(v), 2.6)
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
	f.xAxis(fr, xs, starts, forkNo, "fork, iterations in run order")
	keys := []legendEntry{
		{"measurement", markerKey("c0", circle)},
		{"warm-up", markerKey("warm", circle)},
		{"end of warm-up", lineKey("cut")},
	}
	if stopAfter > 0 && len(forks) > 0 {
		k := min(stopAfter, len(forks))
		end := 0
		for _, fk := range forks[:k] {
			end += len(fk.Values)
		}
		x := xs.at(float64(end) - 0.5)
		f.line("stop", point{x, fr.y0}, point{x, fr.y1})
		f.marker("stop", triDown, x, fr.y0+5, 4.5)
		f.desc += fmt.Sprintf("; the stopping criterion fired after fork %d", stopAfter)
		keys = append(keys, legendEntry{fmt.Sprintf("criterion fired (fork %d)", stopAfter), markerKey("stop", triDown)})
	}
	f.box(fr)
	f.legend(8, 38, f.w-8, keys)
	return f
}

// A PairedPoint is one old and one new value measured together.
type PairedPoint struct{ Old, New float64 }

// Paired draws the old and new values of paired samples in time order on
// one axis, so that interference that moves both at once shows as both
// series moving together, and a real difference as a steady gap.
func Paired(title, unit string, points []PairedPoint) *Figure {
	var vals []float64
	for _, p := range points {
		vals = append(vals, p.Old, p.New)
	}
	f, fr := singlePanel("paired", title, panelHeight)
	ys, yticks, ok := valueScale(vals, fr)
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
	f.yAxis(fr, ys, yticks, formatter(unit, yticks, ys.log), unit)
	for i, p := range points {
		x := xs.at(float64(i + 1))
		if drawable(ys, p.Old) {
			f.marker("c0", circle, x, ys.at(p.Old), 2.6)
		}
		if drawable(ys, p.New) {
			f.marker("c1", square, x, ys.at(p.New), 2.6)
		}
	}
	f.box(fr)
	f.legend(8, 38, f.w-8, []legendEntry{{"old", markerKey("c0", circle)}, {"new", markerKey("c1", square)}})
	return f
}
