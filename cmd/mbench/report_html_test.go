package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportFormats writes the report of two result files and of a
// store in each format.
func TestReportFormats(t *testing.T) {
	dir := t.TempDir()
	db := storeRuns(t, filepath.Join(dir, "results.db"), "testdata/old.txt", "testdata/new.txt", "testdata/aa.txt")
	for _, c := range []struct {
		name string
		args []string
	}{
		{"markdown", []string{"-format", "markdown", "-reps", "1000", "old=testdata/old.txt", "new=testdata/new.txt"}},
		{"text", []string{"-format", "text", "-reps", "1000", "old=testdata/old.txt", "new=testdata/new.txt"}},
		{"text-stored", []string{"-format", "text", "-reps", "1000", "-db", db}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out := runReport(t, dir, c.args...)
			if code != exitOK {
				t.Errorf("exit code %d\n%s", code, out)
			}
			compareGolden(t, filepath.Join("testdata", "golden", "report", c.name+".golden"), out)
		})
	}
	html := filepath.Join(dir, "r.html")
	if code, out := runReport(t, dir, "-o", html, "-reps", "1000", "-db", db); code != exitOK {
		t.Fatalf("exit code %d\n%s", code, out)
	}
	b, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	// The newest result alone, aa, with the history of the store: two
	// runs taken one after the other are compared only when named.
	for _, id := range []string{"distributions", "traces", "history", "platform"} {
		if !strings.Contains(string(b), `<section id="`+id+`">`) {
			t.Errorf("the report of the store has no section %s", id)
		}
	}
	if strings.Contains(string(b), `<section id="comparison">`) {
		t.Errorf("the report of the store compares runs it was not given")
	}
}
