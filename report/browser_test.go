package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/internal/browser"
)

// TestInBrowser opens reports offline in headless Chromium, as a reader
// would: no console errors, no request for anything outside the file, every
// section whose data exist present, and each of its figures drawn with a
// size. Chromium is installed by .ci/deps when it is missing.
func TestInBrowser(t *testing.T) {
	sizes := []string{"Sort/n=10", "Sort/n=100", "Sort/n=1000", "Sort/n=10000"}
	var history []*bench.Run
	for i := range 6 {
		f := 1.0
		if i >= 3 {
			f = 1.3
		}
		history = append(history, fixture(fmt.Sprintf("r%d", i), append(sizes, names...), 3, 1, 5, f))
	}
	old, new := fixture("a", names[:2], 6, 1, 5, 1), fixture("b", names[:2], 6, 1, 5, 1.2)
	session := &bench.Run{ID: "s1", Label: "session", Settings: map[string]string{
		bench.SettingMode: bench.ModeInterleaved, bench.SettingOld: "a", bench.SettingNew: "b"}}
	for f := range 6 {
		for _, side := range []*bench.Run{old, new} {
			for _, m := range side.Measurements {
				if m.Coord.Fork == f {
					m.Coord.Version, m.Coord.SuiteRun, m.Coord.Fork = side.Label, f, 0
					session.Measurements = append(session.Measurements, m)
				}
			}
		}
	}
	for _, c := range []struct {
		name     string
		runs     []*bench.Run
		sections []string
	}{
		{"history", history, []string{"comparison", "scaling", "distributions", "traces", "history", "platform"}},
		{"session", []*bench.Run{session}, []string{"comparison", "paired", "distributions", "traces", "profiles"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			// The session's benchmarks were profiled (mbench ab
			// -profile): the report finds the kept profiles.
			opts := testOpts
			opts.ProfileDir = t.TempDir()
			writeKept(t, opts.ProfileDir, "s1", "fixture.Sort_n=10")
			r, err := Build(c.runs, opts)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := r.Write(&b, HTML); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(t.TempDir(), "report.html")
			if err := os.WriteFile(file, b.Bytes(), 0o666); err != nil {
				t.Fatal(err)
			}
			var nav []struct {
				ID    string
				Found bool
			}
			page := browser.OpenWithForTest(t, file, func(tab *browser.Tab) error { return tab.Eval(navScript, &nav) })
			for _, problem := range page.Check(c.sections...) {
				t.Error(problem)
			}
			// Every section is in the navigation, and every link of it
			// leads to one.
			var linked []string
			for _, n := range nav {
				linked = append(linked, n.ID)
				if !n.Found {
					t.Errorf("navigation link #%s leads to no section or heading", n.ID)
				}
			}
			if !slices.Equal(linked, c.sections) {
				t.Errorf("navigation links to %q, want %q", linked, c.sections)
			}
			for _, id := range c.sections {
				// The platform is a table; the paired samples are
				// figures within the comparison's section.
				if id != "platform" && id != "paired" && len(page.SVGsIn(id)) == 0 {
					t.Errorf("section %q has no figure", id)
				}
			}
		})
	}
}
