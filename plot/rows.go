package plot

import (
	"fmt"
	"math"
	"slices"
)

// An Interval is an estimate with its confidence interval.
type Interval struct{ Center, Lo, Hi float64 }

// A ForestRow is one benchmark of a forest plot.
type ForestRow struct {
	Name string
	// Change is the relative change new/old - 1: -0.05 is 5% less
	// (faster, for time).
	Change Interval
	// Verdict is "slower", "faster", "no change" or "inconclusive";
	// "worse" and "better" are drawn as slower and faster, and other
	// words as inconclusive, each with its own word in the legend.
	Verdict string
}

// Row layout of forest and strip plots, in pixels.
const (
	rowsWidth  = 720 // figure width, unless the names need more
	rowsPlotW  = 360 // narrowest plotting area
	rowsTop    = 50  // below the title and the legend
	rowsBottom = 40  // tick labels and the axis label
	maxName    = 60  // runes of a benchmark name shown; longer ones are cut
)

// verdictStyle returns the class and marker shape of a verdict. Shapes
// point the way the change goes: right for slower (larger), left for
// faster.
func verdictStyle(v string) (string, shape) {
	switch v {
	case "slower", "worse":
		return "slower", triRight
	case "faster", "better":
		return "faster", triLeft
	case "no change":
		return "nochange", circle
	}
	return "inconclusive", diamond
}

// Forest draws a forest plot: one row per benchmark with its relative
// change and interval, the slowest at the top, the band of ±threshold
// (changes too small to matter) shaded, and markers whose colour and shape
// both say the verdict.
func Forest(title string, rows []ForestRow, threshold float64) *Figure {
	if len(rows) == 0 {
		return empty("forest", title, "no benchmarks to compare")
	}
	if !finite(threshold) || threshold < 0 {
		threshold = 0
	}
	rows = slices.Clone(rows)
	slices.SortStableFunc(rows, func(a, b ForestRow) int {
		ca, cb := a.Change.Center, b.Change.Center
		switch {
		case !finite(ca) || !finite(cb):
			return boolInt(!finite(ca)) - boolInt(!finite(cb)) // unknown last
		case ca > cb:
			return -1
		case ca < cb:
			return 1
		}
		return 0
	})
	// Interval ends beyond three times the largest change (or the
	// threshold) are cut at the edge and marked with a chevron, so that
	// one wide inconclusive interval does not squeeze every other row.
	lim := 0.0
	for _, r := range rows {
		if finite(r.Change.Center) {
			lim = max(lim, math.Abs(r.Change.Center))
		}
	}
	lim = max(3*lim, 2*threshold, 0.05)
	clip := func(v float64) float64 { return max(-lim, min(lim, v)) }
	vals := []float64{-threshold, threshold, 0}
	counts := map[string]int{}
	var keys []legendEntry
	cut := 0
	for _, r := range rows {
		c := r.Change
		vals = append(vals, c.Center, clip(c.Lo), clip(c.Hi))
		if c.Lo < -lim || c.Hi > lim {
			cut++
		}
		if counts[r.Verdict] == 0 {
			c, s := verdictStyle(r.Verdict)
			keys = append(keys, legendEntry{r.Verdict, markerKey(c, s)})
		}
		counts[r.Verdict]++
	}
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = truncate(r.Name, maxName)
	}
	f, fr := rowsFigure("forest", title, names, 16)
	f.desc = fmt.Sprintf("relative change of %d benchmarks with confidence intervals, sorted, the band of ±%s shaded; %s",
		len(rows), fmt.Sprintf("%.3g%%", threshold*100), countsText(rows, counts))
	if cut > 0 {
		f.desc += fmt.Sprintf("; intervals past ±%.3g%% cut at the edge (%d)", lim*100, cut)
	}
	s, ticks, _ := linear(vals, fr.x0, fr.x1)
	if threshold > 0 {
		f.rect("band", s.at(-threshold), fr.y0, s.at(threshold), fr.y1)
		keys = append([]legendEntry{{fmt.Sprintf("±%.3g%% threshold", threshold*100), func(f *Figure, x, y float64) {
			f.rect("band", x-5, y-5, x+5, y+5)
		}}}, keys...)
	}
	f.xAxis(fr, s, ticks, percent(ticks), "change (new/old − 1)")
	f.line("zero", point{s.at(0), fr.y0}, point{s.at(0), fr.y1})
	for i, r := range rows {
		y := fr.y0 + (float64(i)+0.5)*16
		class, sh := verdictStyle(r.Verdict)
		c := r.Change
		if !math.IsNaN(c.Lo) && !math.IsNaN(c.Hi) {
			f.line(class, point{s.at(clip(c.Lo)), y}, point{s.at(clip(c.Hi)), y})
		}
		if c.Lo < -lim {
			x := s.at(-lim)
			f.line("clip", point{x + 4, y - 4}, point{x, y}, point{x + 4, y + 4})
		}
		if c.Hi > lim {
			x := s.at(lim)
			f.line("clip", point{x - 4, y - 4}, point{x, y}, point{x - 4, y + 4})
		}
		if finite(c.Center) {
			f.marker(class, sh, s.at(c.Center), y, 4)
		} else {
			f.text("ts", s.at(0)+4, y+3.5, "start", "no estimate")
		}
	}
	f.box(fr)
	f.legend(8, 38, f.w-8, keys)
	return f
}

