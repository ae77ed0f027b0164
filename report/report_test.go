package report

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"golang.org/x/net/html"
)

// fixture makes a run of the named benchmarks: forks processes of warmup
// warm-up and iters measured iterations each, with values around base
// times the benchmark's position (plus its version's factor), a little
// noise that differs by fork and iteration, and B/op and allocs/op.
func fixture(label string, names []string, forks, warmup, iters int, factor float64) *bench.Run {
	r := &bench.Run{ID: label + "-id", Label: label,
		Platform: bench.Platform{Toolchain: "go1.26.0", GOOS: "linux", GOARCH: "amd64", Host: "bench1", CPU: "Test CPU @ 3.00GHz"},
		Start:    time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Settings: map[string]string{bench.SettingCriterion: "cv"}}
	for i, name := range names {
		k := bench.Key{Package: "example.com/pkg", Name: name, Procs: 2}
		for f := range forks {
			for it := range warmup + iters {
				phase := bench.Measure
				if it < warmup {
					phase = bench.Warmup
				}
				v := factor * float64(i+1) * 1e-6 * (1 + 0.01*float64((f*7+it*3)%5))
				r.Measurements = append(r.Measurements, bench.Measurement{Key: k, N: 1000,
					Coord:  bench.Coord{SuiteRun: 0, Fork: f, Iteration: it, Phase: phase},
					Values: []bench.Value{{Value: v, Unit: "sec/op"}, {Value: 64, Unit: "B/op"}, {Value: 1, Unit: "allocs/op"}}})
			}
		}
		r.Settings[bench.StopSetting(k, "")] = fmt.Sprintf("stable after %d forks (cv 0.01)", forks)
	}
	return r
}

var testOpts = func() Options {
	o := Options{Compare: compare.DefaultOptions}
	o.Compare.Replicates = 200
	return o
}()

