package scaling

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
)

// Write writes fams as text, as `mbench report -format text` shows them:
// per family a header naming it, a table of parameter value, centre and
// interval, and the fitted complexity hint (see Family.Hint). A "pkg:" line
// precedes the first family of each package, as in the Go benchmark
// format.
func Write(w io.Writer, fams []*Family) error {
	var b strings.Builder
	pkg := ""
	for i, f := range fams {
		if i > 0 {
			b.WriteString("\n")
		}
		if f.Pkg != pkg && f.Pkg != "" {
			fmt.Fprintf(&b, "pkg: %s\n", f.Pkg)
		}
		pkg = f.Pkg
		name := f.Name()
		if f.Procs != 0 {
			name += fmt.Sprintf("-%d", f.Procs)
		}
		if f.Version != "" {
			name = f.Version + ": " + name
		}
		fmt.Fprintf(&b, "%s\n", name)
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
		level := fmt.Sprintf("%g%% CI", 100*f.Slope.Level)
		fmt.Fprintf(tw, "  %s\t%s\t%s\t\n", f.paramName(), f.Unit, level)
		for _, p := range f.Points {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t\n", paramText(p.Name, f.Position), bench.FormatValue(p.Center, f.Unit),
				interval(p.Lo, p.Hi, func(v float64) string { return bench.FormatValue(v, f.Unit) }))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(&b, "  %s\n", f.Hint())
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// paramName is the parameter's name for a column header and the hint: its
// own, or "n" for a bare number and for a number followed by a word
// ("1kValid"), where the word names what is counted rather than the size.
func (f *Family) paramName() string {
	if len(f.Points) > 0 {
		parts := strings.Split(f.Points[0].Name, "/")
		if f.Position < len(parts) {
			if _, _, after := splitParam(parts[f.Position]); after != "" {
				return "n"
			}
		}
	}
	return cmp.Or(f.Param, "n")
}

// paramText returns the value part of the pos'th part of name as the
// benchmark wrote it ("4KiB" of "size=4KiB", "16" of "Size16", "1k" of
// "1kValid").
func paramText(name string, pos int) string {
	parts := strings.Split(name, "/")
	if pos >= len(parts) {
		return "?"
	}
	_, v, _ := splitParam(parts[pos])
	return v
}

// interval formats [lo, hi], or "-" when the data support no interval.
func interval(lo, hi float64, format func(float64) string) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return "-"
	}
	return "[" + format(lo) + ", " + format(hi) + "]"
}

// Hint returns the family's complexity hint in words:
//
//	≈ n^1.02 [0.98, 1.06], consistent with linear
//
// For a family whose points bend (Curved), it gives the slope over all
// points and then the slope over the TailPoints largest, which is what an
// algorithm's asymptotic complexity predicts, and names classes from that.
func (f *Family) Hint() string {
	n := f.paramName()
	xs := make([]float64, len(f.Points))
	for i, p := range f.Points {
		xs[i] = p.X
	}
	if math.IsNaN(f.Slope.Center) {
		return "no fit: a centre is not positive"
	}
	if !f.Curved {
		return fmt.Sprintf("≈ %s, %s", power(n, f.Slope), Classes(f.Slope, xs))
	}
	return fmt.Sprintf("≈ %s over all %d points, but they bend: ≈ %s over the largest %d, %s",
		power(n, f.Slope), len(f.Points), power(n, f.Tail), TailPoints, Classes(f.Tail, xs[len(xs)-TailPoints:]))
}

// power formats a slope as "n^1.02 [0.98, 1.06]".
func power(n string, iv stats.Interval) string {
	return fmt.Sprintf("%s^%.2f %s", n, iv.Center, interval(iv.Lo, iv.Hi, func(v float64) string { return fmt.Sprintf("%.2f", v) }))
}

// A class is a common complexity class and the range of log-log slopes it
// can show over a range of parameter values: [lo, hi], or (lo, hi] when
// open.
type class struct {
	name   string
	lo, hi float64
	open   bool
}

// classes returns the common complexity classes with the least-squares
// log-log slopes each can show over xs. Logarithmic factors have no
// constant slope: log(n) over 10..1000 fits as n^0.24, over 10⁴..10⁶ as
// n^0.09. So the slope l of log(1+x) is fitted over the family's own xs
// (log(1+x) rather than log(x), so that x = 1 costs something), and a class
// with a logarithmic factor spans every slope between its polynomial part
// and that plus l: a cost a + b·log n fits anywhere in (0, l] depending on
// how large a is, and a·n + b·n·log n, as a real sort costs, in (1, 1+l].
func classes(xs []float64) []class {
	lx, llx := make([]float64, len(xs)), make([]float64, len(xs))
	for i, x := range xs {
		lx[i], llx[i] = math.Log(x), math.Log(math.Log1p(x))
	}
	l := Slope(lx, llx)
	cs := []class{
		{"constant", 0, 0, false}, {"square root", 0.5, 0.5, false}, {"linear", 1, 1, false},
		{"quadratic", 2, 2, false}, {"cubic", 3, 3, false},
	}
	if !math.IsNaN(l) {
		cs = append(cs, class{"logarithmic", 0, l, true}, class{"n log n", 1, 1 + l, true}, class{"n² log n", 2, 2 + l, true})
	}
	slices.SortStableFunc(cs, func(a, b class) int { return cmp.Compare(a.lo, b.lo) })
	return cs
}

// meets reports whether iv and the slopes of c overlap.
func (c class) meets(iv stats.Interval) bool {
	if c.open {
		return iv.Lo <= c.hi && iv.Hi > c.lo
	}
	return iv.Lo <= c.hi && iv.Hi >= c.lo
}

// MaxClassWidth is the widest slope interval for which Classes names a
// class: an interval wider than a whole power of n says nothing useful
// about the class.
const MaxClassWidth = 1.0

// Classes describes a slope interval over the parameter values xs in words:
// "consistent with linear", "consistent with linear or n log n" when the
// interval meets the slopes of both over xs, "between linear and
// quadratic" when it meets none, and "too uncertain to name a class" when
// it is wider than MaxClassWidth or absent.
func Classes(iv stats.Interval, xs []float64) string {
	if math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi) || iv.Hi-iv.Lo > MaxClassWidth {
		return "too uncertain to name a class"
	}
	var in []string
	below, above := "", ""
	for _, c := range classes(xs) {
		switch {
		case c.meets(iv):
			in = append(in, c.name)
		case c.hi < iv.Lo:
			below = c.name
		case above == "":
			above = c.name
		}
	}
	switch {
	case len(in) > 0:
		return "consistent with " + orList(in)
	case below == "":
		return "below " + above + " (faster than constant: a cost that falls as n grows)"
	case above == "":
		return "steeper than " + below
	}
	return "between " + below + " and " + above
}

// orList joins words as "a", "a or b", "a, b or c".
func orList(w []string) string {
	if len(w) == 1 {
		return w[0]
	}
	return strings.Join(w[:len(w)-1], ", ") + " or " + w[len(w)-1]
}
