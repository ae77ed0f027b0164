package plot

import (
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden SVG files in testdata")

// A node is an element of a parsed SVG.
type node struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Nodes   []node     `xml:",any"`
	Text    string     `xml:",chardata"`
}

func (n *node) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// all returns n and its descendants, in document order.
func (n *node) all() []*node {
	out := []*node{n}
	for i := range n.Nodes {
		out = append(out, n.Nodes[i].all()...)
	}
	return out
}

// count returns how many elements named name (any, if "") have class.
func (n *node) count(name, class string) int {
	k := 0
	for _, e := range n.all() {
		if (name == "" || e.XMLName.Local == name) && e.attr("class") == class {
			k++
		}
	}
	return k
}

// texts returns the text of every <text> element.
func (n *node) texts() []string {
	var out []string
	for _, e := range n.all() {
		if e.XMLName.Local == "text" {
			out = append(out, e.Text)
		}
	}
	return out
}

// markers counts the markers (circles and closed paths) of class.
func (n *node) markers(class string) int { return n.count("circle", class) + n.count("path", class) }

// dots counts the dots drawn by paths of class.
func (n *node) dots(class string) int {
	k := 0
	for _, e := range n.all() {
		if e.XMLName.Local == "path" && e.attr("class") == class {
			k += strings.Count(e.attr("d"), "h0")
		}
	}
	return k
}

// parse writes f as SVG and parses it, checking what every figure must
// have: the root's classes, role, aria-label and title.
func parse(t *testing.T, f *Figure, kind string) *node {
	t.Helper()
	var b bytes.Buffer
	if err := f.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(b.String(), "<?xml") {
		t.Errorf("%s: SVG starts with an XML prolog; it must inline in HTML", kind)
	}
	var root node
	if err := xml.Unmarshal(b.Bytes(), &root); err != nil {
		t.Fatalf("%s: SVG does not parse: %v\n%s", kind, err, &b)
	}
	if root.XMLName.Local != "svg" || root.XMLName.Space != "http://www.w3.org/2000/svg" {
		t.Errorf("%s: root is %v, want svg in the SVG namespace", kind, root.XMLName)
	}
	if got, want := root.attr("class"), "mbench-plot mbench-"+kind; got != want {
		t.Errorf("%s: root class %q, want %q", kind, got, want)
	}
	if root.attr("role") != "img" || !strings.HasPrefix(root.attr("aria-label"), f.title) {
		t.Errorf("%s: role %q, aria-label %q: want img and a label starting with the title", kind, root.attr("role"), root.attr("aria-label"))
	}
	if len(root.Nodes) == 0 || root.Nodes[0].XMLName.Local != "title" || root.Nodes[0].Text != f.title {
		t.Errorf("%s: first child is not <title>%s</title>", kind, f.title)
	}
	return &root
}

func TestForest(t *testing.T) {
	root := parse(t, Forest("Compare <old> & new", forestRows(), 0.03), "forest")
	for class, want := range map[string]int{"slower": 1, "faster": 1, "nochange": 1, "inconclusive": 1} {
		// One marker per row with an estimate, one in the legend.
		if got := root.markers(class); got != want+1 {
			t.Errorf("%d %s markers, want %d", got, class, want+1)
		}
	}
	// Rows with an interval have a bar; Encode has none.
	bars := root.count("line", "slower") + root.count("line", "faster") + root.count("line", "nochange") + root.count("line", "inconclusive")
	if bars != 4 {
		t.Errorf("%d interval bars, want 4", bars)
	}
	if n := root.count("rect", "band"); n != 2 { // the band and its legend key
		t.Errorf("%d band rectangles, want 2", n)
	}
	texts := root.texts()
	for _, want := range []string{"change (new/old − 1)", "±3% threshold", "no estimate", "+10%", "-20%", "0%", `Decode<x>&"y"`} {
		if !slices.Contains(texts, want) {
			t.Errorf("no text %q in %q", want, texts)
		}
	}
	// Slowest at the top, the row without an estimate last.
	var names []string
	for _, s := range texts {
		for _, r := range forestRows() {
			if s == r.Name {
				names = append(names, s)
			}
		}
	}
	if want := []string{"Sum", `Decode<x>&"y"`, "Parse", "Join/n=10", "Encode"}; !slices.Equal(names, want) {
		t.Errorf("row order %q, want %q", names, want)
	}
	// The band spans ±3% around the zero line.
	var band, zero *node
	for _, e := range root.all() {
		switch {
		case e.attr("class") == "band" && band == nil:
			band = e
		case e.attr("class") == "zero":
			zero = e
		}
	}
	x, w, z := atof(t, band.attr("x")), atof(t, band.attr("width")), atof(t, zero.attr("x1"))
	if math.Abs(x+w/2-z) > 0.2 {
		t.Errorf("band [%v, %v] is not centred on the zero line at %v", x, x+w, z)
	}
}

