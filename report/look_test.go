package report

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/internal/browser"
)

// manyForks makes a run as a long suite gives one: benchmarks of one
// package deep in a module, measured in forks processes of 3 warm-up and 6
// measured iterations, the warm-up slower than the rest, the forks
// spread by a few per cent, and in the first benchmark, one fork in 25 has
// an iteration ten times as slow as the rest. Benchmark i's values are
// scaled by factor(i).
func manyForks(label string, forks int, factor func(i int) float64) *bench.Run {
	r := &bench.Run{ID: label + "-id", Label: label,
		Platform: bench.Platform{Toolchain: "go1.26.0", GOOS: "linux", GOARCH: "amd64", Host: "bench1", CPU: "Test CPU @ 3.00GHz"},
		Start:    time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Settings: map[string]string{bench.SettingCriterion: "cv"}}
	names := []string{"Decode/small", "Decode/large", "Encode/small", "Encode/large", "Marshal", "Unmarshal"}
	for i, name := range names {
		k := bench.Key{Package: "github.com/example/project/internal/codec", Name: name, Procs: 8}
		rng := rand.New(rand.NewPCG(uint64(i), uint64(len(label))))
		var forkShift float64
		for f := range forks {
			for it := range 9 {
				phase := bench.Measure
				if it < 3 {
					phase = bench.Warmup
				}
				if it == 0 {
					forkShift = 0.04 * rng.Float64()
				}
				v := factor(i) * float64(i+1) * 1e-6 * (1 + forkShift + 0.01*rng.Float64())
				if phase == bench.Warmup {
					v *= 1 + 0.1*float64(3-it)
				}
				if i == 0 && f%25 == 7 && it == 5 {
					v *= 10
				}
				r.Measurements = append(r.Measurements, bench.Measurement{Key: k, N: 1000,
					Coord: bench.Coord{Fork: f, Iteration: it, Phase: phase},
					Values: []bench.Value{{Value: v, Unit: "sec/op"},
						{Value: math.Round(64 * float64(i+1) * factor(i)), Unit: "B/op"}, {Value: float64(i + 1), Unit: "allocs/op"}}})
			}
		}
		r.Settings[bench.StopSetting(k, "")] = fmt.Sprintf("stable after %d forks (cv 0.01)", forks)
	}
	return r
}

// A shown is a figure as the browser lays it out.
type shown struct {
	Kind string
	// Width is the figure's width, Content that of the page's column.
	Width, Content float64
	// MinFont is the smallest size of its text as drawn, in CSS pixels:
	// the font size times the scale at which the figure is shown.
	MinFont float64
	// Styles counts the <style> elements inside the figure.
	Styles int
	// Bulk is the share of the plotting area's width (strip) or height
	// (trace) that the middle 90% of the value markers span.
	Bulk float64
}

// lookScript measures every figure of the page as shown.
const lookScript = `(() => {
	const content = document.querySelector("main").clientWidth;
	return Array.from(document.querySelectorAll("svg.mbench-plot"), s => {
		const r = s.getBoundingClientRect();
		const scale = r.width / s.viewBox.baseVal.width;
		const fonts = Array.from(s.querySelectorAll("text"), t => parseFloat(getComputedStyle(t).fontSize) * scale);
		const kind = s.classList[1].replace("mbench-", "");
		let bulk = 0;
		const frame = s.querySelector(".frame");
		if (frame && (kind === "strip" || kind === "trace")) {
			const f = frame.getBoundingClientRect();
			const across = kind === "strip";
			const at = Array.from(s.querySelectorAll("circle.c0, circle.c1, circle.warm"), c => {
				const b = c.getBoundingClientRect();
				return across ? b.x + b.width / 2 : b.y + b.height / 2;
			}).filter(v => across ? v >= f.left && v <= f.right : v >= f.top && v <= f.bottom).sort((a, b) => a - b);
			if (at.length > 0) {
				const q = p => at[Math.floor(p * (at.length - 1))];
				bulk = (q(0.95) - q(0.05)) / (across ? f.width : f.height);
			}
		}
		return {Kind: kind, Width: r.width, Content: content, MinFont: Math.min(...fonts),
			Styles: s.querySelectorAll("style").length, Bulk: bulk};
	});
})()`

