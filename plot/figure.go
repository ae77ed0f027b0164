package plot

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mbench/mbench/internal/outfile"
)

// A Figure is one drawn picture: a list of primitives in SVG user units
// (pixels, y down), each carrying one class of the theme. The same list is
// written as SVG or rasterised as PNG.
type Figure struct {
	kind  string // "forest", "strip", ...: the root's class is "mbench-" + kind
	title string
	desc  string // what the figure shows, for the aria-label
	w, h  float64
	els   []element
}

// An element is one primitive of a Figure.
type element struct {
	op     op
	class  string // a key of theme
	pts    []point
	shape  shape   // markers
	r      float64 // marker radius
	text   string
	anchor string // text: "start", "middle" or "end"
	rotate bool   // text: turned 90° counter-clockwise, for a y-axis label
}

type op uint8

const (
	opLine   op = iota // polyline through pts
	opArea             // closed polygon through pts, filled
	opRect             // rectangle from pts[0] to pts[1], filled and stroked
	opMarker           // shape centred at pts[0]
	opText             // text with its baseline at pts[0]
	opDots             // a round dot of radius r at each of pts
)

type point struct{ x, y float64 }

// A shape is the form of a marker. Verdicts and series differ in shape as
// well as in colour, so that figures read without colour vision and in
// black-and-white print.
type shape uint8

const (
	circle shape = iota
	square
	triUp
	diamond
	triDown
	triLeft
	triRight
)

// seriesShapes are the shapes of successive series.
var seriesShapes = []shape{circle, square, triUp, diamond, triDown}

// figureWidth is the width of a figure, in pixels: about a report's
// column (80rem, less its margins), so that a report shows figures at
// their own size, the size their text was chosen for, and a figure saved
// alone opens in a browser at a size that reads.
const figureWidth = 1200

// Where the title's baseline and the legend's first row go.
const (
	titleY  = 24
	legendX = 10
	legendY = 50
)

// newFigure starts a figure of the given kind and size with its background.
func newFigure(kind, title, desc string, w, h float64) *Figure {
	f := &Figure{kind: kind, title: title, desc: desc, w: w, h: h}
	f.rect("bg", 0, 0, w, h)
	return f
}

// empty returns a figure that says why there is nothing to draw: a valid,
// titled picture rather than an error, so that a report stays whole.
func empty(kind, title, msg string) *Figure {
	f := newFigure(kind, title, msg, 600, 120)
	f.heading()
	f.text("msg", 300, 74, "middle", msg)
	return f
}

// heading draws the title at the top left.
func (f *Figure) heading() {
	f.text("tt", legendX, titleY, "start", truncate(f.title, 120))
}

func (f *Figure) line(class string, pts ...point) {
	f.els = append(f.els, element{op: opLine, class: class, pts: pts})
}

func (f *Figure) area(class string, pts []point) {
	f.els = append(f.els, element{op: opArea, class: class, pts: pts})
}

func (f *Figure) rect(class string, x0, y0, x1, y1 float64) {
	f.els = append(f.els, element{op: opRect, class: class, pts: []point{{x0, y0}, {x1, y1}}})
}

func (f *Figure) marker(class string, s shape, x, y, r float64) {
	f.els = append(f.els, element{op: opMarker, class: class, pts: []point{{x, y}}, shape: s, r: r})
}

// dots draws a filled circle of radius r at each of pts: one SVG path of
// zero-length segments with round caps, a quarter of the bytes of one
// <circle> per point, for series of many points.
func (f *Figure) dots(class string, pts []point, r float64) {
	if len(pts) > 0 {
		f.els = append(f.els, element{op: opDots, class: class, pts: pts, r: r})
	}
}

func (f *Figure) text(class string, x, y float64, anchor, s string) {
	f.els = append(f.els, element{op: opText, class: class, pts: []point{{x, y}}, anchor: anchor, text: s})
}

func (f *Figure) vtext(class string, x, y float64, s string) {
	f.els = append(f.els, element{op: opText, class: class, pts: []point{{x, y}}, anchor: "middle", text: s, rotate: true})
}

// Width and Height return the figure's size in CSS pixels; the PNG has
// twice as many pixels each way.
func (f *Figure) Width() float64  { return f.w }
func (f *Figure) Height() float64 { return f.h }

// WriteSVG writes the figure as one <svg> element without an XML prolog,
// to be saved as a file or inlined in HTML. The root has the classes
// "mbench-plot mbench-KIND", role="img", an aria-label and a <title>; a
// <style> element defines the colours of the classes the figure uses, in
// CSS custom properties that a page may override and that switch to a dark
// scheme under prefers-color-scheme: dark.
func (f *Figure) WriteSVG(w io.Writer) error { return f.writeSVG(w, true) }

// WriteInlineSVG writes the figure as WriteSVG does but without its
// <style>, for a page that holds many figures and includes StyleSheet
// once.
func (f *Figure) WriteInlineSVG(w io.Writer) error { return f.writeSVG(w, false) }

