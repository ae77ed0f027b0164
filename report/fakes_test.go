package report

import (
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
)

// fakeFigure stands in for package plot's figures: an <svg> with the
// figure's kind as its class, its title escaped as plot escapes it, and a
// circle of plot's size per value drawn, so that size tests see the size
// the data make.
type fakeFigure struct {
	kind, title string
	points      int
}

func (f *fakeFigure) WriteSVG(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="%s" viewBox="0 0 480 300"><title>%s</title>`, f.kind, html.EscapeString(f.title))
	for i := range f.points {
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="2" class="c%d"/>`, 40+float64(i%400), 20+float64(i%250), i%8)
	}
	b.WriteString("</svg>")
	_, err := io.WriteString(w, b.String())
	return err
}

func countForks[T any](forks [][]T) int {
	n := 0
	for _, f := range forks {
		n += len(f)
	}
	return n
}

func init() {
	forest = func(title string, rows []forestRow, threshold float64) figure {
		return &fakeFigure{"forest", title, len(rows)}
	}
	strip = func(title, unit string, groups []stripGroup) figure {
		n := 0
		for _, g := range groups {
			n += countForks(g.Forks)
		}
		return &fakeFigure{"strip", title, n}
	}
	trace = func(title, unit string, forks []traceFork, stopAfter int) figure {
		n := 0
		for _, f := range forks {
			n += len(f.Values)
		}
		return &fakeFigure{"trace", title, n}
	}
	paired = func(title, unit string, points []pairedPoint) figure {
		return &fakeFigure{"paired", title, 2 * len(points)}
	}
	scalingPlot = func(title, xName, unit string, lines []scalingLine) figure {
		return &fakeFigure{"scaling", title, len(lines)}
	}
	historyPlot = func(title, unit string, series []historySeries) figure {
		n := 0
		for _, s := range series {
			n += len(s.Points)
		}
		return &fakeFigure{"history", title, n}
	}
	findFamilies = fakeFamilies
	analyzeHistory = fakeHistory
}

// fakeFamilies finds the benchmarks named Base/n=X as one family.
func fakeFamilies(r *bench.Run, unit string) ([]*family, error) {
	var fams []*family
	byBase := make(map[string]*family)
	samples := r.Samples(unit)
	for _, k := range keys([]*Side{{Run: r}}) {
		base, param, ok := strings.Cut(k.Name, "/n=")
		x, err := strconv.ParseFloat(param, 64)
		if !ok || err != nil || samples[k] == nil {
			continue
		}
		f := byBase[base]
		if f == nil {
			f = &family{Base: base, Param: "n", Slope: stats.Interval{Center: 1, Lo: 0.9, Hi: 1.1}}
			byBase[base] = f
			fams = append(fams, f)
		}
		m := stats.Mean(samples[k].All())
		f.Points = append(f.Points, familyPoint{Name: k.Name, X: x, Center: m, Lo: m, Hi: m})
	}
	return fams, nil
}

// fakeHistory makes a series of each benchmark's means, with a change
// where the mean moves by more than 20%.
func fakeHistory(runs []*bench.Run, unit string) ([]*series, error) {
	var out []*series
	byKey := make(map[bench.Key]*series)
	for _, r := range runs {
		for k, s := range r.Samples(unit) {
			se := byKey[k]
			if se == nil {
				se = &series{Pkg: k.Package, Name: k.Name, Unit: unit}
				byKey[k] = se
				out = append(out, se)
			}
			m := stats.Mean(s.All())
			if n := len(se.Points); n > 0 && math.Abs(m/se.Points[n-1].Center-1) > 0.2 {
				se.Changes = append(se.Changes, seriesChange{Index: n, Run: r.ID, Label: r.Label, Ratio: m / se.Points[n-1].Center, Lo: 1, Hi: 2, P: 0.001})
			}
			se.Points = append(se.Points, seriesPoint{Run: r.ID, Label: r.Label, Center: m, Lo: m, Hi: m})
		}
	}
	return out, nil
}