// navScript returns, for each link of the navigation, its target and
// whether an element with that id is a section or a heading.
const navScript = `Array.from(document.querySelectorAll("nav a"), a => {
	const id = a.getAttribute("href").slice(1);
	const el = document.getElementById(id);
	return {ID: id, Found: !!el && (el.tagName === "SECTION" || /^H[1-6]$/.test(el.tagName))};
})`

// TestLook opens a report of two runs of 106 forks each, one benchmark
// with outliers, in Chromium, as a window 1400 pixels wide at 100% zoom,
// and measures its figures as a reader sees them: each as wide as the
// page's column, no text under 12 pixels, the bulk of each distribution
// and trace spread over at least half its plot, one style sheet for all
// figures, every link of the navigation leading to its section. It
// saves a screenshot of the comparison, a distribution and a trace in
// $MBENCH_SCREENSHOTS, when set, for a person to look at.
func TestLook(t *testing.T) {
	old := manyForks("old", 106, func(int) float64 { return 1 })
	new := manyForks("new", 106, func(i int) float64 { return []float64{1.1, 0.9, 1, 1.2, 1, 1}[i] })
	r, err := Build([]*bench.Run{old, new}, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.Write(&b, HTML); err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("MBENCH_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	file := filepath.Join(dir, "report.html")
	if err := os.WriteFile(file, b.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	var figures []shown
	var nav []struct {
		ID    string
		Found bool
	}
	var styles int
	page := browser.OpenWithForTest(t, file, func(tab *browser.Tab) error {
		if err := tab.Resize(1400, 900); err != nil {
			return err
		}
		if err := tab.Eval(lookScript, &figures); err != nil {
			return err
		}
		if err := tab.Eval(navScript, &nav); err != nil {
			return err
		}
		if err := tab.Eval(`document.querySelectorAll("style").length`, &styles); err != nil {
			return err
		}
		for _, kind := range []string{"forest", "strip", "trace"} {
			png, err := tab.Screenshot("svg.mbench-" + kind)
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, kind+".png"), png, 0o666); err != nil {
				return err
			}
		}
		return nil
	})
	for _, problem := range page.Check("comparison", "distributions", "traces") {
		t.Error(problem)
	}
	kinds := map[string]int{}
	for _, f := range figures {
		if kinds[f.Kind] == 0 {
			bulk := ""
			if f.Kind == "strip" || f.Kind == "trace" {
				bulk = fmt.Sprintf(", the middle 90%% of the values over %.0f%% of the plot", 100*f.Bulk)
			}
			t.Logf("the first %s: %.0f px wide in a column of %.0f px, text of %.1f px or more%s", f.Kind, f.Width, f.Content, f.MinFont, bulk)
		}
		kinds[f.Kind]++
		if f.Width < 0.9*f.Content {
			t.Errorf("%s figure %.0f px wide in a column of %.0f px, want at least 90%%", f.Kind, f.Width, f.Content)
		}
		if f.MinFont < 12 {
			t.Errorf("%s figure: text of %.1f px, want at least 12 px", f.Kind, f.MinFont)
		}
		if f.Styles != 0 {
			t.Errorf("%s figure has %d style sheets of its own, want the page's", f.Kind, f.Styles)
		}
		if (f.Kind == "strip" || f.Kind == "trace") && f.Bulk < 0.5 {
			t.Errorf("%s figure: the middle 90%% of its values span %.0f%% of the plot, want at least half", f.Kind, 100*f.Bulk)
		}
	}
	if kinds["forest"] == 0 || kinds["strip"] == 0 || kinds["trace"] == 0 {
		t.Errorf("figures %v: want comparisons, distributions and traces", kinds)
	}
	if styles != 2 {
		t.Errorf("%d style sheets in the page, want 2 (the page's and the figures')", styles)
	}
	var ids []string
	for _, n := range nav {
		ids = append(ids, n.ID)
		if !n.Found {
			t.Errorf("navigation link #%s leads to no section or heading", n.ID)
		}
	}
	for _, id := range []string{"comparison", "distributions", "traces", "platform"} {
		if !slices.Contains(ids, id) {
			t.Errorf("navigation %q lacks #%s", ids, id)
		}
	}
}