func (f *Figure) writeSVG(w io.Writer, style bool) error {
	b := bufio.NewWriter(w)
	label := f.title
	if f.desc != "" {
		label += ": " + f.desc
	}
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" class="mbench-plot mbench-%s" width="%s" height="%s" viewBox="0 0 %s %s" role="img" aria-label="%s">`,
		f.kind, num(f.w), num(f.h), num(f.w), num(f.h), escape(label))
	fmt.Fprintf(b, "\n<title>%s</title>\n", escape(f.title))
	if style {
		fmt.Fprintf(b, "<style>%s</style>\n", css(f.classes()))
	}
	for i := range f.els {
		writeElement(b, &f.els[i])
	}
	b.WriteString("</svg>\n")
	return b.Flush()
}

// classes returns the classes the figure uses, in the theme's order.
func (f *Figure) classes() []string {
	used := make(map[string]bool)
	for i := range f.els {
		used[f.els[i].class] = true
	}
	var out []string
	for _, c := range themeOrder {
		if used[c] {
			out = append(out, c)
		}
	}
	return out
}

func writeElement(b *bufio.Writer, e *element) {
	p := e.pts
	switch e.op {
	case opLine:
		if len(p) == 2 {
			fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" class="%s"/>`, num(p[0].x), num(p[0].y), num(p[1].x), num(p[1].y), e.class)
		} else {
			fmt.Fprintf(b, `<polyline points="%s" class="%s"/>`, points(p), e.class)
		}
	case opArea:
		fmt.Fprintf(b, `<polygon points="%s" class="%s"/>`, points(p), e.class)
	case opRect:
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" class="%s"/>`, num(p[0].x), num(p[0].y), num(p[1].x-p[0].x), num(p[1].y-p[0].y), e.class)
	case opMarker:
		if e.shape == circle {
			fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="%s" class="%s"/>`, num(p[0].x), num(p[0].y), num(e.r), e.class)
		} else {
			fmt.Fprintf(b, `<path d="M%sZ" class="%s"/>`, strings.ReplaceAll(points(outline(e.shape, p[0], e.r)), " ", "L"), e.class)
		}
	case opDots:
		fmt.Fprintf(b, `<path d="`)
		for _, q := range p {
			fmt.Fprintf(b, "M%s,%sh0", num(q.x), num(q.y))
		}
		fmt.Fprintf(b, `" stroke-width="%s" class="%s"/>`, num(2*e.r), e.class)
	case opText:
		rot := ""
		if e.rotate {
			rot = fmt.Sprintf(` transform="rotate(-90 %s %s)"`, num(p[0].x), num(p[0].y))
		}
		anchor := ""
		if e.anchor != "start" {
			anchor = ` text-anchor="` + e.anchor + `"`
		}
		fmt.Fprintf(b, `<text x="%s" y="%s"%s%s class="%s">%s</text>`, num(p[0].x), num(p[0].y), anchor, rot, e.class, escape(e.text))
	}
	b.WriteByte('\n')
}

// outline returns the corners of a polygonal marker of radius r at c.
func outline(s shape, c point, r float64) []point {
	var pts []point
	switch s {
	case square:
		r *= 0.85 // a square of the circle's radius looks larger
		return []point{{c.x - r, c.y - r}, {c.x + r, c.y - r}, {c.x + r, c.y + r}, {c.x - r, c.y + r}}
	case diamond:
		r *= 1.2
		return []point{{c.x, c.y - r}, {c.x + r, c.y}, {c.x, c.y + r}, {c.x - r, c.y}}
	case triUp, triDown, triLeft, triRight:
		r *= 1.2
		start := map[shape]float64{triUp: -90, triRight: 0, triDown: 90, triLeft: 180}[s]
		for k := range 3 {
			a := (start + float64(k)*120) * math.Pi / 180
			pts = append(pts, point{c.x + r*math.Cos(a), c.y + r*math.Sin(a)})
		}
	}
	return pts
}

// num formats a coordinate with one decimal, enough at screen resolution
// and half the bytes of full precision.
func num(v float64) string {
	s := strconv.FormatFloat(math.Round(v*10)/10, 'f', 1, 64)
	s = strings.TrimSuffix(s, ".0")
	if s == "-0" {
		s = "0"
	}
	return s
}

func points(p []point) string {
	var b strings.Builder
	for i, q := range p {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(num(q.x) + "," + num(q.y))
	}
	return b.String()
}

// escape escapes s for XML text and attribute values.
func escape(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// truncate shortens s to at most n runes, ending in "…" when it cut.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// maxValue bounds the magnitude of the values a figure places: beyond it,
// differences and scalings of values would overflow to infinity. No
// measurement comes near it.
const maxValue = 1e150

// finite reports whether all of vs are numbers of magnitude at most
// maxValue: neither NaN nor infinite nor so large that placing them
// overflows.
func finite(vs ...float64) bool {
	return !slices.ContainsFunc(vs, func(v float64) bool { return !(math.Abs(v) <= maxValue) })
}

// WriteFile writes the figure to the named file, as PNG when its name ends
// in ".png" and as SVG otherwise: written aside and renamed into place
// (internal/outfile), so that a failed write leaves the file that was
// there.
func (f *Figure) WriteFile(name string) error {
	write := f.WriteSVG
	if strings.HasSuffix(name, ".png") {
		write = f.WritePNG
	}
	return outfile.Write(name, write)
}
