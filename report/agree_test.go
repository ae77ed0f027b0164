package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/plot"
	"github.com/mbench/mbench/stats"
	"golang.org/x/net/html"
)

// A told is what one format tells of a row of a comparison, parsed back
// from what it wrote. Fields a format does not show are NaN or "".
type told struct {
	name              string
	old, new          float64 // the value columns
	change, lo, hi    float64 // relative: new/old − 1 and its interval
	verdict           string
	level             float64
	changeTol, valTol float64 // how precisely the format writes them
}

// turnsSession is an interleaved session in turns, as ab stores it, at the
// level of one of eight looks of 95%, 99.375%. Its benchmark Concat/builder
// is the case where the plain means and the paired change disagree: new is
// 2% faster in every pair but one iteration of new in most rounds is three
// times slower, so that new's mean is the higher one. Allocations are 6
// and 12 on every iteration.
func turnsSession() *bench.Run {
	s := &bench.Run{ID: "s1", Label: "old..new", Settings: map[string]string{
		bench.SettingMode: bench.ModeInterleaved, bench.SettingOld: "old", bench.SettingNew: "new",
		bench.SettingPairing: bench.PairingTurns, bench.SettingLookAlpha: "0.00625"}}
	benches := []struct {
		name          string
		base, factor  float64
		spike, allocs bool
	}{
		{"Concat/builder", 1.315e-6, 0.98, true, true},
		{"Concat/plus", 5.9e-6, 1.25, false, false},
		{"Itoa", 22e-9, 1.0, false, false},
	}
	for round := range 10 {
		for _, b := range benches {
			k := bench.Key{Package: "example.com/suite", Name: b.name, Procs: 2}
			for it := range 12 {
				// Noise shared by the pair (the machine) and of each side.
				shared := 1 + 0.02*math.Sin(float64(round*12+it))
				o := b.base * shared * (1 + 0.004*float64((round+it*5)%7))
				n := b.base * b.factor * shared * (1 + 0.004*float64((round*3+it)%7))
				if b.spike && it == round%12 && round%5 != 0 {
					n *= 3
				}
				for _, side := range []struct {
					v          string
					val, alloc float64
				}{{"old", o, 6}, {"new", n, 12}} {
					vals := []bench.Value{{Value: side.val, Unit: "sec/op"}}
					if b.allocs {
						vals = append(vals, bench.Value{Value: side.alloc, Unit: "allocs/op"})
					}
					s.Measurements = append(s.Measurements, bench.Measurement{Key: k, N: 1000, Values: vals,
						Coord: bench.Coord{Version: side.v, SuiteRun: round, Iteration: it, Phase: bench.Measure}})
				}
			}
		}
	}
	return s
}

// duetRuns are the two halves of a duet of five runs of ten pairs, each
// run with one outlier pair that the duet's winsorizing replaces.
func duetRuns() (old, new *bench.Run) {
	old = &bench.Run{ID: "d-old", Label: "base", Settings: map[string]string{"duet": "d1", "duet-side": "old"}}
	new = &bench.Run{ID: "d-new", Label: "head", Settings: map[string]string{"duet": "d1", "duet-side": "new"}}
	for run := range 5 {
		for bi, b := range []struct {
			name   string
			factor float64
		}{{"Sum", 1.3}, {"Join", 0.97}, {"Parse", 1.005}} {
			k := bench.Key{Package: "example.com/fake", Name: b.name, Procs: 2}
			for it := range 10 {
				shared := 1e-7 * float64(bi+1) * (1 + 0.05*math.Cos(float64(run*10+it)))
				o := shared * (1 + 0.003*float64((run+it)%4))
				n := shared * b.factor * (1 + 0.003*float64((run*2+it)%5))
				if it == run {
					n *= 1.6
				}
				for _, side := range []struct {
					r *bench.Run
					v float64
				}{{old, o}, {new, n}} {
					side.r.Measurements = append(side.r.Measurements, bench.Measurement{Key: k, N: 1000,
						Values: []bench.Value{{Value: side.v, Unit: "sec/op"}},
						Coord:  bench.Coord{SuiteRun: run, Iteration: it, Phase: bench.Measure}})
				}
			}
		}
	}
	return old, new
}

