package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mbench/mbench/vet"
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
	var findings []vet.Finding
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

// TestVetGoesOn vets a module in which one package does not type-check
// and another imports it: as go vet does, mbench vet reports the findings
// of the package that loads, names each package it left out with the
// error that stopped it, and exits 1.
func TestVetGoesOn(t *testing.T) {
	dir := vetModule(t)
	files := map[string]string{
		"broken/broken.go":   "package broken\n\nfunc F() int { return \"x\" }\n",
		"user/user.go":       "package user\n\nimport \"example.com/vetmod/broken\"\n\nfunc G() int { return broken.F() }\n",
		"user/user_test.go":  "package user\n\nimport \"testing\"\n\nfunc BenchmarkG(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\tG()\n\t}\n}\n",
		"testonly/t.go":      "package testonly\n",
		"testonly/t_test.go": "package testonly\n\nimport \"testing\"\n\nfunc BenchmarkT(b *testing.B) { undefined() }\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"vet", "./..."}, {"vet", "-json", "./..."}} {
		var stdout, stderr bytes.Buffer
		code := mbench(args, &stdout, &stderr)
		if code != exitError {
			t.Errorf("%v: exit %d, want 1", args, code)
		}
		if !strings.Contains(stdout.String(), "mix_test.go:12:3") {
			t.Errorf("%v: the finding of the package that loads is missing:\n%s", args, &stdout)
		}
		msg := stderr.String()
		for _, want := range []string{"3 packages not vetted", "example.com/vetmod/broken: ", "broken.go:3:",
			"example.com/vetmod/user: ", "example.com/vetmod/testonly: ", "t_test.go:5:"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%v: stderr lacks %q:\n%s", args, want, msg)
			}
		}
	}
}

// TestVetCounts: every run says on stderr how many packages and
// benchmarks it checked, so that a run without findings cannot be taken
// for one that checked nothing; a pattern that matches no package is an
// error.
func TestVetCounts(t *testing.T) {
	dir := vetModule(t)
	for _, name := range []string{"nobench/nobench.go", "empty/README"} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("package nobench\n"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"vet", "."}, exitRegression, "mbench vet: 1 package, 2 benchmarks checked, 1 finding\n"},
		{[]string{"vet", "-json", "."}, exitRegression, "mbench vet: 1 package, 2 benchmarks checked, 1 finding\n"},
		{[]string{"vet", "-only", "constfold,stoptimer", "."}, exitOK, "mbench vet: 1 package, 2 benchmarks checked, no findings\n"},
		{[]string{"vet", "-only", "constfold", "./..."}, exitOK, "mbench vet: 2 packages, 2 benchmarks checked, no findings\n"},
		{[]string{"vet", "./nobench"}, exitOK, "mbench vet: 1 package checked, no benchmarks found\n"},
		{[]string{"vet", "./empty/..."}, exitError, "mbench vet: no packages matched ./empty/...\n"},
	} {
		var stdout, stderr bytes.Buffer
		code := mbench(tc.args, &stdout, &stderr)
		if code != tc.code || stderr.String() != tc.want {
			t.Errorf("%v: exit %d, stderr %q; want exit %d, stderr %q", tc.args, code, &stderr, tc.code, tc.want)
		}
		if strings.Contains(stdout.String(), "checked") {
			t.Errorf("%v: the count is on stdout:\n%s", tc.args, &stdout)
		}
	}
}
