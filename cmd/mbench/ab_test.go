package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// abRepo makes a git repository holding a module with one benchmark, in
// three commits: the first, one whose benchmark does the same work
// (HEAD~1), and one that does not build (HEAD). The working tree is left
// with an uncommitted change, which the sessions must not touch.
func abRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bench := func(units string) string {
		return "package m\n\nimport \"testing\"\n\nvar sink int\n\nfunc BenchmarkWork(b *testing.B) {\n\tfor range b.N {\n\t\tfor i := range " + units + " {\n\t\t\tsink += i\n\t\t}\n\t}\n}\n"
	}
	git("init", "-q")
	write("go.mod", "module example.com/m\n\ngo 1.26\n")
	write("m_test.go", bench("1000"))
	git("add", ".")
	git("commit", "-qm", "one")
	git("commit", "-q", "--allow-empty", "-m", "two")
	write("m_test.go", bench("1000")+"\nfunc broken() { undefined() }\n")
	git("commit", "-qam", "broken")
	write("m_test.go", bench("2000"))
	return dir
}

// TestAB runs mbench ab end to end on revisions: an A/A pair of commits
// gives a JSON report with one benchmark and no regression; an unknown
// revision and a revision that does not build are named in the error; the
// working tree's uncommitted change survives, and no worktree is left.
func TestAB(t *testing.T) {
	repo := abRepo(t)
	db := filepath.Join(t.TempDir(), "m.db")
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	if err := os.Chdir(repo); err != nil {
		t.Fatal(err)
	}
	call := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := mbench(append([]string{"ab", "-db", db, "-iter", "5ms", "-mi", "2", "-min-rounds", "2", "-max-rounds", "3", "-budget-per-benchmark", "0"}, args...), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	code, out, errOut := call("-old", "HEAD~2", "-new", "HEAD~1", "-format", "json", "-fail", "-threshold", "0.5")
	if code != exitOK {
		t.Fatalf("A/A: exit %d\n%s%s", code, out, errOut)
	}
	var results []struct {
		Metric string
		Rows   []struct {
			Name, Method, Verdict string
		}
	}
	if err := json.Unmarshal([]byte(out), &results); err != nil {
		t.Fatalf("JSON report: %v\n%s", err, out)
	}
	if len(results) != 3 || results[0].Metric != "sec/op" || len(results[0].Rows) != 1 || results[0].Rows[0].Method != "turns" {
		t.Errorf("report: %+v, want sec/op, B/op and allocs/op with one row in turns", results)
	}
	if !strings.Contains(errOut, "session ") {
		t.Errorf("stderr does not name the session:\n%s", errOut)
	}
	// Each build line says which version it built.
	for _, want := range []string{"mbench: old (HEAD~2, ", "mbench: new (HEAD~1, "} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr has no build line starting %q:\n%s", want, errOut)
		}
	}

	code, _, errOut = call("-old", "nosuchrev")
	if code != exitError || !strings.Contains(errOut, `"nosuchrev"`) {
		t.Errorf("unknown revision: exit %d\n%s", code, errOut)
	}
	code, _, errOut = call("-old", "HEAD~1", "-new", "HEAD")
	if code != exitError || !strings.Contains(errOut, "building HEAD") || !strings.Contains(errOut, "undefined") {
		t.Errorf("revision that does not build: exit %d\n%s", code, errOut)
	}
	for _, bad := range [][]string{
		{},                                             // no old version
		{"-old", "HEAD", "-old-bin", "x.test"},         // two old versions
		{"-old-bin", "x.test"},                         // no new binary
		{"-old", "HEAD", "-min-rounds", "1"},           // too few rounds
		{"-old", "HEAD", "-alpha", "NaN"},              //
		{"-old", "HEAD", "-format", "xml"},             //
		{"-old", "HEAD", "-parallel", "-budget", "1m"}, // a flag of the interleaved mode
	} {
		if code, _, errOut := call(bad...); code != exitUsage {
			t.Errorf("%q: exit %d, want %d\n%s", bad, code, exitUsage, errOut)
		}
	}

	if b, err := os.ReadFile(filepath.Join(repo, "m_test.go")); err != nil || !strings.Contains(string(b), "2000") {
		t.Errorf("the working tree's change is gone: %v", err)
	}
	cmd := exec.Command("git", "worktree", "list")
	cmd.Dir = repo
	if out, err := cmd.Output(); err != nil || strings.Count(string(out), "\n") != 1 {
		t.Errorf("git worktree list: %v\n%s", err, out)
	}
}