// TestFormatsAgree renders the comparisons of an interleaved session in
// turns and of a duet in every format — compare's text, markdown, JSON and
// CSV, the HTML report, its forest plots and mbench plot's — parses each
// back and checks that they tell one story: for every row the same
// estimate, bounds, level and verdict, as precisely as each format writes
// them; and that the value columns agree with the change, new/old − 1.
func TestFormatsAgree(t *testing.T) {
	opts := Options{Compare: compare.DefaultOptions}
	opts.Compare.Replicates = 1000
	dOld, dNew := duetRuns()
	for _, c := range []struct {
		name   string
		runs   []*bench.Run
		level  float64
		center string
	}{
		{"turns", []*bench.Run{turnsSession()}, 0.99375, compare.CentersTurns},
		{"duet", []*bench.Run{dOld, dNew}, 0.99, compare.CentersDuet},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, err := Build(c.runs, opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Comparisons) == 0 {
				t.Fatal("no comparison")
			}
			var page bytes.Buffer
			if err := rep.Write(&page, HTML); err != nil {
				t.Fatal(err)
			}
			pages := parseComparisons(t, page.String())
			if len(pages) != len(rep.Comparisons) {
				t.Fatalf("the page shows %d comparisons, want %d", len(pages), len(rep.Comparisons))
			}
			for i, res := range rep.Comparisons {
				if res.Level != c.level || res.Centers != c.center && res.Metric == "sec/op" {
					t.Errorf("%s: level %v, centres %q; want %v, %q", res.Metric, res.Level, res.Centers, c.level, c.center)
				}
				po := PlotOptions{Kind: "comparison", Compare: opts.Compare}
				po.Compare.Metric = res.Metric
				fig, _, err := Plot(c.runs, po)
				if err != nil {
					t.Fatal(err)
				}
				var svg bytes.Buffer
				if err := fig.WriteSVG(&svg); err != nil {
					t.Fatal(err)
				}
				formats := map[string][]told{
					"text":     parseText(t, write(t, res, compare.Text)),
					"markdown": parseMarkdown(t, write(t, res, compare.Markdown)),
					"json":     parseJSON(t, write(t, res, compare.JSON)),
					"csv":      parseCSV(t, write(t, res, compare.CSV)),
					"html":     pages[i].rows,
					"page svg": parseForest(t, pages[i].svg),
					"plot svg": parseForest(t, svg.String()),
				}
				checkAgree(t, res, formats)
			}
		})
	}
}

// The session's Concat/builder is the case the value columns once
// contradicted: its plain means say new is slower, its paired change
// faster. The columns now show the median pairs, and agree with the
// change.
func TestColumnsAgreeWithChange(t *testing.T) {
	s := turnsSession()
	old, new, err := compare.Split(s)
	if err != nil {
		t.Fatal(err)
	}
	opts := compare.DefaultOptions
	opts.Replicates = 1000
	res, err := compare.Compare(old, new, opts)
	if err != nil {
		t.Fatal(err)
	}
	row := res.Rows[0]
	if row.Key.Name != "Concat/builder" {
		t.Fatalf("first row %s", row.Key)
	}
	k := row.Key
	plainOld := stats.Mean(old.Samples("sec/op")[k].All())
	plainNew := stats.Mean(new.Samples("sec/op")[k].All())
	if !(plainNew > plainOld && row.Change() < 0) {
		t.Fatalf("the fixture lost its point: means %v → %v, change %v", plainOld, plainNew, row.Change())
	}
	for _, r := range res.Rows {
		if got := r.New.Center / r.Old.Center; math.Abs(got/r.Ratio.Center-1) > 1e-12 {
			t.Errorf("%s: new/old of the columns %v, change ratio %v", r.Key, got, r.Ratio.Center)
		}
	}
	title, figures := res.Header()
	for _, l := range []string{title, figures} {
		if n := len([]rune(l)); n > 120 {
			t.Errorf("header line of %d characters, want at most 120: %s", n, l)
		}
	}
	if !strings.Contains(figures, "median pair") {
		t.Errorf("the header does not say what the columns are: %s", figures)
	}
}

