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

// bisectRepo makes a git repository of a module with one benchmark and
// six commits on its first-parent line: commits 1 to 5 edit the README,
// commit 2 also breaks the build (commit 3 mends it), and commit 4 merges
// a branch of two commits off commit 3, the second of which makes the
// benchmark do three times the work. It returns the directory and the
// hashes of the six commits and of the branch's two.
func bisectRepo(t *testing.T) (dir string, hashes, side []string) {
	t.Helper()
	dir = t.TempDir()
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
	commit := func(msg string) string {
		git("add", ".")
		git("commit", "-qm", msg)
		return git("rev-parse", "HEAD")
	}
	git("init", "-q", "-b", "main")
	write("go.mod", "module example.com/m\n\ngo 1.26\n")
	for i := 0; i <= 5; i++ {
		if i == 4 {
			git("checkout", "-q", "-b", "side")
			write("side", "1\n")
			side = append(side, commit("side 1"))
			write("m_test.go", bench("3000", ""))
			side = append(side, commit("side 2"))
			git("checkout", "-q", "main")
			git("merge", "-q", "--no-ff", "-m", "commit 4", "side")
			hashes = append(hashes, git("rev-parse", "HEAD"))
			continue
		}
		write("README", fmt.Sprintf("edit %d\n", i))
		switch {
		case i == 2:
			write("m_test.go", bench("1000", "\nfunc broken() { undefined() }\n"))
		case i < 4:
			write("m_test.go", bench("1000", ""))
		}
		hashes = append(hashes, commit(fmt.Sprintf("commit %d", i)))
	}
	return dir, hashes, side
}

// TestBisect runs mbench bisect end to end on a history whose benchmark
// got three times slower at a known commit of a merged branch, with one
// commit that does not build: it finds the merge, and with -all-parents
// the commit of the branch; names the skipped commit; shows the sessions
// as a history; and leaves the repository's working tree, index,
// branches and git bisect state as they were. -resume then reuses the
// stored sessions, and endpoints without the change exit 1.
func TestBisect(t *testing.T) {
	repo, hashes, side := bisectRepo(t)
	db := filepath.Join(t.TempDir(), "m.db")
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	// A git bisect of the user's own, in progress, and uncommitted work.
	git("bisect", "start", hashes[5], hashes[0])
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
	code, out, errOut := call("-all-parents", "-good", hashes[0], "-bad", hashes[5])
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	short := func(i int) string { return hashes[i][:12] }
	for _, want := range []string{
		"first slower commit [" + short(4) + "] commit 4",
		"the merge [" + short(4) + "] commit 4 brings in 2 commits",
		"first slower commit [" + side[1][:12] + "] side 2",
		"skip " + short(2) + " commit 2",
		"[" + short(2) + "] commit 2: building ",
		"<- first slower",
		"against its parent " + short(3) + ": BenchmarkWork",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The sessions against the good commit, as a history with the
	// first slower commit marked.
	i := strings.Index(out, "mbench history ")
	if i < 0 {
		t.Fatalf("no history command:\n%s", out)
	}
	line := strings.TrimSpace(out[i:])
	line, _, _ = strings.Cut(line, "\n")
	var hout, herr bytes.Buffer
	hargs := append([]string{"history", "-min-runs", "1"}, strings.Fields(line)[2:]...)
	if code := mbench(hargs, &hout, &herr); code != exitOK || !strings.Contains(hout.String(), "<- first slower commit of "+short(0)+".."+short(5)) {
		t.Errorf("%q: exit %d\n%s%s", hargs, code, &hout, &herr)
	}
	// The side's endpoints are the merge and its parent, whose stored
	// session is reused.
	ends := "# step 1, endpoints: " + short(4) + " against " + short(3) + ": "
	if i := strings.Index(out, ends); i < 0 {
		t.Errorf("no endpoints of the merge's side:\n%s", out)
	} else if _, label, _ := strings.Cut(out[i:], "(session "); !strings.Contains(out[:i], "(session "+strings.TrimRight(strings.Fields(label)[0], ",)")) {
		t.Errorf("the merge was compared with its parent anew (%s):\n%s", strings.Fields(label)[0], out)
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
	if !strings.Contains(out2, "first slower commit ["+short(4)+"]") {
		t.Errorf("-resume found something else:\n%s", out2)
	}

	// Commits 0 and 3 do the same work.
	code, out, errOut = call("-good", hashes[0], "-bad", hashes[3])
	if code != exitError || !strings.Contains(out, "is not slower than") || !strings.Contains(errOut, "no change located") {
		t.Errorf("no change: exit %d\n%s%s", code, out, errOut)
	}
	for _, bad := range [][]string{
		{"-good", hashes[0]},
		{"-good", hashes[0], "-bad", hashes[5], "-alpha", "2"},
		{"-good", hashes[0], "-bad", hashes[5], "-confidence", "1"},
	} {
		if code, _, errOut := call(bad...); code != exitUsage && code != exitError {
			t.Errorf("%q: exit %d\n%s", bad, code, errOut)
		}
	}
}
