package plot

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// A scale maps data values in [lo, hi] to pixels in [a, b]; a log scale
// maps their decimal logarithms, and lo and hi are then logarithms too.
type scale struct {
	lo, hi, a, b float64
	log          bool
}

func (s scale) at(v float64) float64 {
	if s.log {
		v = math.Log10(v)
	}
	if s.hi == s.lo {
		return (s.a + s.b) / 2
	}
	return s.a + (v-s.lo)/(s.hi-s.lo)*(s.b-s.a)
}

// linear returns a linear scale over the finite values of vs, widened by a
// margin and to its ticks, and its ticks. ok is false when vs holds no
// finite value.
func linear(vs []float64, a, b float64) (s scale, ticks []float64, ok bool) {
	lo, hi, ok := bounds(vs, false)
	if !ok {
		return scale{}, nil, false
	}
	s, ticks = linearSpan(lo, hi, a, b)
	return s, ticks, true
}

// linearSpan returns a linear scale over [lo, hi], widened by a margin,
// and its ticks: about one every 70 pixels across, the width of a label,
// and one every 50 pixels up (when b < a, as y grows downwards).
func linearSpan(lo, hi, a, b float64) (scale, []float64) {
	if lo == hi {
		d := math.Abs(lo) * 0.1
		if d == 0 {
			d = 1
		}
		lo, hi = lo-d, hi+d
	}
	pad := (hi - lo) * 0.04
	lo, hi = lo-pad, hi+pad
	every := 70.0
	if b < a {
		every = 50
	}
	ticks := niceTicks(lo, hi, int(math.Max(2, math.Abs(b-a)/every)))
	return scale{lo: lo, hi: hi, a: a, b: b}, ticks
}

// logarithmic returns a log scale over the positive finite values of vs,
// from a decade below to a decade above, and its ticks: the decades, and
// 2 and 5 times them when the data span less than two decades.
func logarithmic(vs []float64, a, b float64) (s scale, ticks []float64, ok bool) {
	lo, hi, ok := bounds(vs, true)
	if !ok {
		return scale{}, nil, false
	}
	s, ticks = logSpan(lo, hi, a, b)
	return s, ticks, true
}

// logSpan returns a log scale over the decades around [lo, hi], both
// positive, and its ticks.
func logSpan(lo, hi, a, b float64) (s scale, ticks []float64) {
	l0, l1 := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if l0 == l1 {
		l1++
	}
	for e := l0; e <= l1; e++ {
		d := math.Pow(10, e)
		ticks = append(ticks, d)
		if l1-l0 <= 2 && e < l1 {
			ticks = append(ticks, 2*d, 5*d)
		}
	}
	return scale{lo: l0, hi: l1, a: a, b: b, log: true}, ticks
}

// bounds returns the smallest and largest finite value of vs, and only of
// positive ones when positive is set.
func bounds(vs []float64, positive bool) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if !finite(v) || positive && v <= 0 {
			continue
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi, lo <= hi
}

// A valueAxis is the scale of measured values: it spans their bulk, and
// the values beyond it are drawn at its edge and counted.
type valueAxis struct {
	scale
	ticks []float64
	// lo and hi are the range of values placed where they are; values
	// beyond it are placed at the edge.
	lo, hi float64
	// Beyond counts the values of the axis's data beyond its range.
	beyond int
}

// valueAxisOf returns the axis, from a to b in pixels, that shows the
// bulk of vals (see bulk) and every finite value of keep (estimates and
// their intervals, which a figure is about), on a log scale when the
// positive values it shows span more than a factor of 30.
func valueAxisOf(vals, keep []float64, a, b float64) (valueAxis, bool) {
	all := slices.Concat(vals, keep)
	positive := true
	for _, v := range all {
		if finite(v) && v <= 0 {
			positive = false
		}
	}
	lo, hi, ok := bulk(vals, positive)
	if !ok {
		lo, hi = math.Inf(1), math.Inf(-1)
	}
	for _, v := range keep {
		if finite(v) && (!positive || v > 0) {
			lo, hi, ok = min(lo, v), max(hi, v), true
		}
	}
	if !ok {
		return valueAxis{}, false
	}
	ax := valueAxis{lo: lo, hi: hi}
	for _, v := range vals {
		if finite(v) && (!positive || v > 0) && (v < lo || v > hi) {
			ax.beyond++
		}
	}
	if positive && hi/lo > 30 {
		ax.scale, ax.ticks = logSpan(lo, hi, a, b)
	} else {
		ax.scale, ax.ticks = linearSpan(lo, hi, a, b)
	}
	return ax, true
}

