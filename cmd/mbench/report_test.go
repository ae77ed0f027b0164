package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/store"
)

// runReport runs mbench report in a temporary directory with the result
// database db and returns its exit code and output, with the directory's
// path replaced by $DIR so that goldens do not depend on it.
func runReport(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := mbench(append([]string{"report"}, args...), &stdout, &stderr)
	out := "$ mbench report " + strings.Join(args, " ") + "\n" + stdout.String()
	if stderr.Len() > 0 {
		out += "--- stderr\n" + stderr.String()
	}
	return code, runID.ReplaceAllString(strings.ReplaceAll(out, dir, "$DIR"), "run <id>")
}

// runID matches a stored run's id as messages give it, random per store.
var runID = regexp.MustCompile(`run [0-9a-f]{12}\b`)

// storeRuns makes the result database db holding the runs read from
// files, in order.
func storeRuns(t *testing.T, db string, files ...string) string {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, f := range files {
		r, _, err := bench.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r.Label = strings.TrimSuffix(filepath.Base(f), ".txt")
		id, err := st.CreateRun(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Append(id, r.Measurements...); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// TestReportCLI checks the command's messages for input it cannot report
// on.
func TestReportCLI(t *testing.T) {
	// A name no run has is then tried as a git revision; the message must
	// not depend on whether the source tree is a git repository.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(wd))
	dir := t.TempDir()
	empty := storeRuns(t, filepath.Join(dir, "empty.db"))
	one := storeRuns(t, filepath.Join(dir, "results.db"), "testdata/old.txt")
	for _, c := range []struct {
		name string
		args []string
		code int
	}{
		{"unknown-run", []string{"-format", "text", "-db", one, "nosuchrun"}, exitError},
		{"empty-store", []string{"-db", empty}, exitError},
		{"no-store", []string{"-db", filepath.Join(dir, "none.db")}, exitError},
		{"bad-format", []string{"-format", "pdf", "testdata/old.txt"}, exitUsage},
		{"bad-threshold", []string{"-threshold", "NaN", "testdata/old.txt"}, exitUsage},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out := runReport(t, dir, c.args...)
			if code != c.code {
				t.Errorf("exit code %d, want %d\n%s", code, c.code, out)
			}
			compareGolden(t, filepath.Join("testdata", "golden", "report", c.name+".golden"), out)
		})
	}
	if _, err := os.Stat("mbench-report.html"); err == nil {
		t.Errorf("a failed report left mbench-report.html behind")
	}
}

// TestReportDefaultFile checks that the help names the file report writes
// when no -o is given.
func TestReportDefaultFile(t *testing.T) {
	dir := t.TempDir()
	abs, err := filepath.Abs(filepath.Join("testdata", "old.txt"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if code, out := runReport(t, dir, "-db", filepath.Join(dir, "m.db"), abs); code != exitOK {
		t.Fatalf("exit code %d\n%s", code, out)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var html []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".html") {
			html = append(html, e.Name())
		}
	}
	if len(html) != 1 {
		t.Fatalf("report wrote %v, want one HTML file", html)
	}
	if want := "default " + html[0] + ")"; !strings.Contains(helpText("report"), want) {
		t.Errorf("the help of report does not say %q", want)
	}
}