func build(t *testing.T, runs []*bench.Run, opts Options) string {
	t.Helper()
	r, err := Build(runs, opts)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.Write(&b, HTML); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A parsed is what structure tests look at in a page.
type parsed struct {
	ids    []string
	svgs   map[string]int // by kind
	urls   []string       // external src and href values
	styles string         // text of <style> elements
	text   string
}

func parse(t *testing.T, page string) parsed {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	p := parsed{svgs: make(map[string]int)}
	var text strings.Builder
	var walk func(n *html.Node, inStyle bool)
	walk = func(n *html.Node, inStyle bool) {
		switch n.Type {
		case html.ElementNode:
			for _, a := range n.Attr {
				switch a.Key {
				case "id":
					if n.Data == "section" {
						p.ids = append(p.ids, a.Val)
					}
				case "src", "href":
					if !strings.HasPrefix(a.Val, "#") {
						p.urls = append(p.urls, a.Val)
					}
				case "class":
					if n.Data == "svg" {
						// The kind of figure is the last class,
						// with or without package plot's prefix.
						f := strings.Fields(a.Val)
						p.svgs[strings.TrimPrefix(f[len(f)-1], "mbench-")]++
					}
				}
			}
			inStyle = n.Data == "style"
		case html.TextNode:
			if inStyle {
				p.styles += n.Data
			} else {
				text.WriteString(n.Data)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inStyle)
		}
	}
	walk(doc, false)
	p.text = text.String()
	return p
}

func checkSelfContained(t *testing.T, p parsed) {
	t.Helper()
	if len(p.urls) > 0 {
		t.Errorf("page refers to %q; want no src or href but in-page anchors", p.urls)
	}
	if strings.Contains(p.styles, "@import") || strings.Contains(p.styles, "url(") {
		t.Errorf("style imports or loads something: %s", p.styles)
	}
	if !strings.Contains(p.styles, "prefers-color-scheme: dark") || !strings.Contains(p.styles, "@media print") {
		t.Errorf("style lacks the dark or the print variant")
	}
}

var names = []string{"Parse/n=10", "Parse/n=100", "Parse/n=1000", "Encode"}

func TestOneRun(t *testing.T) {
	page := build(t, []*bench.Run{fixture("main", names, 3, 2, 8, 1)}, testOpts)
	p := parse(t, page)
	want := []string{"scaling", "distributions", "traces", "platform"}
	if !slices.Equal(p.ids, want) {
		t.Errorf("sections %q, want %q", p.ids, want)
	}
	checkSelfContained(t, p)
	wantSVG := map[string]int{"scaling": 1, "strip": 4, "trace": 4}
	if fmt.Sprint(p.svgs) != fmt.Sprint(wantSVG) {
		t.Errorf("figures %v, want %v", p.svgs, wantSVG)
	}
	if !strings.Contains(p.text, "stopped: stable after 3 forks") {
		t.Errorf("traces do not say where the criterion stopped")
	}
	if !regexp.MustCompile(`Parse by n: slope of the log-log fit — Parse: ≈ n\^\d+\.\d\d \[\d+\.\d\d, \d+\.\d\d\]`).MatchString(p.text) {
		t.Errorf("scaling does not give the slope")
	}
}

func TestTwoRuns(t *testing.T) {
	old, new := fixture("old", names, 3, 2, 8, 1), fixture("new", names, 3, 2, 8, 1.5)
	p := parse(t, build(t, []*bench.Run{old, new}, testOpts))
	want := []string{"comparison", "scaling", "distributions", "traces", "platform"}
	if !slices.Equal(p.ids, want) {
		t.Errorf("sections %q, want %q", p.ids, want)
	}
	checkSelfContained(t, p)
	// A forest per metric (B/op and allocs/op do not change but have
	// intervals), a strip per benchmark, a trace per benchmark and side.
	wantSVG := map[string]int{"forest": 3, "scaling": 1, "strip": 4, "trace": 8}
	if fmt.Sprint(p.svgs) != fmt.Sprint(wantSVG) {
		t.Errorf("figures %v, want %v", p.svgs, wantSVG)
	}
	if !strings.Contains(p.text, "slower") {
		t.Errorf("the comparison does not find new slower:\n%s", p.text)
	}
}

func TestPlatformDiffers(t *testing.T) {
	old, new := fixture("old", names, 3, 2, 8, 1), fixture("new", names, 3, 2, 8, 1)
	new.CPU = "Other CPU"
	r, err := Build([]*bench.Run{old, new}, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.Write(&b, Markdown); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "different platforms (they differ in cpu)") {
		t.Errorf("no platform warning:\n%s", b.String())
	}
}

// An A/B session is one run of two versions, interleaved in rounds: the
// report compares them and shows the rounds paired.
func TestSession(t *testing.T) {
	old, new := fixture("a", names[:2], 6, 1, 5, 1), fixture("b", names[:2], 6, 1, 5, 1.2)
	s := &bench.Run{ID: "s1", Label: "session", Settings: map[string]string{
		bench.SettingMode: bench.ModeInterleaved, bench.SettingOld: "a", bench.SettingNew: "b"}}
	for f := range 6 {
		for _, side := range []*bench.Run{old, new} {
			for _, m := range side.Measurements {
				if m.Coord.Fork == f {
					m.Coord.Version, m.Coord.SuiteRun, m.Coord.Fork = side.Label, f, 0
					s.Measurements = append(s.Measurements, m)
				}
			}
		}
	}
	p := parse(t, build(t, []*bench.Run{s}, testOpts))
	if p.svgs["paired"] != 2 {
		t.Errorf("%d paired figures, want 2", p.svgs["paired"])
	}
	if !slices.Contains(p.ids, "comparison") || !strings.Contains(p.text, "6 paired rounds") {
		t.Errorf("no comparison of the rounds: sections %q", p.ids)
	}
}

func TestHistory(t *testing.T) {
	var runs []*bench.Run
	for i := range 7 {
		f := 1.0
		if i >= 3 {
			f = 1.5
		}
		runs = append(runs, fixture(fmt.Sprintf("r%d", i), names, 2, 0, 5, f))
	}
	p := parse(t, build(t, runs, testOpts))
	if !slices.Contains(p.ids, "history") || p.svgs["history"] != 1 {
		t.Errorf("no history figure: sections %q, figures %v", p.ids, p.svgs)
	}
	// Names leave out the package, which the page states once.
	if !regexp.MustCompile(`\nEncode(-2)?r3\+50\.00%`).MatchString(p.text) || !strings.Contains(p.text, "Benchmarks of package example.com/pkg;") {
		t.Errorf("the change points do not give Encode's step at run r3:\n%s", p.text)
	}
	// The last two runs are compared.
	if !strings.Contains(p.text, "r6 vs r5") {
		t.Errorf("the comparison is not of the last two runs")
	}
}

// Four runs are too few for a step to show: the page says so, and how
// many runs it needs, instead of "no change points".
func TestHistoryTooFew(t *testing.T) {
	var runs []*bench.Run
	for i := range 4 {
		runs = append(runs, fixture(fmt.Sprintf("r%d", i), names, 2, 0, 5, float64(1+i/2)))
	}
	p := parse(t, build(t, runs, testOpts))
	if !slices.Contains(p.ids, "history") {
		t.Fatalf("no history section: %q", p.ids)
	}
	if strings.Contains(p.text, "No change points across") || !strings.Contains(p.text, "too few runs to see a step: 4 runs, and a step needs 3 runs on each side (6 in all)") {
		t.Errorf("the page does not say that four runs are too few:\n%s", p.text)
	}
}

// A series of one run is no history: the page says so instead.
func TestHistoryOfOne(t *testing.T) {
	opts := testOpts
	run := fixture("only", names, 2, 0, 5, 1)
	opts.History = []*bench.Run{run}
	p := parse(t, build(t, []*bench.Run{run}, opts))
	if slices.Contains(p.ids, "history") {
		t.Errorf("history section for one run")
	}
	if !strings.Contains(p.text, "no history: it needs at least two runs") {
		t.Errorf("the page does not say why there is no history")
	}
}

func TestNoRuns(t *testing.T) {
	if _, err := Build(nil, testOpts); !errors.Is(err, ErrNoRuns) {
		t.Errorf("Build(nil) = %v, want ErrNoRuns", err)
	}
}

// A benchmark with no variance gives a page with its figures and a
// verdict, not NaNs or a failure.
func TestNoVariance(t *testing.T) {
	old, new := fixture("old", []string{"Const"}, 3, 0, 8, 1), fixture("new", []string{"Const"}, 3, 0, 8, 1)
	for _, r := range []*bench.Run{old, new} {
		for i := range r.Measurements {
			r.Measurements[i].Values[0].Value = 1e-6
		}
	}
	page := build(t, []*bench.Run{old, new}, testOpts)
	p := parse(t, page)
	if p.svgs["strip"] != 1 || p.svgs["trace"] != 2 || !strings.Contains(p.text, "no change") {
		t.Errorf("figures %v; no verdict of no change in:\n%s", p.svgs, p.text)
	}
	if strings.Contains(p.text, "NaN") {
		t.Errorf("page shows NaN:\n%s", p.text)
	}
}

// Names and labels with HTML in them are escaped in the page and in the
// figures' titles.
func TestEscaping(t *testing.T) {
	bad := []string{`X<script>alert(1)</script>`, `Y"><img src=x onerror=alert(2)>`}
	old, new := fixture(`<b>old</b>`, bad, 3, 0, 8, 1), fixture("new", bad, 3, 0, 8, 1.1)
	page := build(t, []*bench.Run{old, new}, testOpts)
	if strings.Contains(page, "<script") || strings.Contains(page, "<img") || strings.Contains(page, "<b>") {
		t.Fatalf("unescaped HTML in the page")
	}
	p := parse(t, page)
	for _, s := range append(bad, "<b>old</b>") {
		if !strings.Contains(p.text, s) {
			t.Errorf("the page does not show %q as text", s)
		}
	}
	checkSelfContained(t, p)
}

// A report of 100 benchmarks measured in 10 forks of 30 iterations stays
// well under 2 MB: it draws every distribution, and the traces of the
// benchmarks most worth a look, the one that did not stabilise first.
func TestSize(t *testing.T) {
	var many []string
	for i := range 100 {
		many = append(many, fmt.Sprintf("Suite/case%03d", i))
	}
	old, new := fixture("old", many, 10, 10, 30, 1), fixture("new", many, 10, 10, 30, 1.05)
	slow := bench.Key{Package: "example.com/pkg", Name: "Suite/case077", Procs: 2}
	new.Settings[bench.StopSetting(slow, "")] = "f_max=10 reached without stability (cv 0.2)"
	page := build(t, []*bench.Run{old, new}, testOpts)
	const limit = 1500 << 10
	t.Logf("%d benchmarks: %d bytes", len(many), len(page))
	if len(page) > limit {
		t.Errorf("report of %d benchmarks is %d bytes, want at most %d", len(many), len(page), limit)
	}
	p := parse(t, page)
	if p.svgs["strip"] != 100 || p.svgs["trace"] != maxTraces {
		t.Errorf("figures %v, want 100 strips and %d traces", p.svgs, maxTraces)
	}
	if !strings.Contains(p.text, "Suite/case077-2 (new): 10 forks in run order; stopped: f_max=10 reached") {
		t.Errorf("the trace of the benchmark that did not stabilise is not drawn")
	}
	if !regexp.MustCompile(`left out: (Suite/case\d+-2, ){79}Suite/case\d+-2\.`).MatchString(p.text) {
		t.Errorf("the page does not name the 80 benchmarks whose traces it left out")
	}
}

// Markdown and text print a comparison's warnings with its table, once.
func TestWarningsOnce(t *testing.T) {
	old, new := fixture("old", names, 1, 0, 10, 1), fixture("new", names, 1, 0, 10, 1.5)
	r, err := Build([]*bench.Run{old, new}, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []Format{Markdown, Text} {
		var b bytes.Buffer
		if err := r.Write(&b, f); err != nil {
			t.Fatal(err)
		}
		tables := strings.Count(b.String(), "(lower is better)")
		if n := strings.Count(b.String(), "results from a single process"); n != tables {
			t.Errorf("%s: the warning is printed %d times for %d tables:\n%s", f, n, tables, &b)
		}
	}
}

func TestFormats(t *testing.T) {
	old, new := fixture("old", names, 3, 2, 8, 1), fixture("new", names, 3, 2, 8, 1.5)
	r, err := Build([]*bench.Run{old, new}, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		f    Format
		want *regexp.Regexp
	}{
		{Markdown, regexp.MustCompile("(?s)^## mbench report: old vs new\n.*\\| `Encode-2` \\|.*\\*\\*slower\\*\\*.*B/op: no change in 4 benchmarks.\n\nallocs/op: no change in 4 benchmarks.\n\n$")},
		{Text, regexp.MustCompile(`(?s)slower.*scaling \(sec/op.*Parse/n\s+Parse \(old\)\s+≈ n\^\d+\.\d\d \[\d+\.\d\d, \d+\.\d\d\]`)},
	} {
		var b bytes.Buffer
		if err := r.Write(&b, c.f); err != nil {
			t.Fatal(err)
		}
		if !c.want.MatchString(b.String()) {
			t.Errorf("%s does not match %s:\n%s", c.f, c.want, b.String())
		}
	}
	if err := r.Write(&bytes.Buffer{}, "pdf"); err == nil {
		t.Errorf("Write in an unknown format succeeded")
	}
}

// TestOnly: a report built for one figure gathers that section alone.
func TestOnly(t *testing.T) {
	var runs []*bench.Run
	for i := range 3 {
		runs = append(runs, fixture(fmt.Sprintf("r%d", i), []string{"Sort/n=10", "Sort/n=100", "Sort/n=1000"}, 2, 0, 5, 1))
	}
	for _, only := range []string{"scaling", "history"} {
		opts := testOpts
		opts.Only = only
		r, err := Build(runs, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Comparisons) != 0 || len(r.Benchmarks) != 0 || r.Platform != nil {
			t.Errorf("Only %s: gathered a comparison, distributions or the platform too", only)
		}
		if (len(r.Families) > 0) != (only == "scaling") || (len(r.History) > 0) != (only == "history") {
			t.Errorf("Only %s: %d families, %d series", only, len(r.Families), len(r.History))
		}
		if _, err := r.Figure(only, func(string) bool { return true }); err != nil {
			t.Errorf("Only %s: %v", only, err)
		}
	}
}
