package plot

import (
	"fmt"
	"image/color"
	"slices"
	"strings"
)

// The palette is Okabe and Ito's, from "Color Universal Design" (2002),
// chosen to stay distinct under the common forms of colour blindness. Its
// mid-tone colours read on white and on a dark grey alike, so only the
// neutral colours change with the scheme.
var palette = []string{
	"#0072B2", // blue
	"#D55E00", // vermillion
	"#009E73", // bluish green
	"#E69F00", // orange
	"#CC79A7", // reddish purple
	"#56B4E9", // sky blue
	"#F0E442", // yellow
}

// Neutral colours, as CSS custom properties: light values, then dark ones.
var neutrals = []struct{ name, light, dark string }{
	{"--mb-fg", "#222222", "#dddddd"},
	{"--mb-bg", "#ffffff", "#1b1b1b"},
	{"--mb-grid", "#e3e3e3", "#3a3a3a"},
	{"--mb-band", "#ececec", "#333333"},
	{"--mb-muted", "#8a8a8a", "#9a9a9a"},
}

// A paint says how elements of one class are drawn. Colours are palette
// hex values or neutral names ("--mb-fg"); "" means none.
type paint struct {
	stroke, fill string
	width        float64
	dash         string  // SVG dash array, "" for solid
	opacity      float64 // fill opacity; 0 means 1
	font         float64 // text size in px; 0 for non-text classes
	bold         bool
	roundCap     bool
}

var theme = map[string]paint{
	"bg":    {fill: "--mb-bg"},
	"frame": {stroke: "--mb-fg", width: 1},
	"grid":  {stroke: "--mb-grid", width: 1},
	"zero":  {stroke: "--mb-fg", width: 1},
	"band":  {fill: "--mb-band"},
	"sep":   {stroke: "--mb-muted", width: 0.6},
	"cut":   {stroke: "--mb-fg", width: 1.2, dash: "4 3"},
	"stop":  {stroke: palette[1], fill: palette[1], width: 1.5},
	"chg":   {stroke: palette[1], width: 1.5, dash: "5 3"},
	"ci":    {stroke: "--mb-fg", width: 2},
	"clip":  {stroke: "--mb-fg", width: 1.5},
	"warm":  {stroke: "--mb-muted", fill: "--mb-bg", width: 1},
	"muted": {stroke: "--mb-muted", fill: "--mb-muted", width: 1},
	"edge":  {stroke: "--mb-fg", fill: "--mb-fg", width: 1},
	"fork":  {fill: "--mb-band"},
	// Verdicts: slower vermillion, faster blue, no change bluish green,
	// inconclusive an open muted diamond.
	"slower":       {stroke: palette[1], fill: palette[1], width: 1.5},
	"faster":       {stroke: palette[0], fill: palette[0], width: 1.5},
	"nochange":     {stroke: palette[2], fill: palette[2], width: 1.5},
	"inconclusive": {stroke: "--mb-muted", fill: "--mb-bg", width: 1.5},
	// Text: the title, labels (axis names, row names, legend) and tick
	// labels. A figure is drawn as wide as a report's column (figureWidth)
	// and shown at about its own size, so these are the sizes a reader
	// sees; none is under 13 px, so that a figure shrunk to nine tenths
	// still reads at 12 px or more.
	"tt":  {fill: "--mb-fg", font: 16, bold: true},
	"t":   {fill: "--mb-fg", font: 14},
	"ts":  {fill: "--mb-fg", font: 13},
	"msg": {fill: "--mb-muted", font: 14},
}

// themeOrder lists the classes in the order their rules are written.
var themeOrder []string

func init() {
	for i, c := range palette {
		// cN: markers and error bars; lN: lines (no fill); aN: bands.
		theme[fmt.Sprintf("c%d", i)] = paint{stroke: c, fill: c, width: 1.2}
		theme[fmt.Sprintf("l%d", i)] = paint{stroke: c, width: 1.2}
		theme[fmt.Sprintf("a%d", i)] = paint{fill: c, opacity: 0.22}
		// dN: dots drawn as round caps; the path sets their width.
		theme[fmt.Sprintf("d%d", i)] = paint{stroke: c, roundCap: true}
	}
	for c := range theme {
		themeOrder = append(themeOrder, c)
	}
	slices.Sort(themeOrder)
}

// series returns the class prefix's class for series i.
func series(prefix string, i int) string {
	return fmt.Sprintf("%s%d", prefix, i%len(palette))
}

// fontFamily is generic, so that nothing is fetched: Liberation Sans, whose
// metrics lay the text out, is metric-compatible with Arial and Helvetica.
const fontFamily = `"Liberation Sans",Arial,Helvetica,sans-serif`

// StyleSheet returns the style sheet of every figure: the rules of all
// classes, scoped to the root class "mbench-plot". A page of many figures
// includes it once and writes each figure with WriteInlineSVG.
func StyleSheet() string { return css(themeOrder) }

// css returns the style sheet for the given classes, scoped to the
// figure's root class so that it cannot restyle the rest of a page.
func css(classes []string) string {
	var b strings.Builder
	b.WriteString(".mbench-plot{")
	for _, n := range neutrals {
		b.WriteString(n.name + ":" + n.light + ";")
	}
	b.WriteString("font-family:" + fontFamily + "}")
	b.WriteString("@media (prefers-color-scheme:dark){.mbench-plot{")
	for _, n := range neutrals {
		b.WriteString(n.name + ":" + n.dark + ";")
	}
	b.WriteString("}}")
	for _, c := range classes {
		p := theme[c]
		fmt.Fprintf(&b, ".mbench-plot .%s{fill:%s;stroke:%s", c, cssColor(p.fill), cssColor(p.stroke))
		if p.width > 0 {
			fmt.Fprintf(&b, ";stroke-width:%g", p.width)
		}
		if p.dash != "" {
			b.WriteString(";stroke-dasharray:" + p.dash)
		}
		if p.opacity > 0 {
			fmt.Fprintf(&b, ";fill-opacity:%g", p.opacity)
		}
		if p.font > 0 {
			fmt.Fprintf(&b, ";font-size:%gpx", p.font)
		}
		if p.bold {
			b.WriteString(";font-weight:bold")
		}
		if p.roundCap {
			b.WriteString(";stroke-linecap:round")
		}
		b.WriteString("}")
	}
	return b.String()
}

func cssColor(c string) string {
	switch {
	case c == "":
		return "none"
	case strings.HasPrefix(c, "--"):
		return "var(" + c + ")"
	}
	return c
}

// rgba resolves a paint colour in the light scheme, with opacity.
func rgba(c string, opacity float64) color.Color {
	if strings.HasPrefix(c, "--") {
		for _, n := range neutrals {
			if n.name == c {
				c = n.light
			}
		}
	}
	var r, g, b uint8
	fmt.Sscanf(c, "#%02x%02x%02x", &r, &g, &b)
	if opacity == 0 {
		opacity = 1
	}
	a := opacity
	return color.NRGBA{r, g, b, uint8(a*255 + 0.5)}
}
