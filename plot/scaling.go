package plot

import (
	"cmp"
	"fmt"
	"slices"
)

// A ScalingPoint is one size of a benchmark family: the parameter and the
// measured value with its interval.
type ScalingPoint struct {
	X float64
	Y Interval
}

// A ScalingLine is one variant of a benchmark family across sizes, with
// the slope of its log-log fit.
type ScalingLine struct {
	Name   string
	Points []ScalingPoint
	Slope  Interval
}

// Scaling draws value against parameter on log-log axes with decade
// ticks: per line, its points joined by straight segments (never
// smoothed), error bars for the intervals, and in the legend the slope of
// the log-log fit, "≈ n^1.02 [0.98, 1.06]", the exponent of the growth
// the data suggest. Points that are not positive cannot be placed on log
// axes and are left out; the description says how many.
func Scaling(title, xName, unit string, lines []ScalingLine) *Figure {
	if xName == "" {
		xName = "n"
	}
	var xv, yv []float64
	dropped := 0
	for _, l := range lines {
		for _, p := range l.Points {
			if !finite(p.X, p.Y.Center) || p.X <= 0 || p.Y.Center <= 0 {
				dropped++
				continue
			}
			xv = append(xv, p.X)
			yv = append(yv, p.Y.Center, p.Y.Lo, p.Y.Hi)
		}
	}
	if len(xv) == 0 {
		return empty("scaling", title, "no positive values to draw on log-log axes")
	}
	const plotH = 400
	top := titleY + 24.0
	h := top + plotH + panelBottom + 22*float64(len(lines))
	f := newFigure("scaling", title, "", figureWidth, h)
	f.heading()
	fr := frame{x0: panelLeft, y0: top, x1: figureWidth - panelRight, y1: top + plotH}
	f.desc = fmt.Sprintf("%d lines of %s against %s on log-log axes with error bars; the legend gives each slope of the log-log fit", len(lines), unit, xName)
	if dropped > 0 {
		f.desc += fmt.Sprintf("; %d points that are not positive left out", dropped)
	}
	xs, xticks, _ := logarithmic(xv, fr.x0, fr.x1)
	ys, yticks, _ := logarithmic(yv, fr.y1, fr.y0)
	f.xAxis(fr, xs, xticks, formatter("", xticks, true), xName)
	f.yAxis(fr, ys, yticks, formatter(unit, yticks, true), unit)
	var keys []legendEntry
	for i, l := range lines {
		class, sh := series("c", i), seriesShapes[i%len(seriesShapes)]
		pts := slices.Clone(l.Points)
		slices.SortStableFunc(pts, func(a, b ScalingPoint) int { return cmp.Compare(a.X, b.X) })
		var path []point
		for _, p := range pts {
			if !finite(p.X, p.Y.Center) || p.X <= 0 || p.Y.Center <= 0 {
				continue
			}
			x, y := xs.at(p.X), ys.at(p.Y.Center)
			path = append(path, point{x, y})
			if finite(p.Y.Lo, p.Y.Hi) && p.Y.Hi > 0 {
				lo := fr.y1 // an interval reaching zero runs off the axis
				if p.Y.Lo > 0 {
					lo = min(fr.y1, ys.at(p.Y.Lo))
				}
				hi := max(fr.y0, ys.at(p.Y.Hi))
				f.line(class, point{x, lo}, point{x, hi})
				f.line(class, point{x - 4, lo}, point{x + 4, lo})
				f.line(class, point{x - 4, hi}, point{x + 4, hi})
			}
		}
		if len(path) > 1 {
			f.line(series("l", i), path...)
		}
		for _, p := range path {
			f.marker(class, sh, p.x, p.y, 4)
		}
		keys = append(keys, legendEntry{truncate(l.Name, maxName) + slopeText(xName, l.Slope), markerKey(class, sh)})
	}
	f.box(fr)
	y := fr.y1 + panelBottom
	for _, k := range keys {
		f.legend(fr.x0, y, f.w, []legendEntry{k})
		y += 22
	}
	return f
}

// slopeText writes the growth a slope suggests, " ≈ n^1.02 [0.98, 1.06]",
// or nothing when the slope is unknown.
func slopeText(x string, s Interval) string {
	if !finite(s.Center) {
		return ""
	}
	t := fmt.Sprintf(" ≈ %s^%.2f", x, s.Center)
	if finite(s.Lo, s.Hi) {
		t += fmt.Sprintf(" [%.2f, %.2f]", s.Lo, s.Hi)
	}
	return t
}
