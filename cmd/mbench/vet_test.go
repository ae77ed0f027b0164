package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mbench/mbench/vet/crosscheck"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// vetModule copies testdata/vetmod to a temporary directory and makes it
// the working directory, so that tests may change it.
func vetModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-r", "testdata/vetmod/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("copying the module: %v\n%s", err, out)
	}
	t.Chdir(dir)
	return dir
}

func TestVet(t *testing.T) {
	vetModule(t)
	var stdout, stderr bytes.Buffer
	code := mbench([]string{"vet", "./..."}, &stdout, &stderr)
	if code != exitRegression {
		t.Fatalf("exit %d, want 3 (findings)\n%s%s", code, &stdout, &stderr)
	}
	out := stdout.String()
	if !strings.Contains(out, "mix_test.go:12:3: [deadresult] ") || strings.Count(out, "[deadresult]") != 1 {
		t.Errorf("want one deadresult finding at mix_test.go:12:3, got:\n%s", out)
	}

	stdout.Reset()
	if code := mbench([]string{"vet", "-json", "./..."}, &stdout, &stderr); code != exitRegression {
		t.Fatalf("-json: exit %d", code)
	}
	var findings []finding
	if err := json.Unmarshal(stdout.Bytes(), &findings); err != nil {
		t.Fatalf("-json output: %v\n%s", err, &stdout)
	}
	if len(findings) != 1 || findings[0].Analyzer != "deadresult" || len(findings[0].Fixes) == 0 {
		t.Errorf("-json findings %+v, want one deadresult finding with a fix", findings)
	}

	if code := mbench([]string{"vet", "-only", "nosuch", "./..."}, &stdout, &stderr); code != exitUsage {
		t.Errorf("-only nosuch: exit %d, want 2", code)
	}
	stderr.Reset()
	if code := mbench([]string{"vet", "-confirmed", "./..."}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "-confirmed needs -run") {
		t.Errorf("-confirmed without -run: exit %d, want 2 and a message naming the flag\n%s", code, &stderr)
	}
}

func TestOnlyConfirmed(t *testing.T) {
	in := []finding{
		{Analyzer: "deadresult", Pos: "a_test.go:1:1", Check: "confirmed"},
		{Analyzer: "deadresult", Pos: "a_test.go:2:1", Check: "refuted"},
		{Analyzer: "bnsize", Pos: "a_test.go:3:1", Check: "undetermined"},
		{Analyzer: "stoptimer", Pos: "a_test.go:4:1"},
		{Analyzer: "driftstate", Pos: "a_test.go:5:1", Check: "confirmed"},
	}
	kept, left := onlyConfirmed(in)
	if len(kept) != 2 || kept[0].Pos != "a_test.go:1:1" || kept[1].Pos != "a_test.go:5:1" || left != 3 {
		t.Errorf("onlyConfirmed kept %+v and left out %d, want the findings at lines 1 and 5 and 3 left out", kept, left)
	}
	if kept, left := onlyConfirmed(nil); kept != nil || left != 0 {
		t.Errorf("onlyConfirmed(nil) = %v, %d", kept, left)
	}
}