// countsText says how many rows have each verdict, in the legend's order.
func countsText(rows []ForestRow, counts map[string]int) string {
	s := ""
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r.Verdict] {
			continue
		}
		seen[r.Verdict] = true
		if s != "" {
			s += ", "
		}
		s += fmt.Sprintf("%d %s", counts[r.Verdict], r.Verdict)
	}
	return s
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// rowsFigure lays out a figure with one row of height rowH per name, the
// names right-aligned left of the plotting area, and returns the area.
func rowsFigure(kind, title string, names []string, rowH float64) (*Figure, frame) {
	left := 60.0
	for _, n := range names {
		left = max(left, textWidth("ts", n)+14)
	}
	w := max(rowsWidth, left+rowsPlotW+20)
	fr := frame{x0: left, y0: rowsTop, x1: w - 20, y1: rowsTop + rowH*float64(len(names))}
	f := newFigure(kind, title, "", w, fr.y1+rowsBottom)
	f.heading()
	for i, n := range names {
		f.text("ts", left-6, fr.y0+(float64(i)+0.5)*rowH+3.5, "end", n)
	}
	return f, fr
}

// A StripGroup is the values of one benchmark in one version, by fork
// (process), with the interval of their centre.
type StripGroup struct {
	Name, Version string
	Forks         [][]float64
	Center        Interval
}

// Strip draws every value of each group in a row of its own: each fork
// in a lane of its own with a marker shape of its own, each version in a
// colour of its own, and the interval of the centre as a bar with a tick
// at the estimate. Values spanning more than a factor of 30 are drawn on
// a log axis.
func Strip(title, unit string, groups []StripGroup) *Figure {
	var vals []float64
	nf, nv := 0, 0
	versions := map[string]int{}
	var versionKeys []legendEntry
	named := false
	for _, g := range groups {
		nf = max(nf, len(g.Forks))
		for _, fk := range g.Forks {
			vals = append(vals, fk...)
		}
		if _, ok := versions[g.Version]; !ok {
			versions[g.Version] = len(versions)
			versionKeys = append(versionKeys, legendEntry{g.Version, markerKey(series("c", len(versions)-1), circle)})
		}
		named = named || g.Version != ""
	}
	nv = len(versions)
	lo, hi, ok := bounds(vals, false)
	if !ok {
		return empty("strip", title, "no finite values to draw")
	}
	names := make([]string, len(groups))
	for i, g := range groups {
		names[i] = truncate(g.Name, maxName)
		if named {
			names[i] = truncate(g.Name, maxName-len(g.Version)-3) + " (" + g.Version + ")"
		}
		vals = append(vals, g.Center.Center, g.Center.Lo, g.Center.Hi)
	}
	rowH := math.Min(44, math.Max(18, 6+5*float64(nf)))
	f, fr := rowsFigure("strip", title, names, rowH)
	f.desc = fmt.Sprintf("values of %d benchmarks in %d versions, each fork in its own lane and marker, with the interval of the centre", len(groups), nv)
	s, ticks, _ := linear(vals, fr.x0, fr.x1)
	if lo > 0 && hi/lo > 30 {
		s, ticks, _ = logarithmic(vals, fr.x0, fr.x1)
	}
	f.xAxis(fr, s, ticks, formatter(unit, ticks, s.log), unit)
	for i, g := range groups {
		top := fr.y0 + float64(i)*rowH
		if i > 0 {
			f.line("grid", point{fr.x0, top}, point{fr.x1, top})
		}
		lane := (rowH - 6) / float64(max(len(g.Forks), 1))
		class := series("c", versions[g.Version])
		for k, fk := range g.Forks {
			y := top + 3 + (float64(k)+0.5)*lane
			for j, v := range fk {
				if finite(v) && (!s.log || v > 0) {
					// A fixed, evenly spread jitter (the golden ratio
					// sequence) keeps equal values apart and the
					// picture reproducible.
					jit := (math.Mod(float64(j)*0.6180339887, 1) - 0.5) * lane * 0.6
					f.marker(class, seriesShapes[k%len(seriesShapes)], s.at(v), y+jit, 2.6)
				}
			}
		}
		c, y := g.Center, top+rowH/2
		if finite(c.Lo, c.Hi) && (!s.log || c.Lo > 0) {
			f.line("ci", point{s.at(c.Lo), y}, point{s.at(c.Hi), y})
		}
		if finite(c.Center) && (!s.log || c.Center > 0) {
			f.line("ci", point{s.at(c.Center), y - rowH/2 + 2}, point{s.at(c.Center), y + rowH/2 - 2})
		}
	}
	f.box(fr)
	var keys []legendEntry
	if named {
		keys = versionKeys
	}
	for k := range min(nf, len(seriesShapes)) {
		keys = append(keys, legendEntry{fmt.Sprintf("fork %d", k+1), markerKey("ci", seriesShapes[k])})
	}
	keys = append(keys, legendEntry{"interval of the centre", func(f *Figure, x, y float64) {
		f.line("ci", point{x - 6, y}, point{x + 6, y})
	}})
	f.legend(8, 38, f.w-8, keys)
	return f
}
