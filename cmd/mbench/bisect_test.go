package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// bisectRepo makes a git repository of nine commits of a module with one
// benchmark: commits 1 to 8 edit the README, commit 4 also breaks the
// build (commit 5 mends it), and commit 6 makes the benchmark do three
// times the work. It returns the directory and the hashes of the commits.
func bisectRepo(t *testing.T) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bench := func(units, extra string) string {
		return "package m\n\nimport \"testing\"\n\nvar sink int\n\nfunc BenchmarkWork(b *testing.B) {\n\tfor range b.N {\n\t\tfor i := range " + units + " {\n\t\t\tsink += i\n\t\t}\n\t}\n}\n" + extra
	}
	git("init", "-q")
	write("go.mod", "module example.com/m\n\ngo 1.26\n")
	var hashes []string
	for i := 0; i <= 8; i++ {
		write("README", fmt.Sprintf("edit %d\n", i))
		switch {
		case i == 4:
			write("m_test.go", bench("1000", "\nfunc broken() { undefined() }\n"))
		case i >= 6:
			write("m_test.go", bench("3000", ""))
		default:
			write("m_test.go", bench("1000", ""))
		}
		git("add", ".")
		git("commit", "-qm", fmt.Sprintf("commit %d", i))
		hashes = append(hashes, git("rev-parse", "HEAD"))
	}
	return dir, hashes
}

// TestBisect runs mbench bisect end to end on a history whose benchmark
// got three times slower at a known commit, with one commit that does not
// build: it finds the commit, names the skipped one, shows the sessions
// as a history, and leaves the repository's working tree, index,
// branches and git bisect state as they were; -resume then reuses the
// stored sessions, and endpoints without the change exit 1.
func TestBisect(t *testing.T) {
	repo, hashes := bisectRepo(t)
	db := filepath.Join(t.TempDir(), "m.db")
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	// A git bisect of the user's own, in progress, and uncommitted work.
	git("bisect", "start", hashes[8], hashes[0])
	if err := os.WriteFile(filepath.Join(repo, "README"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	state := func() string {
		return git("bisect", "log") + git("status", "--porcelain") + git("rev-parse", "HEAD") + git("branch", "-a") + git("worktree", "list", "--porcelain")
	}
	before := state()

	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	if err := os.Chdir(repo); err != nil {
		t.Fatal(err)
	}
	call := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := mbench(append([]string{"bisect", "-db", db, "-iter", "5ms", "-mi", "4", "-min-rounds", "3", "-max-rounds", "5",
			"-budget-per-benchmark", "0", "-threshold", "0.5"}, args...), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	code, out, errOut := call("-good", hashes[0], "-bad", hashes[8])
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	short := func(i int) string { return hashes[i][:12] }
	for _, want := range []string{
		"first slower commit [" + short(6) + "] commit 6",
		"skip " + short(4) + " commit 4",
		"[" + short(4) + "] commit 4: building ",
		"<- first slower",
		"against its parent " + short(5) + ": BenchmarkWork",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The sessions against the good commit, as a history.
	i := strings.Index(out, "mbench history ")
	if i < 0 {
		t.Fatalf("no history command:\n%s", out)
	}
	line := strings.TrimSpace(out[i:])
	line, _, _ = strings.Cut(line, "\n")
	var hout, herr bytes.Buffer
	hargs := append([]string{"history", "-min-runs", "1"}, strings.Fields(line)[2:]...)
	if code := mbench(hargs, &hout, &herr); code != exitOK || !strings.Contains(hout.String(), short(0)+".."+short(6)) {
		t.Errorf("%q: exit %d\n%s%s", hargs, code, &hout, &herr)
	}
	if after := state(); after != before {
		t.Errorf("the repository changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}

	// Taken up again, the bisection measures nothing: every session is
	// stored.
	code, out2, errOut := call("-resume")
	if code != exitOK || strings.Contains(errOut, "interleaved") {
		t.Errorf("-resume: exit %d, sessions run:\n%s", code, errOut)
	}
	if !strings.Contains(out2, "first slower commit ["+short(6)+"]") {
		t.Errorf("-resume found something else:\n%s", out2)
	}

	// Commits 0 and 3 do the same work.
	code, out, errOut = call("-good", hashes[0], "-bad", hashes[3])
	if code != exitError || !strings.Contains(out, "is not slower than") || !strings.Contains(errOut, "no change located") {
		t.Errorf("no change: exit %d\n%s%s", code, out, errOut)
	}
	for _, bad := range [][]string{
		{"-good", hashes[0]},
		{"-good", hashes[0], "-bad", hashes[8], "-alpha", "2"},
		{"-good", hashes[0], "-bad", hashes[8], "-confidence", "1"},
	} {
		if code, _, errOut := call(bad...); code != exitUsage && code != exitError {
			t.Errorf("%q: exit %d\n%s", bad, code, errOut)
		}
	}
}