func write(t *testing.T, res *compare.Result, f compare.Format) string {
	t.Helper()
	var b bytes.Buffer
	if err := res.Write(&b, f); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// checkAgree compares what every format tells with the result itself.
func checkAgree(t *testing.T, res *compare.Result, formats map[string][]told) {
	t.Helper()
	for f, rows := range formats {
		if len(rows) != len(res.Rows) {
			t.Errorf("%s %s: %d rows, want %d", res.Metric, f, len(rows), len(res.Rows))
			continue
		}
		byName := map[string]told{}
		for _, r := range rows {
			byName[r.name] = r
		}
		keys := make([]bench.Key, len(res.Rows))
		for i, row := range res.Rows {
			keys[i] = row.Key
		}
		_, figureNames := plot.Names(keys)
		for i, row := range res.Rows {
			got, ok := byName[res.Name(row.Key)]
			if !ok {
				got, ok = byName[row.Key.String()]
			}
			if !ok {
				got, ok = byName[figureNames[i]]
			}
			if !ok {
				t.Errorf("%s %s: no row %s", res.Metric, f, row.Key)
				continue
			}
			where := fmt.Sprintf("%s %s %s", res.Metric, f, row.Key)
			near := func(what string, got, want, tol float64) {
				if !math.IsNaN(got) && !(math.Abs(got-want) <= tol) {
					t.Errorf("%s: %s %v, want %v (±%v)", where, what, got, want, tol)
				}
			}
			near("change", got.change, row.Ratio.Center-1, got.changeTol)
			near("lo", got.lo, row.Ratio.Lo-1, got.changeTol)
			near("hi", got.hi, row.Ratio.Hi-1, got.changeTol)
			near("level", got.level, res.Level, 1e-9)
			near("old", got.old, row.Old.Center, got.valTol*row.Old.Center)
			near("new", got.new, row.New.Center, got.valTol*row.New.Center)
			if math.IsNaN(got.level) {
				t.Errorf("%s: no level", where)
			}
			if w := res.Word(row.Verdict); got.verdict != w && got.verdict != drawnClass(row.Verdict) {
				t.Errorf("%s: verdict %q, want %q", where, got.verdict, w)
			}
			// The columns and the change tell one story, as far as
			// the format's digits do.
			if !math.IsNaN(got.old) && !math.IsNaN(got.change) {
				if d := got.new/got.old - 1 - got.change; math.Abs(d) > 2*got.valTol*(1+got.change)+got.changeTol {
					t.Errorf("%s: columns %v → %v but change %v", where, got.old, got.new, got.change)
				}
			}
		}
	}
}

// drawnClass is how the forest plot classes a verdict.
func drawnClass(v compare.Verdict) string {
	switch v {
	case compare.Worse:
		return "slower"
	case compare.Better:
		return "faster"
	case compare.NoChange:
		return "nochange"
	}
	return "inconclusive"
}

var (
	levelRe = regexp.MustCompile(`([0-9.]+)% CI`)
	cellsRe = regexp.MustCompile(`\s{2,}`)
)

// parseLevel reads the level of "99.375% CI".
func parseLevel(t *testing.T, s string) float64 {
	t.Helper()
	m := levelRe.FindStringSubmatch(s)
	if m == nil {
		t.Errorf("no level in %q", s)
		return math.NaN()
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Error(err)
	}
	return v / 100
}

// parsePct reads "+25.08%" as 0.2508.
func parsePct(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "+"), "%"), 64)
	if err != nil {
		t.Errorf("percentage %q: %v", s, err)
		return math.NaN()
	}
	return v / 100
}

// parseInterval reads "[-1.70%, +1.84%]".
func parseInterval(t *testing.T, s string) (lo, hi float64) {
	t.Helper()
	a, b, ok := strings.Cut(strings.Trim(strings.TrimSpace(s), "[]"), ",")
	if !ok {
		t.Errorf("interval %q", s)
		return math.NaN(), math.NaN()
	}
	return parsePct(t, a), parsePct(t, b)
}

// parseValue reads a value as bench.FormatValue writes it, "1.315µ".
func parseValue(t *testing.T, s string) float64 {
	t.Helper()
	mult := 1.0
	for _, p := range []struct {
		suffix string
		m      float64
	}{{"n", 1e-9}, {"µ", 1e-6}, {"m", 1e-3}, {"k", 1e3}, {"M", 1e6}} {
		if strings.HasSuffix(s, p.suffix) {
			s, mult = strings.TrimSuffix(s, p.suffix), p.m
			break
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Errorf("value %q: %v", s, err)
		return math.NaN()
	}
	return v * mult
}

// Tolerances of the formats for people: values with four significant
// digits, changes with two decimals of a percent.
const (
	valueTol = 5e-4
	pctTol   = 5e-5 + 1e-12
)

func parseText(t *testing.T, out string) []told {
	t.Helper()
	lines := strings.Split(out, "\n")
	var rows []told
	level := math.NaN()
	in := false
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "benchmark "):
			level = parseLevel(t, l)
			in = true
		case !in || strings.TrimSpace(l) == "" || strings.HasPrefix(l, "geomean"):
			in = in && strings.TrimSpace(l) != ""
		default:
			c := cellsRe.Split(strings.TrimSpace(l), -1)
			if len(c) != 8 {
				t.Errorf("text row %q: %d cells", l, len(c))
				continue
			}
			r := told{name: c[0], old: parseValue(t, c[1]), new: parseValue(t, c[3]), change: parsePct(t, c[5]),
				verdict: strings.TrimSpace(strings.Split(c[7], " (")[0]), level: level, changeTol: pctTol, valTol: valueTol}
			r.lo, r.hi = parseInterval(t, c[6])
			rows = append(rows, r)
		}
	}
	return rows
}

