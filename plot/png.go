package plot

import (
	"fmt"
	"io"
	"math"
	"sync"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/font/liberation"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
)

// pngScale is how many PNG pixels one SVG pixel becomes: 2, so that a PNG
// in documentation stays sharp on high-density screens.
const pngScale = 2

// WritePNG rasterises the figure, in the light scheme, at twice its SVG
// size, through gonum.org/v1/plot's vgimg canvas and its embedded
// Liberation Sans.
func (f *Figure) WritePNG(w io.Writer) error {
	// One SVG pixel is one point; at 72·pngScale dots per inch a point
	// is pngScale pixels.
	c := vgimg.NewWith(vgimg.UseWH(vg.Length(f.w), vg.Length(f.h)), vgimg.UseDPI(72*pngScale))
	for i := range f.els {
		drawElement(c, f.h, &f.els[i])
	}
	_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(w)
	return err
}

func drawElement(c vg.Canvas, h float64, e *element) {
	p := theme[e.class]
	// vg's y axis points up.
	at := func(q point) vg.Point { return vg.Point{X: vg.Length(q.x), Y: vg.Length(h - q.y)} }
	poly := func(pts []point, closed bool) vg.Path {
		var path vg.Path
		for i, q := range pts {
			if i == 0 {
				path.Move(at(q))
			} else {
				path.Line(at(q))
			}
		}
		if closed {
			path.Close()
		}
		return path
	}
	var path vg.Path
	switch e.op {
	case opLine:
		path = poly(e.pts, false)
	case opArea:
		path = poly(e.pts, true)
	case opRect:
		a, b := e.pts[0], e.pts[1]
		path = poly([]point{a, {b.x, a.y}, b, {a.x, b.y}}, true)
	case opMarker:
		if e.shape == circle {
			ctr := at(e.pts[0])
			path.Move(vg.Point{X: ctr.X + vg.Length(e.r), Y: ctr.Y})
			path.Arc(ctr, vg.Length(e.r), 0, 2*math.Pi)
			path.Close()
		} else {
			path = poly(outline(e.shape, e.pts[0], e.r), true)
		}
	case opText:
		drawText(c, at(e.pts[0]), e, p)
		return
	case opDots:
		c.SetColor(rgba(p.stroke, 0))
		for _, q := range e.pts {
			ctr := at(q)
			var dot vg.Path
			dot.Move(vg.Point{X: ctr.X + vg.Length(e.r), Y: ctr.Y})
			dot.Arc(ctr, vg.Length(e.r), 0, 2*math.Pi)
			dot.Close()
			c.Fill(dot)
		}
		return
	}
	if p.fill != "" && e.op != opLine {
		c.SetColor(rgba(p.fill, p.opacity))
		c.Fill(path)
	}
	if p.stroke != "" && p.width > 0 {
		c.SetColor(rgba(p.stroke, 0))
		c.SetLineWidth(vg.Length(p.width))
		var dash []vg.Length
		if p.dash != "" {
			var a, b float64
			if n, _ := fmt.Sscanf(p.dash, "%g %g", &a, &b); n == 2 {
				dash = []vg.Length{vg.Length(a), vg.Length(b)}
			}
		}
		c.SetLineDash(dash, 0)
		c.Stroke(path)
	}
}

func drawText(c vg.Canvas, pt vg.Point, e *element, p paint) {
	face := textFace(p.font, p.bold)
	w := face.Width(e.text)
	var dx vg.Length
	switch e.anchor {
	case "middle":
		dx = -w / 2
	case "end":
		dx = -w
	}
	c.SetColor(rgba(p.fill, 0))
	c.Push()
	c.Translate(pt)
	if e.rotate {
		c.Rotate(math.Pi / 2)
	}
	c.FillString(face, vg.Point{X: dx}, e.text)
	c.Pop()
}

var (
	fontsOnce sync.Once
	fonts     *font.Cache
)

// textFace returns Liberation Sans at size px, which lays out the text of
// both the SVG (as an estimate of the generic sans-serif a browser picks)
// and the PNG.
func textFace(size float64, bold bool) font.Face {
	fontsOnce.Do(func() { fonts = font.NewCache(liberation.Collection()) })
	fnt := font.Font{Typeface: "Liberation", Variant: "Sans"}
	if bold {
		fnt.Weight = xfont.WeightBold
	}
	return fonts.Lookup(fnt, font.Length(size))
}

// textWidth returns the width of s in pixels at the size of class.
func textWidth(class, s string) float64 {
	p := theme[class]
	face := textFace(p.font, p.bold)
	return float64(face.Width(s))
}