func TestForestSize(t *testing.T) {
	var rows []ForestRow
	for i := range 100 {
		c := float64(i-50) / 500
		rows = append(rows, ForestRow{Name: "BenchmarkSomething/size=" + strings.Repeat("x", i%20), Change: Interval{c, c - 0.02, c + 0.02}, Verdict: []string{"slower", "faster", "no change", "inconclusive"}[i%4]})
	}
	var b bytes.Buffer
	if err := Forest("100 benchmarks", rows, 0.03).WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	t.Logf("forest of 100 rows: %d bytes", b.Len())
	if b.Len() > 60_000 {
		t.Errorf("forest of 100 rows is %d bytes, want well under 200 KB (at most 60 KB)", b.Len())
	}
}

func TestStrip(t *testing.T) {
	root := parse(t, Strip("Distributions", "sec/op", stripGroups()), "strip")
	// Versions by colour: 15 values each, plus a legend key.
	for _, class := range []string{"c0", "c1"} {
		if got := root.markers(class); got != 15+1 {
			t.Errorf("%d %s markers, want 16", got, class)
		}
	}
	// Forks by shape: fork 1 circles, 2 squares (paths with 4 corners), 3 triangles.
	var circles, squares, triangles int
	for _, e := range root.all() {
		if c := e.attr("class"); c != "c0" && c != "c1" {
			continue
		}
		switch {
		case e.XMLName.Local == "circle":
			circles++
		case strings.Count(e.attr("d"), "L") == 3:
			squares++
		case strings.Count(e.attr("d"), "L") == 2:
			triangles++
		}
	}
	if circles != 12 || squares != 10 || triangles != 10 { // 2 legend circles
		t.Errorf("%d circles, %d squares, %d triangles; want 12, 10, 10", circles, squares, triangles)
	}
	// Each group's interval: a bar and a tick at the centre.
	if n := root.count("line", "ci"); n != 2*2+1 {
		t.Errorf("%d interval lines, want 5 (2 per group and a legend key)", n)
	}
	texts := root.texts()
	// One benchmark: its rows are named by version alone.
	for _, want := range []string{"old", "new", "fork 3", "90ns", "sec/op"} {
		if !slices.Contains(texts, want) {
			t.Errorf("no text %q in %q", want, texts)
		}
	}
	if slices.Contains(texts, "Sum (old)") {
		t.Errorf("rows of one benchmark repeat its name: %q", texts)
	}
	// Two benchmarks: rows name both.
	two := stripGroups()
	two[1].Name = "Join"
	if texts := parse(t, Strip("two", "sec/op", two), "strip").texts(); !slices.Contains(texts, "Sum (old)") || !slices.Contains(texts, "Join (new)") {
		t.Errorf("rows of two benchmarks: %q, want Sum (old) and Join (new)", texts)
	}
}

// TestStripManyForks: beyond stripShapes forks, values share their row
// in one shape, the legend says how many forks there were and lists no
// fork by number, and a value ten times the rest is drawn at the edge with
// its count instead of setting the axis.
func TestStripManyForks(t *testing.T) {
	var forks [][]float64
	for k := range 100 {
		forks = append(forks, []float64{100e-9 * (1 + 0.001*float64(k)), 101e-9})
	}
	forks[7][1] = 2e-6
	root := parse(t, Strip("many", "sec/op", []StripGroup{{Name: "Sum", Forks: forks, Center: Interval{100e-9, 99e-9, 102e-9}}}), "strip")
	if n := root.count("circle", "c0"); n != 199 {
		t.Errorf("%d value markers, want 199 (one far out)", n)
	}
	texts := root.texts()
	if slices.Contains(texts, "fork 6") || !slices.Contains(texts, "values of 100 forks, spread over the row") {
		t.Errorf("legend %q: want one entry for the values of 100 forks", texts)
	}
	if root.count("path", "edge") != 2 || !slices.Contains(texts, "1") || !slices.Contains(texts, "1 far out, drawn at the edge") {
		t.Errorf("the far-out value is not marked at the edge with its count: %q", texts)
	}
	for _, s := range texts {
		if s == "2µs" || s == "1µs" {
			t.Errorf("axis reaches the far-out value: tick %q", s)
		}
	}
}