func TestVetFix(t *testing.T) {
	dir := vetModule(t)
	var stdout, stderr bytes.Buffer
	mbench([]string{"vet", "-fix", "./..."}, &stdout, &stderr)
	src, err := os.ReadFile(filepath.Join(dir, "mix_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "for b.Loop() {\n\t\tMix(input)") {
		t.Errorf("-fix did not rewrite the loop to b.Loop:\n%s", src)
	}
	stdout.Reset()
	if code := mbench([]string{"vet", "./..."}, &stdout, &stderr); code != exitOK {
		t.Errorf("after -fix: exit %d, findings:\n%s", code, &stdout)
	}
}

// fixModule writes a module whose benchmarks have two dead results in one
// b.N loop and two constant calls in one b.Loop loop, and makes it the
// working directory.
func fixModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/fx\n\ngo 1.26\n",
		"fx.go":  "package fx\n\nfunc Mix(x, y int) int { return x*31 + y }\n",
		"fx_test.go": `package fx

import "testing"

var sink int

func BenchmarkDead(b *testing.B) {
	b.StopTimer()
	b.StartTimer()
	for i := 0; i < b.N; i++ {
		Mix(i, 1)
		Mix(i, 2)
	}
}

func BenchmarkConst(b *testing.B) {
	for b.Loop() {
		sink = Mix(3, 4)
		sink = Mix(5, 6)
	}
}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	return dir
}

// TestVetFixTogether applies several fixes that insert at the same
// places (sink declarations at the end of the file, constant inputs
// assigned before one loop): all are applied, and the result builds and
// vets clean.
func TestVetFixTogether(t *testing.T) {
	dir := fixModule(t)
	var stdout, stderr bytes.Buffer
	if code := mbench([]string{"vet", "-fix", "./..."}, &stdout, &stderr); code != exitRegression {
		t.Fatalf("-fix: exit %d\n%s%s", code, &stdout, &stderr)
	}
	if !strings.Contains(stderr.String(), "applied 4 fixes") {
		t.Errorf("want 4 fixes applied:\n%s", &stderr)
	}
	src, _ := os.ReadFile(filepath.Join(dir, "fx_test.go"))
	for _, want := range []string{"sinkMix11 = Mix(i, 1)", "sinkMix12 = Mix(i, 2)", "sink = Mix(inMix18_0, inMix18_1)",
		"inMix18_0 = 3\n\tinMix18_1 = 4\n\tinMix19_0 = 5\n\tinMix19_1 = 6\n\tfor b.Loop()"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("fixed file lacks %q:\n%s", want, src)
		}
	}
	stdout.Reset()
	if code := mbench([]string{"vet", "./..."}, &stdout, &stderr); code != exitOK {
		t.Errorf("after -fix: exit %d, findings:\n%s", code, &stdout)
	}
	if out, err := exec.Command("go", "vet", ".").CombinedOutput(); err != nil {
		t.Errorf("go vet after -fix: %v\n%s\n%s", err, out, src)
	}
}

// TestVetRun confirms the dead-code finding by running the benchmark as
// written and with its fix; -confirmed keeps it.
func TestVetRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	dir := vetModule(t)
	before, _ := os.ReadFile(filepath.Join(dir, "mix_test.go"))
	var stdout, stderr bytes.Buffer
	code := mbench([]string{"vet", "-run", "-confirmed", "./..."}, &stdout, &stderr)
	if code != exitRegression {
		t.Fatalf("exit %d\n%s%s", code, &stdout, &stderr)
	}
	if !strings.Contains(stdout.String(), "mix_test.go:12:3: [deadresult] ") || !strings.Contains(stdout.String(), "confirmed by running it") {
		t.Errorf("the finding was not confirmed:\n%s\n%s", &stdout, &stderr)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "mix_test.go"))
	if !bytes.Equal(before, after) {
		t.Error("-run changed the source file")
	}
}

// TestVetRunConstfold runs constfold findings with their fix, the inputs
// passed through package-level variables. Their verdicts are not checked:
// folding a multiply-add in a b.Loop loop, with the other call still
// folded, moves the time by 0.75-1.3x between runs of this machine.
func TestVetRunConstfold(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	fixModule(t)
	var stdout, stderr bytes.Buffer
	mbench([]string{"vet", "-run", "-only", "constfold", "./..."}, &stdout, &stderr)
	out := stdout.String()
	if strings.Count(out, "[constfold]") != 2 || strings.Count(out, "with the fix it takes") != 2 {
		t.Errorf("want both constfold findings compared with their fix:\n%s\n%s", out, &stderr)
	}
}

func TestDeadFix(t *testing.T) {
	sink := fix{Message: "assign the result to a package-level sink", Edits: []edit{{File: "a_test.go", Start: 40, End: 40, New: "sink = "}}}
	fs := []finding{
		{Analyzer: "deadresult", file: "a_test.go", offset: 40, Fixes: []fix{sink}},
		{Analyzer: "constfold", file: "a_test.go", offset: 40},
		{Analyzer: "constfold", file: "a_test.go", offset: 90},
		{Analyzer: "deadresult", file: "b_test.go", offset: 90, Fixes: []fix{sink}},
	}
	if got := deadFix(fs, fs[1]); len(got) != 1 || got[0].New != "sink = " || got[0].Start != 40 {
		t.Errorf("deadFix of the constfold finding on a dead call = %+v, want the sink edit", got)
	}
	if got := deadFix(fs, fs[2]); got != nil {
		t.Errorf("deadFix of a constfold finding whose call is used = %+v, want none", got)
	}
}

func TestRootCause(t *testing.T) {
	a := &analysis.Analyzer{Name: "a"}
	bad := &checker.Action{Analyzer: a, Package: &packages.Package{ID: "bad"}, Err: errors.New("analysis skipped due to errors in package")}
	ok := &checker.Action{Analyzer: a, Package: &packages.Package{ID: "ok"}}
	mid := &checker.Action{Analyzer: a, Package: &packages.Package{ID: "mid"}, Deps: []*checker.Action{ok, bad}, Err: errors.New("failed prerequisites")}
	root := &checker.Action{Analyzer: a, Package: &packages.Package{ID: "root"}, Deps: []*checker.Action{mid}, Err: errors.New("failed prerequisites")}
	if got := rootCause(root); got != bad {
		t.Errorf("rootCause = %v, want %v", got, bad)
	}
	if got := rootCause(bad); got != bad {
		t.Errorf("rootCause of a failed action without failed deps = %v, want itself", got)
	}
}

// TestCalibration builds the calibration of a sink fix for both forms of
// the fix, and checks that a result without a name has none.
func TestCalibration(t *testing.T) {
	src := "package p\n\nfunc B() {\n\tx := 3\n\tTwice(x)\n\t_, _ = Split(x)\n}\n"
	file := filepath.Join(t.TempDir(), "p_test.go")
	if err := os.WriteFile(file, []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	call := strings.Index(src, "Twice(x)")
	one := finding{file: file, offset: call, end: call + len("Twice(x)")}
	sink := fix{Edits: []edit{{File: file, Start: call, End: call, New: "sinkTwice5 = "}, {File: file, Start: len(src), End: len(src), New: "\nvar sinkTwice5 int\n"}}}
	split := strings.Index(src, "Split(x)")
	two := finding{file: file, offset: split, end: split + len("Split(x)")}
	blank := strings.Index(src, "_, _")
	sinks := fix{Edits: []edit{{File: file, Start: blank, End: blank + len("_, _"), New: "s0, s1"}, {File: file, Start: len(src), End: len(src), New: "\nvar s0, s1 int\n"}}}
	for _, tc := range []struct {
		f    finding
		fx   fix
		want []string
	}{
		{one, sink, []string{"_ = func() { Twice(x) }; sinkTwice5 = mbenchCalsinkTwice5\n", "var mbenchCalsinkTwice5 = sinkTwice5", "var sinkTwice5 int"}},
		{two, sinks, []string{"_ = func() { Split(x) }; s0, s1 = mbenchCals0, mbenchCals1\n", "var mbenchCals0 = s0", "var mbenchCals1 = s1"}},
	} {
		edits := calibration(tc.f, tc.fx)
		if edits == nil {
			t.Fatalf("no calibration for %+v", tc.fx)
		}
		var ces []crosscheck.Edit
		ces = append(ces, edits...)
		out, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		// Apply from the end, the replacement before an insertion at
		// the same offset, as crosscheck does.
		slices.SortStableFunc(ces, func(a, b crosscheck.Edit) int {
			if a.Start != b.Start {
				return b.Start - a.Start
			}
			return b.End - a.End
		})
		for _, e := range ces {
			out = append(out[:e.Start:e.Start], append([]byte(e.New), out[e.End:]...)...)
		}
		for _, w := range tc.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("calibrated source lacks %q:\n%s", w, out)
			}
		}
	}
	unnamed := fix{Edits: []edit{{File: file, Start: blank, End: blank + len("_, _"), New: "s0, _"}, {File: file, Start: len(src), End: len(src), New: "\nvar s0 int\n"}}}
	if edits := calibration(two, unnamed); edits != nil {
		t.Errorf("a result without a sink got a calibration: %+v", edits)
	}
}
