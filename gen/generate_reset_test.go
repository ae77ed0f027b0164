package gen

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestResetModeDecided checks that where a benchmark resets state is
// decided when mbench gen writes it, by timing, and kept: the benchmark
// holds one loop, not a choice made at run time, and regenerating keeps
// the mode even when the timing would now decide otherwise, so that two
// runs of the benchmark measure the same thing. The timing is replaced
// by a stub: the test must not depend on the machine's speed.
func TestResetModeDecided(t *testing.T) {
	if testing.Short() {
		t.Skip("records, builds and runs generated code")
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module example.com/r\n\ngo 1.24\n")
	write(t, filepath.Join(dir, "r.go"), `package r

import "sort"

// Median sorts xs and returns its middle element.
func Median(xs []int) int {
	//mbench:bench Sort
	sort.Ints(xs)
	return xs[len(xs)/2]
}
`)
	write(t, filepath.Join(dir, "r_test.go"), "package r\n\nimport \"testing\"\n\nfunc TestMedian(t *testing.T) { Median([]int{3, 1, 2}) }\n")
	stopped, timed := 0, 0
	defer func() { measureResets = timeResets }()
	generate := func(stop bool) string {
		t.Helper()
		measureResets = func(_ context.Context, _ *packages.Package, _ *emitted, segs []*Segment, _, _ string) (map[*Segment]bool, error) {
			if stop {
				stopped++
			} else {
				timed++
			}
			m := map[*Segment]bool{}
			for _, s := range segs {
				m[s] = stop
			}
			return m, nil
		}
		if _, err := Generate(context.Background(), Options{Dir: dir}); err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(filepath.Join(dir, GeneratedFile))
		if err != nil {
			t.Fatal(err)
		}
		return string(src)
	}
	bench := func(src string) string {
		i := strings.Index(src, "func BenchmarkSort(")
		j := strings.Index(src[i:], "\n}\n")
		return src[i : i+j]
	}
	first := generate(true)
	b := bench(first)
	if strings.Contains(b, "callNs") || strings.Count(b, "for b.Loop()") != 1 || !strings.Contains(b, "b.StopTimer()") || strings.Contains(b, "reset-ns/op") {
		t.Errorf("the benchmark does not reset with the timer stopped, in one loop:\n%s", b)
	}
	if second := generate(false); second != first {
		t.Errorf("regenerating changed the file:\n%s", firstDiff(first, second))
	}
	if stopped != 1 || timed != 0 {
		t.Errorf("timed %d times, want once, when the file was new", stopped+timed)
	}
	// Without the file, the mode is decided anew.
	if err := os.Remove(filepath.Join(dir, GeneratedFile)); err != nil {
		t.Fatal(err)
	}
	b = bench(generate(false))
	if strings.Contains(b, "b.StopTimer()") || !strings.Contains(b, `b.ReportMetric(resetNs, "reset-ns/op")`) {
		t.Errorf("the benchmark does not reset in the timed loop:\n%s", b)
	}
}

// TestTimeResets times the resets of an in-place sort for
// real: the timing test builds and runs and gives a decision; which one
// depends on the machine and is not asserted.
func TestTimeResets(t *testing.T) {
	if testing.Short() {
		t.Skip("records, builds and runs generated code")
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module example.com/r\n\ngo 1.24\n")
	write(t, filepath.Join(dir, "r.go"), "package r\n\nimport \"sort\"\n\nfunc Median(xs []int) int {\n\t//mbench:bench Sort\n\tsort.Ints(xs)\n\treturn xs[0]\n}\n")
	write(t, filepath.Join(dir, "r_test.go"), "package r\n\nimport \"testing\"\n\nfunc TestMedian(t *testing.T) { Median([]int{3, 1, 2}) }\n")
	called := false
	defer func() { measureResets = timeResets }()
	measureResets = func(ctx context.Context, pkg *packages.Package, f *emitted, segs []*Segment, tags, sets string) (map[*Segment]bool, error) {
		called = true
		m, err := timeResets(ctx, pkg, f, segs, tags, sets)
		if err != nil {
			t.Errorf("timeResets: %v", err)
		}
		if len(m) != len(segs) {
			t.Errorf("timeResets decided %d of %d segments", len(m), len(segs))
		}
		return m, err
	}
	if _, err := Generate(context.Background(), Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if !called {
		t.Errorf("the resets were not timed")
	}
}