func TestTrace(t *testing.T) {
	root := parse(t, Trace("Trace", "sec/op", traceForks(), 3), "trace")
	// The first warm-up iteration of each fork, half as slow again as
	// the rest, is far out: it is drawn at the top edge.
	if n, edge := root.markers("warm"), root.markers("edge"); n != 4*2+1 || edge != 4+1 {
		t.Errorf("%d warm-up markers and %d at the edge, want 9 and 5", n, edge)
	}
	if n := root.markers("c0"); n != 4*5+1 {
		t.Errorf("%d measurement markers, want 21", n)
	}
	if n := root.count("line", "cut"); n != 4+1 {
		t.Errorf("%d warm-up cuts, want 5 (4 forks and the legend)", n)
	}
	if n := root.count("rect", "fork"); n != 2+1 {
		t.Errorf("%d shaded forks, want 3 (forks 2 and 4, and the legend)", n)
	}
	if !slices.Contains(root.texts(), "4 above") {
		t.Errorf("no count of the values above the axis in %q", root.texts())
	}
	if root.count("line", "stop") != 1 || root.markers("stop") != 2 {
		t.Errorf("want one line and a marker (and a legend key) where the criterion fired")
	}
	// The stop comes after the 3rd fork's last iteration: it lies between
	// that iteration's marker and the next fork's first one.
	var stop float64
	var xs []float64
	for _, e := range root.all() {
		switch {
		case e.XMLName.Local == "line" && e.attr("class") == "stop":
			stop = atof(t, e.attr("x1"))
		case e.XMLName.Local == "circle" && (e.attr("class") == "warm" || e.attr("class") == "c0"):
			xs = append(xs, atof(t, e.attr("cx")))
		case e.XMLName.Local == "path" && e.attr("class") == "edge":
			var x float64
			fmt.Sscanf(e.attr("d"), "M%g", &x)
			xs = append(xs, x)
		}
	}
	xs = xs[:len(xs)-3] // the legend keys
	slices.Sort(xs)
	if !(xs[23] < stop && stop < xs[24]) {
		t.Errorf("criterion line at %v, want between %v and %v", stop, xs[23], xs[24])
	}
	if !slices.Contains(root.texts(), "criterion fired (fork 3)") {
		t.Errorf("no legend for the stop in %q", root.texts())
	}
}

func TestPaired(t *testing.T) {
	root := parse(t, Paired("Paired", "sec/op", pairedPoints()), "paired")
	if root.markers("c0") != 31 || root.markers("c1") != 31 {
		t.Errorf("%d old and %d new markers, want 31 each (30 and a legend key)", root.markers("c0"), root.markers("c1"))
	}
	if root.count("polyline", "l0") != 0 {
		t.Errorf("paired samples are joined by lines; want points only")
	}
}

func TestScaling(t *testing.T) {
	root := parse(t, Scaling("Scaling", "n", "sec/op", scalingLines()), "scaling")
	texts := root.texts()
	for _, want := range []string{"10", "100", "1k", "10k", "10ns", "1ms", "1s",
		"Sort/quick ≈ n^1.10 [1.05, 1.15]", "Sort/insertion ≈ n^2.00 [1.97, 2.03]"} {
		if !slices.Contains(texts, want) {
			t.Errorf("no text %q in %q", want, texts)
		}
	}
	if root.count("polyline", "l0") != 1 || root.count("polyline", "l1") != 1 {
		t.Errorf("want one line per variant")
	}
	// Each point has an error bar with two caps.
	if n := root.count("line", "c0"); n != 4*3 {
		t.Errorf("%d error-bar lines of the first variant, want 12", n)
	}
	// Decades are evenly spaced: log axes.
	var xs []float64
	for _, e := range root.all() {
		if e.XMLName.Local == "text" && slices.Contains([]string{"10", "100", "1k", "10k"}, e.Text) {
			xs = append(xs, atof(t, e.attr("x")))
		}
	}
	if len(xs) != 4 || math.Abs((xs[1]-xs[0])-(xs[3]-xs[2])) > 0.2 {
		t.Errorf("decade ticks at %v, want evenly spaced", xs)
	}
}