func parseMarkdown(t *testing.T, out string) []told {
	t.Helper()
	var rows []told
	level := math.NaN()
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "| ") {
			continue
		}
		c := strings.Split(strings.Trim(l, "| "), " | ")
		if c[0] == "benchmark" {
			level = parseLevel(t, l)
			continue
		}
		if c[0] == "geomean" || len(c) != 6 {
			continue
		}
		r := told{name: strings.Trim(c[0], "`"), old: parseValue(t, c[1]), new: parseValue(t, c[2]), change: parsePct(t, c[3]),
			verdict: strings.Split(strings.Trim(c[5], "*"), " (")[0], level: level, changeTol: pctTol, valTol: valueTol}
		r.lo, r.hi = parseInterval(t, c[4])
		rows = append(rows, r)
	}
	return rows
}

func parseJSON(t *testing.T, out string) []told {
	t.Helper()
	var j struct {
		Level float64
		Rows  []struct {
			Pkg, Name     string
			Procs         int
			Old, New      struct{ Center float64 }
			Ratio, Lo, Hi float64
			Verdict       string
		}
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	var rows []told
	for _, r := range j.Rows {
		name := bench.Key{Package: r.Pkg, Name: r.Name, Procs: r.Procs}.String()
		rows = append(rows, told{name: name, old: r.Old.Center, new: r.New.Center, change: r.Ratio - 1, lo: r.Lo - 1, hi: r.Hi - 1,
			verdict: r.Verdict, level: j.Level, changeTol: 1e-12, valTol: 1e-12})
	}
	return rows
}

func parseCSV(t *testing.T, out string) []told {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	num := func(rec []string, h string) float64 {
		v, err := strconv.ParseFloat(rec[col[h]], 64)
		if err != nil {
			t.Errorf("CSV %s: %v", h, err)
			return math.NaN()
		}
		return v
	}
	var rows []told
	for _, rec := range recs[1:] {
		procs, _ := strconv.Atoi(rec[col["procs"]])
		name := bench.Key{Package: rec[col["pkg"]], Name: rec[col["name"]], Procs: procs}.String()
		rows = append(rows, told{name: name, old: num(rec, "old"), new: num(rec, "new"), change: num(rec, "ratio") - 1,
			lo: num(rec, "lo") - 1, hi: num(rec, "hi") - 1, verdict: rec[col["verdict"]], level: num(rec, "level"),
			changeTol: 1e-12, valTol: 1e-12})
	}
	return rows
}

// A pageComparisonParsed is one comparison of the HTML page: its rows and
// its forest plot.
type pageComparisonParsed struct {
	rows []told
	svg  string
}

// parseComparisons reads the comparisons of a page: the level of each
// table's header, its rows, and the SVG of its figure.
func parseComparisons(t *testing.T, page string) []pageComparisonParsed {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var out []pageComparisonParsed
	var text func(n *html.Node) string
	text = func(n *html.Node) string {
		if n.Type == html.TextNode {
			return n.Data
		}
		var b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			b.WriteString(text(c))
		}
		return b.String()
	}
	level := math.NaN()
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "svg":
				if strings.Contains(attr(n, "class"), "forest") {
					var b bytes.Buffer
					if err := html.Render(&b, n); err != nil {
						t.Fatal(err)
					}
					out = append(out, pageComparisonParsed{svg: b.String()})
				}
				return
			case "th":
				if strings.Contains(text(n), "CI") {
					level = parseLevel(t, text(n))
				}
			case "tr":
				var cells []string
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.ElementNode && c.Data == "td" {
						cells = append(cells, text(c))
					}
				}
				if len(cells) == 6 && len(out) > 0 {
					r := told{name: cells[0], old: parseValue(t, cells[1]), new: parseValue(t, cells[2]), change: parsePct(t, cells[3]),
						verdict: strings.Split(cells[5], " (")[0], level: level, changeTol: pctTol, valTol: valueTol}
					r.lo, r.hi = parseInterval(t, cells[4])
					out[len(out)-1].rows = append(out[len(out)-1].rows, r)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

var (
	svgText   = regexp.MustCompile(`<text x="([-0-9.]+)" y="([-0-9.]+)"[^>]*class="ts?"[^>]*>([^<]*)</text>`)
	svgLine   = regexp.MustCompile(`<line x1="([-0-9.]+)" y1="([-0-9.]+)" x2="([-0-9.]+)" y2="([-0-9.]+)" class="(slower|faster|nochange|inconclusive)"\s*/?>`)
	svgPath   = regexp.MustCompile(`<path d="M([^"]*)Z" class="(slower|faster|nochange|inconclusive)"\s*/?>`)
	svgCircle = regexp.MustCompile(`<circle cx="([-0-9.]+)" cy="([-0-9.]+)" r="[-0-9.]+" class="(slower|faster|nochange|inconclusive)"\s*/?>`)
	svgTitle  = regexp.MustCompile(`<title>([^<]*)</title>`)
	tickRe    = regexp.MustCompile(`^[-+]?[0-9.]+%$`)
)

// parseForest reads a forest plot back: the level in its title, and for
// each row, found by the height of its name, the interval from the ends
// of its line and the estimate from the centre of its marker (a circle,
// or a regular polygon, whose corners average to its centre), both mapped
// back through the axis's tick labels, and the verdict from the classes.
// Its precision is what a tenth of a pixel is worth on the axis.
func parseForest(t *testing.T, svg string) []told {
	t.Helper()
	f := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("SVG number %q", s)
		}
		return v
	}
	if strings.Contains(svg, `class="clip"`) {
		t.Fatalf("the fixture's intervals are cut at the edge of the plot; widen it")
	}
	title := svgTitle.FindStringSubmatch(svg)
	if title == nil {
		t.Fatal("SVG without title")
	}
	level := parseLevel(t, title[1])
	type named struct {
		name string
		y    float64
	}
	var names []named
	var ticks [][2]float64 // x, value
	for _, m := range svgText.FindAllStringSubmatch(svg, -1) {
		x, y, s := f(m[1]), f(m[2]), html.UnescapeString(m[3])
		switch {
		case tickRe.MatchString(s) && strings.Contains(m[0], `text-anchor="middle"`):
			ticks = append(ticks, [2]float64{x, parsePct(t, s)})
		case strings.Contains(m[0], `text-anchor="end"`):
			names = append(names, named{s, y})
		}
	}
	if len(ticks) < 2 {
		t.Fatalf("SVG with %d ticks", len(ticks))
	}
	a, b := ticks[0], ticks[len(ticks)-1]
	perPx := (b[1] - a[1]) / (b[0] - a[0])
	value := func(x float64) float64 { return a[1] + (x-a[0])*perPx }
	tol := 0.1*math.Abs(perPx) + 1e-9
	var rows []told
	for _, n := range names {
		r := told{name: n.name, change: math.NaN(), lo: math.NaN(), hi: math.NaN(), old: math.NaN(), new: math.NaN(),
			level: level, changeTol: tol}
		near := func(y float64) bool { return math.Abs(y-n.y) < 8 }
		for _, m := range svgLine.FindAllStringSubmatch(svg, -1) {
			if y := f(m[2]); near(y) && y == f(m[4]) {
				r.lo, r.hi, r.verdict = value(f(m[1])), value(f(m[3])), m[5]
			}
		}
		for _, m := range svgPath.FindAllStringSubmatch(svg, -1) {
			var xs, ys float64
			pts := strings.Split(m[1], "L")
			for _, p := range pts {
				x, y, _ := strings.Cut(p, ",")
				xs, ys = xs+f(x), ys+f(y)
			}
			if k := float64(len(pts)); near(ys / k) {
				r.change, r.verdict = value(xs/k), m[2]
			}
		}
		for _, m := range svgCircle.FindAllStringSubmatch(svg, -1) {
			if near(f(m[2])) {
				r.change, r.verdict = value(f(m[1])), m[3]
			}
		}
		if math.IsNaN(r.change) {
			t.Errorf("forest: no marker for %s", n.name)
		}
		rows = append(rows, r)
	}
	return rows
}
