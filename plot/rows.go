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
	// Verdict is the verdict's word, which the legend shows: "slower"
	// or "more" (a larger value), "faster" or "less" (a smaller one),
	// "no change", or "inconclusive"; other words are drawn as
	// inconclusive.
	Verdict string
}

// Row layout of forest and strip plots, in pixels.
const (
	rowsPlotW  = 480 // narrowest plotting area
	rowsTop    = 62  // below the title and the legend
	rowsBottom = 50  // tick labels and the axis label
	maxName    = 60  // runes of a benchmark name shown; longer ones are cut
	forestRowH = 24
)

// verdictStyle returns the class and marker shape of a verdict. Colour
// and shape both say the way the change goes: a larger value (slower,
// more) is vermillion and points right, a smaller one (faster, less) is
// blue and points left. For the metrics mbench compares, lower is better,
// so vermillion is a regression.
func verdictStyle(v string) (string, shape) {
	switch v {
	case "slower", "more":
		return "slower", triRight
	case "faster", "less":
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
	// The axis spans at least ±1%, so that a comparison without changes
	// (allocation counts that stayed) gets a scale of changes too small
	// to matter, not one of ±100%.
	span := max(threshold, 0.01)
	vals := []float64{-span, span, 0}
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
	f, fr := rowsFigure("forest", title, names, forestRowH)
	f.desc = fmt.Sprintf("relative change of %d benchmarks with confidence intervals, sorted, the band of ±%s shaded; %s",
		len(rows), fmt.Sprintf("%.3g%%", threshold*100), countsText(rows, counts))
	if cut > 0 {
		f.desc += fmt.Sprintf("; intervals past ±%.3g%% cut at the edge (%d)", lim*100, cut)
	}
	s, ticks, _ := linear(vals, fr.x0, fr.x1)
	if threshold > 0 {
		f.rect("band", s.at(-threshold), fr.y0, s.at(threshold), fr.y1)
		keys = append([]legendEntry{{fmt.Sprintf("±%.3g%% threshold", threshold*100), func(f *Figure, x, y float64) {
			f.rect("band", x-6, y-6, x+6, y+6)
		}}}, keys...)
	}
	if cut > 0 {
		keys = append(keys, legendEntry{fmt.Sprintf("interval cut at ±%.3g%% (%d)", lim*100, cut), func(f *Figure, x, y float64) {
			f.line("clip", point{x - 3, y - 5}, point{x + 3, y}, point{x - 3, y + 5})
		}})
	}
	f.xAxis(fr, s, ticks, percent(ticks), "change (new/old − 1)")
	f.line("zero", point{s.at(0), fr.y0}, point{s.at(0), fr.y1})
	for i, r := range rows {
		y := fr.y0 + (float64(i)+0.5)*forestRowH
		class, sh := verdictStyle(r.Verdict)
		c := r.Change
		if !math.IsNaN(c.Lo) && !math.IsNaN(c.Hi) {
			f.line(class, point{s.at(clip(c.Lo)), y}, point{s.at(clip(c.Hi)), y})
		}
		if c.Lo < -lim {
			x := s.at(-lim)
			f.line("clip", point{x + 5, y - 5}, point{x, y}, point{x + 5, y + 5})
		}
		if c.Hi > lim {
			x := s.at(lim)
			f.line("clip", point{x - 5, y - 5}, point{x, y}, point{x - 5, y + 5})
		}
		if finite(c.Center) {
			f.marker(class, sh, s.at(c.Center), y, 5)
		} else {
			f.text("ts", s.at(0)+5, y+4.5, "start", "no estimate")
		}
	}
	f.box(fr)
	f.legend(legendX, legendY, f.w-8, keys)
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
		left = max(left, textWidth("t", n)+24)
	}
	w := max(figureWidth, left+rowsPlotW+24)
	fr := frame{x0: left, y0: rowsTop, x1: w - 24, y1: rowsTop + rowH*float64(len(names))}
	f := newFigure(kind, title, "", w, fr.y1+rowsBottom)
	f.heading()
	for i, n := range names {
		f.text("t", left-10, fr.y0+(float64(i)+0.5)*rowH+5, "end", n)
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

// stripShapes is the most forks a strip plot tells apart by lane and
// marker shape. Beyond it, five shapes would repeat and lanes would be a
// pixel high: the values of all forks form one cloud.
const stripShapes = 5

// Strip draws every value of each group in a row of its own, each version
// in a colour of its own, and the interval of the centre as a bar with a
// tick at the estimate. Up to five forks each get a lane and a marker
// shape; more forks share the row, spread across it. The value axis shows
// the bulk of the values: those far out (see bulk) are drawn at its edge
// with their count. Groups that all have one name are labelled by
// version alone, the name being the title's.
func Strip(title, unit string, groups []StripGroup) *Figure {
	var vals, keep []float64
	nf := 0
	versions := map[string]int{}
	var versionKeys []legendEntry
	named, oneName := false, true
	for _, g := range groups {
		nf = max(nf, len(g.Forks))
		for _, fk := range g.Forks {
			vals = append(vals, fk...)
		}
		keep = append(keep, g.Center.Center)
		if _, ok := versions[g.Version]; !ok {
			versions[g.Version] = len(versions)
			versionKeys = append(versionKeys, legendEntry{g.Version, markerKey(series("c", len(versions)-1), circle)})
		}
		named = named || g.Version != ""
		oneName = oneName && g.Name == groups[0].Name
	}
	if _, _, ok := bounds(vals, false); !ok {
		return empty("strip", title, "no finite values to draw")
	}
	names := make([]string, len(groups))
	for i, g := range groups {
		switch {
		case oneName && named:
			names[i] = g.Version
		case named:
			names[i] = truncate(g.Name, maxName-len(g.Version)-3) + " (" + g.Version + ")"
		default:
			names[i] = truncate(g.Name, maxName)
		}
	}
	lanes := nf <= stripShapes
	rowH := 64.0
	if lanes {
		rowH = math.Max(32, math.Min(64, 10+10*float64(nf)))
	}
	f, fr := rowsFigure("strip", title, names, rowH)
	ax, _ := valueAxisOf(vals, keep, fr.x0, fr.x1)
	f.desc = fmt.Sprintf("values of %d benchmarks in %d versions from up to %d forks, with the interval of the centre", len(groups), len(versions), nf)
	f.xAxis(fr, ax.scale, ax.ticks, formatter(unit, ax.ticks, ax.log), unit)
	beyond, cut := 0, 0
	for i, g := range groups {
		top := fr.y0 + float64(i)*rowH
		if i > 0 {
			f.line("grid", point{fr.x0, top}, point{fr.x1, top})
		}
		class := series("c", versions[g.Version])
		edge := [2]int{} // values drawn at the left and right edge
		n := 0
		for _, fk := range g.Forks {
			n += len(fk)
		}
		j := 0
		for k, fk := range g.Forks {
			for _, v := range fk {
				j++
				if !drawable(ax.scale, v) {
					continue
				}
				x, side := ax.place(v)
				if side != 0 {
					edge[(side+1)/2]++
					continue
				}
				jit := jitter(j)
				if lanes {
					lane := (rowH - 8) / float64(max(len(g.Forks), 1))
					f.marker(class, seriesShapes[k], x, top+4+(float64(k)+0.5+0.6*jit)*lane, 3)
				} else {
					f.marker(class, circle, x, top+rowH/2+jit*(rowH-12), 2.5)
				}
			}
		}
		y := top + rowH/2
		for side, count := range edge {
			if count == 0 {
				continue
			}
			beyond += count
			f.edgeMark([]float64{fr.x0, fr.x1}[side], y, []shape{triLeft, triRight}[side], count)
		}
		c := g.Center
		if finite(c.Lo, c.Hi) && drawable(ax.scale, c.Lo) {
			// An interval reaching past the values' bulk is cut at the
			// edge with a chevron, as in a forest plot.
			lo, sideLo := ax.place(c.Lo)
			hi, sideHi := ax.place(c.Hi)
			f.line("ci", point{lo, y}, point{hi, y})
			if sideLo < 0 {
				f.line("clip", point{lo + 5, y - 5}, point{lo, y}, point{lo + 5, y + 5})
				cut++
			}
			if sideHi > 0 {
				f.line("clip", point{hi - 5, y - 5}, point{hi, y}, point{hi - 5, y + 5})
				cut++
			}
		}
		if drawable(ax.scale, c.Center) {
			f.line("ci", point{ax.at(c.Center), top + 3}, point{ax.at(c.Center), top + rowH - 3})
		}
	}
	f.box(fr)
	var keys []legendEntry
	if named {
		keys = versionKeys
	}
	if lanes && nf > 1 {
		for k := range nf {
			keys = append(keys, legendEntry{fmt.Sprintf("fork %d", k+1), markerKey("muted", seriesShapes[k])})
		}
	} else if nf > 1 {
		keys = append(keys, legendEntry{fmt.Sprintf("values of %d forks, spread over the row", nf), markerKey("muted", circle)})
	}
	keys = append(keys, legendEntry{"interval of the centre", func(f *Figure, x, y float64) {
		f.line("ci", point{x - 7, y}, point{x + 7, y})
	}})
	if cut > 0 {
		keys = append(keys, legendEntry{"interval cut at the edge", func(f *Figure, x, y float64) {
			f.line("clip", point{x - 3, y - 5}, point{x + 3, y}, point{x - 3, y + 5})
		}})
	}
	if beyond > 0 {
		keys = append(keys, edgeKey(beyond, triRight))
		f.desc += fmt.Sprintf("; %d values far beyond the rest drawn at the edge", beyond)
	}
	f.legend(legendX, legendY, f.w-8, keys)
	return f
}

// jitter returns the offset, in [-0.5, 0.5), of the j-th value across its
// row: the output function of SplitMix64 (Steele, Lea & Flood, "Fast
// splittable pseudorandom number generators", 2014) applied to j, which
// looks random and is unrelated to the order of the values, so that equal
// values stand apart, values measured in a pattern draw no pattern of
// their own, and the picture is the same every time.
func jitter(j int) float64 {
	z := uint64(j) + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11)/(1<<53) - 0.5
}

// edgeMark draws, at x, y on the edge of a frame, a marker pointing out of
// it with the count of values that lie beyond, for values too far out for
// the axis.
func (f *Figure) edgeMark(x, y float64, s shape, count int) {
	f.marker("edge", s, x, y, 5)
	switch s {
	case triLeft:
		f.text("ts", x+8, y-7, "start", fmt.Sprintf("%d", count))
	case triRight:
		f.text("ts", x-8, y-7, "end", fmt.Sprintf("%d", count))
	case triUp:
		f.text("ts", x+8, y+12, "start", fmt.Sprintf("%d", count))
	default:
		f.text("ts", x+8, y-3, "start", fmt.Sprintf("%d", count))
	}
}

// edgeKey is the legend entry of the n values drawn at the edge, with
// markers of shape s.
func edgeKey(n int, s shape) legendEntry {
	return legendEntry{fmt.Sprintf("%d far out, drawn at the edge", n), markerKey("edge", s)}
}