func TestHistory(t *testing.T) {
	root := parse(t, History("History", "sec/op", historySeries(4)), "history")
	if n := root.count("polygon", "a0"); n != 4 {
		t.Errorf("%d interval bands, want 4", n)
	}
	if n := root.count("line", "chg"); n != 4+1 {
		t.Errorf("%d change-point lines, want 5 (one per panel and the legend)", n)
	}
	if n := root.dots("d0"); n != 4*12 {
		t.Errorf("%d centres, want 48", n)
	}
	texts := root.texts()
	for _, want := range []string{"Bench0", "Bench3", "c11"} {
		if !slices.Contains(texts, want) {
			t.Errorf("no text %q in %q", want, texts)
		}
	}
	// Four series: a grid of three columns and two rows.
	if w, h := atof(t, root.attr("width")), atof(t, root.attr("height")); w != 3*smallW+16 || h != historyTop+2*smallH {
		t.Errorf("size %vx%v, want a 3x2 grid", w, h)
	}
	one := parse(t, History("History", "sec/op", historySeries(1)), "history")
	if w := atof(t, one.attr("width")); w != historyW+16 {
		t.Errorf("one series: width %v, want one wide panel", w)
	}
}

// TestGoldenSVG compares each fixture's SVG with testdata/KIND.svg
// (go test -update rewrites them): what the structure tests do not
// check must not change by accident either.
func TestGoldenSVG(t *testing.T) {
	for kind, f := range fixtures() {
		var b bytes.Buffer
		if err := f.WriteSVG(&b); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join("testdata", kind+".svg")
		if *update {
			if err := os.WriteFile(file, b.Bytes(), 0o666); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v (go test -update creates it)", err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%s differs from %s (go test -update rewrites it)", kind, file)
		}
	}
}

func TestPNG(t *testing.T) {
	for kind, f := range fixtures() {
		var b bytes.Buffer
		if err := f.WritePNG(&b); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		img, err := png.Decode(&b)
		if err != nil {
			t.Fatalf("%s: PNG does not decode: %v", kind, err)
		}
		size := img.Bounds().Size()
		if float64(size.X) != math.Round(pngScale*f.Width()) || float64(size.Y) != math.Round(pngScale*f.Height()) {
			t.Errorf("%s: PNG is %v, want twice %vx%v", kind, size, f.Width(), f.Height())
		}
		// Something was drawn on the background: a pixel of the
		// first palette colour's hue or of the text.
		dark := 0
		for y := 0; y < size.Y; y += 2 {
			for x := 0; x < size.X; x += 2 {
				if r, g, bl, _ := img.At(x, y).RGBA(); r+g+bl < 3*0x8000 {
					dark++
				}
			}
		}
		if dark < 100 {
			t.Errorf("%s: PNG is almost blank (%d dark pixels)", kind, dark)
		}
	}
}

// TestDegenerate feeds every kind nothing, NaN and infinities: each
// gives a valid figure that says why it is empty, never a panic.
func TestDegenerate(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	bad := Interval{nan, -inf, inf}
	cases := []struct {
		kind string
		f    *Figure
	}{
		{"forest", Forest("t", nil, 0.03)},
		{"strip", Strip("t", "sec/op", nil)},
		{"strip", Strip("t", "sec/op", []StripGroup{{Name: "x", Forks: [][]float64{{nan, inf}}, Center: bad}})},
		{"trace", Trace("t", "sec/op", nil, 3)},
		{"trace", Trace("t", "sec/op", []TraceFork{{Values: []float64{nan, -inf}, Warmup: 5}}, 1)},
		{"paired", Paired("t", "sec/op", []PairedPoint{{nan, inf}})},
		{"scaling", Scaling("t", "", "sec/op", nil)},
		{"scaling", Scaling("t", "n", "sec/op", []ScalingLine{{Name: "x", Points: []ScalingPoint{{X: 0, Y: Interval{1, 1, 1}}, {X: 10, Y: Interval{-1, -2, 0}}}}})},
		{"history", History("t", "sec/op", nil)},
	}
	for _, c := range cases {
		root := parse(t, c.f, c.kind)
		if root.count("text", "msg") != 1 {
			t.Errorf("%s: no message saying why the figure is empty: %q", c.kind, root.texts())
		}
		if err := c.f.WritePNG(new(bytes.Buffer)); err != nil {
			t.Errorf("%s: PNG: %v", c.kind, err)
		}
	}
	// Figures with some bad values draw the rest.
	withBad := []struct {
		kind string
		f    *Figure
	}{
		{"forest", Forest("t", []ForestRow{{"a", bad, "inconclusive"}, {"b", Interval{0.1, 0.05, inf}, "slower"}}, nan)},
		{"trace", Trace("t", "sec/op", []TraceFork{{Values: []float64{1, nan, 2}, Warmup: -1}, {Values: nil}}, 9)},
		{"history", History("t", "sec/op", []HistorySeries{{Name: "a", Points: []HistoryPoint{{"x", bad}}, Changes: []int{-1, 0, 5}},
			{Name: "b", Points: []HistoryPoint{{"x", Interval{1, nan, 2}}, {"y", Interval{1, 0.5, 2}}}}})},
		{"scaling", Scaling("t", "n", "sec/op", []ScalingLine{{Name: "x", Slope: bad, Points: []ScalingPoint{{X: 10, Y: Interval{1, 0, 2}}, {X: nan, Y: Interval{1, 1, 1}}}}})},
	}
	for _, c := range withBad {
		parse(t, c.f, c.kind)
		var b bytes.Buffer
		c.f.WriteSVG(&b)
		for _, bad := range []string{"NaN", "Inf"} {
			if strings.Contains(b.String(), bad) {
				t.Errorf("%s: SVG contains %s", c.kind, bad)
			}
		}
	}
}