// edgeInset is how far inside the frame a value beyond the axis is drawn.
const edgeInset = 5

// place returns where v goes on the axis and whether it lies beyond the
// axis's range: -1 below, +1 above, 0 within. A value beyond is placed
// just inside the frame's edge, past the margin around the values within.
func (ax valueAxis) place(v float64) (float64, int) {
	dir := math.Copysign(1, ax.b-ax.a)
	switch {
	case v < ax.lo:
		return ax.a + dir*edgeInset, -1
	case v > ax.hi:
		return ax.b - dir*edgeInset, +1
	}
	return ax.at(v), 0
}

// farOut is how many interquartile ranges beyond the quartiles a value
// must lie to be left off a value axis: Tukey's "far out" values
// (Exploratory Data Analysis, 1977), the fence of a box plot's outer
// whiskers. One slow iteration in a hundred, ten times the rest, would
// otherwise squeeze the other ninety-nine into a line.
const farOut = 3

// minSpread is the smallest interquartile range, relative to the median,
// that the fences assume: values that are mostly equal (a count of
// allocations) still keep the few that differ by more than about 3% off
// the axis, and differences below it are not worth a reader's eye.
const minSpread = 0.01

// bulk returns the smallest and largest finite value of vs that are not
// far out (farOut interquartile ranges beyond the quartiles). With
// positive set, only positive values count, and the quartiles are those
// of their logarithms, since times and sizes vary by factors.
func bulk(vs []float64, positive bool) (lo, hi float64, ok bool) {
	tr := func(v float64) float64 { return v }
	if positive {
		tr = math.Log10
	}
	var xs []float64
	for _, v := range vs {
		if finite(v) && (!positive || v > 0) {
			xs = append(xs, tr(v))
		}
	}
	if len(xs) == 0 {
		return 0, 0, false
	}
	slices.Sort(xs)
	q1, med, q3 := quantile(xs, 0.25), quantile(xs, 0.5), quantile(xs, 0.75)
	floor := minSpread * math.Abs(med)
	if positive {
		floor = math.Log10(1 + minSpread)
	}
	iqr := max(q3-q1, floor)
	fenceLo, fenceHi := q1-farOut*iqr, q3+farOut*iqr
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if finite(v) && (!positive || v > 0) {
			if x := tr(v); x >= fenceLo && x <= fenceHi {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	return lo, hi, lo <= hi
}

// quantile returns the p-quantile of ascending xs, interpolating between
// order statistics as R's default (type 7) does.
func quantile(xs []float64, p float64) float64 {
	h := p * float64(len(xs)-1)
	i := int(h)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[i] + (h-float64(i))*(xs[i+1]-xs[i])
}

// niceTicks returns about n round values (1, 2 or 5 times a power of ten
// apart) within [lo, hi].
func niceTicks(lo, hi float64, n int) []float64 {
	raw := (hi - lo) / float64(max(n, 1))
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * p
	for _, m := range []float64{1, 2, 5} {
		if m*p >= raw {
			step = m * p
			break
		}
	}
	// Ticks by index, not by adding step: near 1e16 adding 1 changes
	// nothing, and the loop would not end.
	k0, k1 := math.Ceil(lo/step-1e-9), math.Floor(hi/step+1e-9)
	if !(k1-k0 >= 0 && k1-k0 < 1000) {
		return nil
	}
	var ticks []float64
	for i := range int(k1-k0) + 1 { // an int: k0+1 may equal k0 too
		v := (k0 + float64(i)) * step
		if v == 0 {
			v = 0 // not -0
		}
		ticks = append(ticks, v)
	}
	return ticks
}

// unitSymbol returns the symbol that follows a scaled number of unit, as
// benchstat writes them: "s" for sec/op, "B" for B/op, nothing for counts.
func unitSymbol(unit string) string {
	num, _, _ := strings.Cut(unit, "/")
	switch num {
	case "sec":
		return "s"
	case "B", "bytes":
		return "B"
	}
	return ""
}

// prefixes are the SI prefixes from nano to giga, by power of 1000.
var prefixes = []string{"n", "µ", "m", "", "k", "M", "G"}

// formatter returns a function that writes tick values of unit with one
// SI prefix for all, and as many decimals as the step between ticks needs.
// On a log scale each tick gets its own prefix.
func formatter(unit string, ticks []float64, log bool) func(float64) string {
	sym := unitSymbol(unit)
	if log {
		return func(v float64) string { return siFormat(v, sym, exp3(v), -1) }
	}
	var big, step float64
	for i, t := range ticks {
		big = max(big, math.Abs(t))
		if i > 0 {
			step = ticks[i] - ticks[i-1]
		}
	}
	e := exp3(big)
	dec := 0
	if step > 0 {
		dec = max(0, int(-math.Floor(math.Log10(step/math.Pow(10, float64(e)))+1e-9)))
	}
	return func(v float64) string { return siFormat(v, sym, e, min(dec, 4)) }
}

// exp3 returns the power of 1000, within the prefixes, that writes v with
// one to three digits before the point.
func exp3(v float64) int {
	if v == 0 || !finite(v) {
		return 0
	}
	e := int(math.Floor(math.Log10(math.Abs(v))/3)) * 3
	return max(-9, min(9, e))
}

// siFormat writes v in units of 10^e with the prefix of e and sym; dec < 0
// means as few decimals as needed.
func siFormat(v float64, sym string, e, dec int) string {
	s := strconv.FormatFloat(v/math.Pow(10, float64(e)), 'f', dec, 64)
	if dec < 0 {
		s = strconv.FormatFloat(v/math.Pow(10, float64(e)), 'g', 3, 64)
	}
	if s == "0" || strings.Trim(s, "-0.") == "" {
		return "0"
	}
	return s + prefixes[e/3+3] + sym
}

// percent writes a relative change as a signed percentage.
func percent(ticks []float64) func(float64) string {
	step := 1.0
	if len(ticks) > 1 {
		step = ticks[1] - ticks[0]
	}
	dec := max(0, int(-math.Floor(math.Log10(step*100)+1e-9)))
	return func(v float64) string {
		s := strconv.FormatFloat(v*100, 'f', min(dec, 3), 64)
		if v > 0 {
			s = "+" + s
		}
		if strings.Trim(s, "+-0.") == "" {
			s = "0"
		}
		return s + "%"
	}
}

// A frame is the plotting area of one panel, in pixels.
type frame struct{ x0, y0, x1, y1 float64 }

// xAxis draws vertical grid lines and labels below the frame for ticks.
func (f *Figure) xAxis(fr frame, s scale, ticks []float64, format func(float64) string, label string) {
	for _, t := range ticks {
		x := s.at(t)
		if x < fr.x0-0.5 || x > fr.x1+0.5 {
			continue
		}
		f.line("grid", point{x, fr.y0}, point{x, fr.y1})
		f.text("ts", x, fr.y1+17, "middle", format(t))
	}
	if label != "" {
		f.text("t", (fr.x0+fr.x1)/2, fr.y1+38, "middle", label)
	}
}

// yAxis draws horizontal grid lines and labels left of the frame for ticks.
func (f *Figure) yAxis(fr frame, s scale, ticks []float64, format func(float64) string, label string) {
	for _, t := range ticks {
		y := s.at(t)
		if y < fr.y0-0.5 || y > fr.y1+0.5 {
			continue
		}
		f.line("grid", point{fr.x0, y}, point{fr.x1, y})
		f.text("ts", fr.x0-6, y+4.5, "end", format(t))
	}
	if label != "" {
		f.vtext("t", fr.x0-62, (fr.y0+fr.y1)/2, label)
	}
}

// box draws the frame's outline.
func (f *Figure) box(fr frame) {
	f.line("frame", point{fr.x0, fr.y0}, point{fr.x1, fr.y0}, point{fr.x1, fr.y1}, point{fr.x0, fr.y1}, point{fr.x0, fr.y0})
}

// legend draws entries left to right from (x, y), wrapping at maxX, and
// returns the y of its last row.
func (f *Figure) legend(x, y, maxX float64, entries []legendEntry) float64 {
	x0 := x
	for _, e := range entries {
		w := 20 + textWidth("t", e.label) + 20
		if x+w > maxX && x > x0 {
			x, y = x0, y+20
		}
		e.draw(f, x+7, y-5)
		f.text("t", x+18, y, "start", e.label)
		x += w
	}
	return y
}

// A legendEntry is a key swatch and its label.
type legendEntry struct {
	label string
	draw  func(f *Figure, x, y float64) // draws the key centred at x, y
}

func markerKey(class string, s shape) func(*Figure, float64, float64) {
	return func(f *Figure, x, y float64) { f.marker(class, s, x, y, 4.5) }
}

func lineKey(class string) func(*Figure, float64, float64) {
	return func(f *Figure, x, y float64) { f.line(class, point{x, y - 7}, point{x, y + 7}) }
}
