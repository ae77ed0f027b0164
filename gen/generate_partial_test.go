package gen

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
)

// partialSource is a package whose segments keep a value from before
// them on some paths, or return errors.
const partialSource = `package partial

import "strconv"

// ASCII keeps ascii true unless the loop finds a non-ASCII rune.
func ASCII(s string) bool {
	ascii := true
	//mbench:bench ASCII
	for _, c := range s {
		if c >= 0x80 {
			ascii = false
		}
	}
	return ascii
}

// Atoi returns an error for some of the tests' inputs.
//
//mbench:bench Atoi
func Atoi(s string) (int, error) {
	return strconv.Atoi(s)
}

// Positive returns an error for every input of the tests: errors of
// strconv's and its own.
//
//mbench:bench Positive
func Positive(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err == nil && n <= 0 {
		err = strconv.ErrRange
	}
	return n, err
}
`

const partialTest = `package partial

import "testing"

func TestPartial(t *testing.T) {
	if !ASCII("abc") || ASCII("caf\u00e9") {
		t.Error("ASCII")
	}
	for _, s := range []string{"12", "x", "7"} {
		Atoi(s)
	}
	for _, s := range []string{"0", "-1", "y"} {
		if _, err := Positive(s); err == nil {
			t.Errorf("Positive(%q): no error", s)
		}
	}
}
`

// TestGeneratePartial generates benchmarks end to end for an output the
// segment assigns on some paths only, which must start from its recorded
// value, and for functions returning errors: the errors are recorded with
// their dynamic types, and the regression test compares them by their
// encodings.
func TestGeneratePartial(t *testing.T) {
	if testing.Short() {
		t.Skip("records, builds and runs generated code")
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module example.com/partial\n\ngo 1.24\n")
	write(t, filepath.Join(dir, "partial.go"), partialSource)
	write(t, filepath.Join(dir, "partial_test.go"), partialTest)
	res, err := Generate(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		reason        Reason
		detail        string
		sets, skipped int
	}{
		"ASCII":    {Accepted, "", 2, 0},
		"Atoi":     {Accepted, "", 3, 0},
		"Positive": {Accepted, "", 3, 0},
	}
	if len(res.Segments) != len(want) {
		t.Errorf("%d segments, want %d", len(res.Segments), len(want))
	}
	for _, s := range res.Segments {
		w := want[s.Name]
		if s.Reason != w.reason || s.Detail != w.detail || s.Sets != w.sets || s.Skipped != w.skipped {
			t.Errorf("%s: reason %q (%s), %d sets, %d skipped; want %q (%s), %d, %d",
				s.Name, s.Reason, s.Detail, s.Sets, s.Skipped, w.reason, w.detail, w.sets, w.skipped)
		}
	}
	cmd := exec.Command("go", "test", "-count=1", "-run", "^TestMbench", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("regression tests of the generated file: %v\n%s", err, out)
	}
}