// TestEscape checks that names with HTML in them come out as text.
func TestEscape(t *testing.T) {
	name := `<script>alert("x")</script>&amp;`
	figs := []*Figure{
		Forest(name, []ForestRow{{name, Interval{0.1, 0, 0.2}, "slower"}}, 0.03),
		Strip(name, "sec/op", []StripGroup{{Name: name, Version: name, Forks: [][]float64{{1, 2}}}}),
		Scaling(name, name, "sec/op", []ScalingLine{{Name: name, Points: []ScalingPoint{{X: 1, Y: Interval{1, 1, 1}}}}}),
		History(name, "sec/op", []HistorySeries{{Name: name, Points: []HistoryPoint{{name, Interval{1, 1, 1}}}}}),
	}
	for _, f := range figs {
		var b bytes.Buffer
		f.WriteSVG(&b)
		if strings.Contains(b.String(), "<script") {
			t.Errorf("%s: unescaped name in the SVG", f.kind)
		}
		root := parse(t, f, f.kind)
		found := false
		for _, s := range root.texts() {
			found = found || strings.Contains(s, `<script>alert("x")`)
		}
		if !found {
			t.Errorf("%s: the name does not come back from the SVG: %q", f.kind, root.texts())
		}
	}
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	var v float64
	if _, err := fmt.Sscan(s, &v); err != nil {
		t.Fatalf("number %q: %v", s, err)
	}
	return v
}

// TestForestClip checks that an interval far wider than the changes is
// cut at the edge with a chevron instead of setting the axis: the other
// rows keep their room.
func TestForestClip(t *testing.T) {
	rows := []ForestRow{
		{"Sum", Interval{0.10, 0.06, 0.14}, "slower"},
		{"Wide", Interval{0.02, -0.9, math.Inf(1)}, "inconclusive"},
	}
	root := parse(t, Forest("clip", rows, 0.03), "forest")
	if n := root.count("polyline", "clip"); n != 3 {
		t.Errorf("%d chevrons, want 3 (both ends of Wide, and the legend)", n)
	}
	if !slices.Contains(root.texts(), "interval cut at ±30% (1)") {
		t.Errorf("the legend does not name the chevron: %q", root.texts())
	}
	texts := root.texts()
	if slices.Contains(texts, "-80%") || !slices.Contains(texts, "+20%") {
		t.Errorf("axis ticks %q: want the axis set by the changes (±30%%), not by Wide's interval", texts)
	}
	if !strings.Contains(root.attr("aria-label"), "intervals past ±30% cut at the edge (1)") {
		t.Errorf("aria-label %q does not say that an interval was cut", root.attr("aria-label"))
	}
}

// TestForestNoChange: exact counts that did not change, under a threshold
// of 0, get an axis of a few per cent, not of ±100%.
func TestForestNoChange(t *testing.T) {
	rows := []ForestRow{{"Sum", Interval{0, 0, 0}, "no change"}, {"Join", Interval{0, 0, 0}, "no change"}}
	texts := parse(t, Forest("allocs/op", rows, 0), "forest").texts()
	if slices.Contains(texts, "+100%") || slices.Contains(texts, "+50%") || !slices.Contains(texts, "+1.0%") {
		t.Errorf("axis ticks %q: want about ±1%%", texts)
	}
}
