package gen

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// listingsReasons is what Generate decides for each segment of
// testdata/listings.
var listingsReasons = map[string]Reason{
	"Unread":      Accepted,
	"Squares":     Accepted,
	"SortInPlace": Accepted,
	"Inner":       Accepted,
	"Unreached":   NotReached,
	"Fib":         Accepted,
	"Words":       Accepted,
}

// TestGenerateListings runs Generate on a copy of testdata/listings, the
// segments of AutoJMH's listings, end to end: the generated file compiles,
// passes go vet and its regression tests; rejected and unreached segments
// are named with their reasons; a second Generate writes the same bytes
// and -check finds nothing stale. Then the program changes under the
// benchmark, and its regression test and -check say so.
func TestGenerateListings(t *testing.T) {
	if testing.Short() {
		t.Skip("records, builds and runs generated code")
	}
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "listings"), dir)
	ctx := context.Background()
	var steps []string
	res, err := Generate(ctx, Options{Dir: dir, Patterns: []string{"./..."}, Progress: func(s string) { steps = append(steps, s) }})
	if err != nil {
		t.Fatal(err)
	}
	// The steps as they start: finding, recording, checking the one
	// package.
	if len(steps) != 3 || !strings.HasPrefix(steps[0], "finding the code marked //mbench:bench in ./...") ||
		!strings.HasPrefix(steps[1], "recording the inputs of ") || !strings.HasPrefix(steps[2], "checking the generated benchmarks of ") ||
		!strings.Contains(steps[2], "(package 1 of 1)") {
		t.Errorf("progress steps:\n%s", strings.Join(steps, "\n"))
	}
	if len(res.Segments) != len(listingsReasons) {
		t.Errorf("%d segments, want %d", len(res.Segments), len(listingsReasons))
	}
	for _, s := range res.Segments {
		want, ok := listingsReasons[s.Name]
		if !ok || s.Reason != want {
			t.Errorf("%s: reason %q (%s), want %q", s.Name, s.Reason, s.Detail, want)
		}
		if s.Reason == Accepted && s.Sets == 0 {
			t.Errorf("%s: accepted without input sets", s.Name)
		}
		if s.Name == "Inner" && (len(s.Exits) != 1 || !strings.Contains(s.Exits[0].Desc, "break outer")) {
			t.Errorf("%s: exits %v, want the break to outer", s.Name, s.Exits)
		}
	}
	file := filepath.Join(dir, GeneratedFile)
	if len(res.Files) != 1 || res.Files[0] != file {
		t.Fatalf("Files = %v, want [%s]", res.Files, file)
	}
	first, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(first, []byte(header)) {
		t.Errorf("%s does not start with the generated header", file)
	}
	for name, reason := range listingsReasons {
		has := bytes.Contains(first, []byte("func Benchmark"+name+"("))
		if has != (reason == Accepted) {
			t.Errorf("Benchmark%s in the file: %v, want %v", name, has, reason == Accepted)
		}
	}
	goTool(t, dir, "vet", ".")
	out := goTool(t, dir, "test", "-count=1", "-run=^TestMbench", "-bench=^$", "-v", ".")
	for name, reason := range listingsReasons {
		if reason == Accepted && !strings.Contains(out, "--- PASS: TestMbench"+name) {
			t.Errorf("TestMbench%s did not pass:\n%s", name, out)
		}
	}
	want := map[Reason]int{Accepted: 6, NotReached: 1}
	for _, c := range res.Counts() {
		if want[c.Reason] != c.N {
			t.Errorf("count of %q: %d, want %d", c.Label(), c.N, want[c.Reason])
		}
	}

	recordedDir := filepath.Join(dir, "testdata", "mbench")
	entries, err := os.ReadDir(recordedDir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "Fib.json Inner.json SortInPlace.json Squares.json Unread.json Words.json" {
		t.Errorf("recorded files %s, want those of the 6 generated benchmarks", got)
	}
	// Recorded sets of a segment without a benchmark are stale, and go.
	inner := filepath.Join(recordedDir, "Unreached.json")
	if err := os.WriteFile(inner, []byte("{}"), 0o666); err != nil {
		t.Fatal(err)
	}
	check, err := Generate(ctx, Options{Dir: dir, Patterns: []string{"./..."}, Check: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(check.Stale) != 1 || check.Stale[0] != inner {
		t.Errorf("Check with a leftover Unreached.json: stale %v", check.Stale)
	}

	// Idempotent: the same bytes again, and nothing stale.
	if _, err := Generate(ctx, Options{Dir: dir, Patterns: []string{"./..."}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(inner); !os.IsNotExist(err) {
		t.Errorf("Unreached.json left after Generate: %v", err)
	}
	second, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, second) {
		t.Errorf("a second Generate changed %s:\n%s", file, firstDiff(string(first), string(second)))
	}
	check, err = Generate(ctx, Options{Dir: dir, Patterns: []string{"./..."}, Check: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(check.Stale) > 0 {
		t.Errorf("Check after Generate: stale %v", check.Stale)
	}

	// Fib now computes something else: its regression test fails, and
	// -check finds its recorded sets stale.
	src := filepath.Join(dir, "listings.go")
	code, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	changed := bytes.Replace(code, []byte("a, b = b, a+b"), []byte("a, b = b, a+b+1"), 1)
	if bytes.Equal(changed, code) {
		t.Fatal("the fixture's Fib is not as this test expects")
	}
	if err := os.WriteFile(src, changed, 0o666); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-run=^TestMbenchFib$", "-bench=^$", ".")
	cmd.Dir = dir
	failed, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(failed), "--- FAIL: TestMbenchFib") || !strings.Contains(string(failed), "r0 differs") {
		t.Errorf("TestMbenchFib on a changed Fib: %v\n%s", err, failed)
	}
	check, err = Generate(ctx, Options{Dir: dir, Patterns: []string{"./..."}, Check: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(check.Stale) == 0 {
		t.Errorf("Check after changing Fib: nothing stale")
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(after, first) {
		t.Errorf("Check wrote %s", file)
	}

	// Without markers, the package loses its generated file and its
	// recorded sets.
	var unmarked []string
	for _, line := range strings.Split(string(changed), "\n") {
		if !strings.Contains(line, "//mbench:bench") {
			unmarked = append(unmarked, line)
		}
	}
	if err := os.WriteFile(src, []byte(strings.Join(unmarked, "\n")), 0o666); err != nil {
		t.Fatal(err)
	}
	res, err = Generate(ctx, Options{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) || len(res.Removed) != 7 || res.Removed[0] != file {
		t.Errorf("without markers: Removed %v, %s: %v", res.Removed, file, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "testdata")); !os.IsNotExist(err) {
		t.Errorf("without markers: testdata is still there (%v)", err)
	}
}

// TestGeneratedMatchesHandWritten runs the generated benchmarks of
// testdata/listings and the fixture's hand-written ones and compares their
// allocations per op, which do not depend on timing: a generated benchmark
// that boxed its results or rebuilt its inputs in the loop would allocate
// where the careful hand-written one does not. Timings are the
// evaluation's business: they are logged, not asserted.
func TestGeneratedMatchesHandWritten(t *testing.T) {
	if testing.Short() {
		t.Skip("records, builds and runs generated code")
	}
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "listings"), dir)
	if _, err := Generate(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}}); err != nil {
		t.Fatal(err)
	}
	out := goTool(t, dir, "test", "-count=1", "-run=^$", "-bench=.", "-benchtime=100x", "-benchmem", ".")
	type result struct{ ns, allocs float64 }
	results := map[string]result{}
	line := regexp.MustCompile(`(?m)^Benchmark(\w+)(?:/input=0)?(?:-\d+)?\s+\d+\s+([0-9.]+) ns/op.*?\s([0-9.]+) allocs/op`)
	for _, m := range line.FindAllStringSubmatch(out, -1) {
		var r result
		r.ns, _ = strconv.ParseFloat(m[2], 64)
		r.allocs, _ = strconv.ParseFloat(m[3], 64)
		results[m[1]] = r
	}
	for _, name := range []string{"Unread", "Squares", "SortInPlace", "Fib", "Words"} {
		g, okg := results[name]
		h, okh := results["Hand"+name]
		if !okg || !okh {
			t.Errorf("%s: no result for the generated (%v) or hand-written (%v) benchmark:\n%s", name, okg, okh, out)
			continue
		}
		if g.allocs != h.allocs {
			t.Errorf("%s: %v allocs/op generated, %v hand-written", name, g.allocs, h.allocs)
		}
		t.Logf("%s: %.1f ns/op generated, %.1f ns/op hand-written (not asserted)", name, g.ns, h.ns)
	}
}

func TestCounts(t *testing.T) {
	r := &Result{Segments: []*Segment{
		{Reason: NotReached}, {Reason: Accepted}, {Reason: JumpsOut}, {Reason: Accepted}, {Reason: TestFails},
	}}
	var got []string
	for _, c := range r.Counts() {
		got = append(got, c.Label()+"="+strconv.Itoa(c.N))
	}
	want := "generated=2 jumps out of the segment=1 not reached by tests=1 regression test fails=1"
	if strings.Join(got, " ") != want {
		t.Errorf("Counts = %s, want %s", strings.Join(got, " "), want)
	}
}

// goTool runs the go command in dir and fails the test when it fails.
func goTool(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestGenerateOldGo checks that a module whose Go version predates the
// generated code's language gets a clear error, before anything runs.
func TestGenerateOldGo(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/old\n\ngo 1.15\n",
		"old.go": "package old\n\n// Twice doubles x.\n//\n//mbench:bench Twice\nfunc Twice(x int) int { return 2 * x }\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Generate(context.Background(), Options{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "example.com/old: the generated code needs go1.16 or later") {
		t.Errorf("Generate on a go 1.15 module: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "testdata")); !os.IsNotExist(err) {
		t.Errorf("Generate recorded inputs of a module it refused: %v", err)
	}
}
