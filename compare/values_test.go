package compare

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
)

// TestImpossibleValuesDoNotHideChanges reads results with a negative time
// among them, as `mbench compare` reads files, and compares: the reader
// skips the line with a warning, so a five-fold slowdown stays "slower".
// Before, the negative sample was read and the comparison said
// "inconclusive (±200%)", and a file of only -500 ns/op "-200.00% faster".
func TestImpossibleValuesDoNotHideChanges(t *testing.T) {
	lines := func(ns float64, extra ...string) string {
		var b strings.Builder
		b.WriteString("pkg: example.com/m\n")
		for i := range 10 {
			fmt.Fprintf(&b, "BenchmarkA-2 1000 %g ns/op\n", ns*(1+0.01*float64(i%3)))
		}
		for _, e := range extra {
			b.WriteString(e + "\n")
		}
		return b.String()
	}
	read := func(name, text string) (*bench.Run, []error) {
		t.Helper()
		run, warnings, err := bench.Read(strings.NewReader(text), name)
		if err != nil {
			t.Fatal(err)
		}
		return run, warnings
	}
	old, _ := read("old.txt", lines(500))
	new, warnings := read("new.txt", lines(2500, "BenchmarkA-2 1000 -500 ns/op"))
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0].Error(), "new.txt:12: -500 ns/op: negative") {
		t.Errorf("warnings %v, want one for new.txt:12", warnings)
	}
	opts := DefaultOptions
	opts.Replicates = 500
	res, err := Compare(old, new, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1 || res.Rows[0].Verdict != Worse {
		t.Fatalf("rows %+v, want one, slower", res.Rows)
	}

	if _, _, err := bench.Read(strings.NewReader("BenchmarkA-2 1000 -500 ns/op\n"), "neg.txt"); err == nil ||
		!strings.Contains(err.Error(), "neg.txt: no benchmark results (1 malformed lines; first: neg.txt:1: -500 ns/op: negative") {
		t.Errorf("a file of only negative times: %v, want an error saying why", err)
	}
}
