package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mbench/mbench/store"
)

// TestDuetCommands runs duets of two commands end to end: a 3× slower
// command is reported slower and fails -fail; the A/A control does not; the
// stored halves compare as a duet.
func TestDuetCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	call := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := mbench(append([]string{"duet", "-db", db, "-runs", "3", "-iters", "3"}, args...), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	// The values are numbers the commands print, so that the verdict does
	// not depend on how busy the machine is; in ns/op, which the report
	// and compare read as sec/op.
	code, out, errOut := call("-fail", "-cmd-old", "echo score: 10", "-cmd-new", "echo score: 30", "-metric-re", "score: ([0-9]+)", "-unit", "ns/op",
		"-old-label", "fast", "-new-label", "slow")
	if code != exitRegression || !strings.Contains(out, "slower") {
		t.Errorf("slower command: exit %d, want %d\n%s%s", code, exitRegression, out, errOut)
	}
	// Wall time, A/A: the report has the start skew of the pairs, and
	// -fail passes however noisy the machine is, as a change of +25% is
	// needed.
	code, out, errOut = call("-fail", "-aa", "-threshold", "0.25", "-cmd-old", "sleep 0.01")
	if code != exitOK || !strings.Contains(out, "start skew") {
		t.Errorf("A/A: exit %d, want %d\n%s%s", code, exitOK, out, errOut)
	}
	var stdout, stderr bytes.Buffer
	code = mbench([]string{"compare", "-db", db, "-metric", "ns/op", "fast", "slow"}, &stdout, &stderr)
	if code != exitOK || !strings.Contains(stdout.String(), "slow vs fast") || !strings.Contains(stdout.String(), "duet: old, new") || !strings.Contains(stdout.String(), "slower") {
		t.Errorf("compare of the stored duet: exit %d\n%s%s", code, &stdout, &stderr)
	}
	for _, bad := range [][]string{
		{"-cmd-old", "true"},                           // no new side
		{"-cmd-old", "true", "-old", "HEAD"},           // two old sides
		{"-aa", "-cmd-old", "true", "-runs", "1"},      // too few runs
		{"-aa", "-cmd-old", "true", "-cpus", "0"},      // one CPU
		{"-aa", "-cmd-old", "true", "-metric-re", "x"}, // no submatch
		{"-aa", "-cmd-old", "true", "-alpha", "NaN"},
		{"-aa", "-cmd-old", "true", "-threshold", "Inf"},
		{"-aa", "-cmd-old", "true", "-threshold", "NaN"},
		// Metrics the session cannot record fail before it runs.
		{"-aa", "-cmd-old", "true", "-metric", "foo"},
		{"-old-bin", "a.test", "-new-bin", "b.test", "-metric", "B/op"},
	} {
		if code, _, errOut := call(bad...); code != exitUsage {
			t.Errorf("%q: exit %d, want %d\n%s", bad, code, exitUsage, errOut)
		}
	}
}

// gitModule makes a git repository holding a module with one benchmark
// whose cost is Work's loop count, committed, and returns its directory.
func gitModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/dt\n\ngo 1.26\n")
	write("dt.go", workSource(2000))
	write("dt_test.go", `package dt

import "testing"

var sink int

func BenchmarkWork(b *testing.B) {
	for b.Loop() {
		sink += Work(sink)
	}
}
`)
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "work")
	return dir
}

func workSource(n int) string {
	return fmt.Sprintf(`package dt

// Work does about %[1]d steps of dependent arithmetic.
func Work(x int) int {
	for i := 0; i < %[1]d; i++ {
		x = x*31 + i
	}
	return x
}
`, n)
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestDuetRevisions compares a committed revision with a working tree that
// does three times the work, and the revision with itself; the working
// tree is left as it was.
func TestDuetRevisions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	exe := buildMbench(t)
	dir := gitModule(t)
	if err := os.WriteFile(filepath.Join(dir, "dt.go"), []byte(workSource(6000)), 0o666); err != nil {
		t.Fatal(err)
	}
	status := git(t, dir, "status", "--porcelain")
	db := filepath.Join(t.TempDir(), "m.db")
	duetRun := func(args ...string) (int, string) {
		cmd := exec.Command(exe, append([]string{"duet", "-db", db, "-runs", "5", "-iters", "4", "-iter", "5ms", "-alpha", "0.05"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, string(out)
	}
	// Both halves compare CPU time: go test runs other packages' tests
	// beside this one, and on two cores their load takes the CPU from one
	// side at a time, which wall time reports as a change (+70% seen in
	// an A/A duet; a threefold change seen inconclusive).
	code, out := duetRun("-fail", "-old", "HEAD", "-metric", "cpu-sec/op")
	if code != exitRegression || !strings.Contains(out, "worse") || !strings.Contains(out, "start skew") {
		t.Errorf("three times the work: exit %d, want %d\n%s", code, exitRegression, out)
	}
	code, out = duetRun("-fail", "-old", "HEAD", "-aa", "-threshold", "0.2", "-metric", "cpu-sec/op")
	if code != exitOK || strings.Contains(out, "worse") {
		t.Errorf("A/A: exit %d\n%s", code, out)
	}
	if got := git(t, dir, "status", "--porcelain"); got != status {
		t.Errorf("the working tree changed:\nbefore:\n%s\nafter:\n%s", status, got)
	}
	if wt := git(t, dir, "worktree", "list"); strings.Count(wt, "\n") != 1 {
		t.Errorf("scratch worktrees left behind:\n%s", wt)
	}
	if code, out := duetRun("-old", "no-such-rev"); code != exitError || !strings.Contains(out, "no-such-rev") {
		t.Errorf("unknown revision: exit %d\n%s", code, out)
	}
}

// TestDuetInterrupted interrupts a duet midway: the pairs finished before
// the signal are stored, and the partial result is printed.
func TestDuetInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	exe := buildMbench(t)
	dir := gitModule(t)
	db := filepath.Join(t.TempDir(), "m.db")
	cmd := exec.Command(exe, "duet", "-db", db, "-old", "HEAD", "-aa", "-runs", "200", "-iters", "5", "-iter", "20ms")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// Poll the store, not the clock: interrupt once a run of pairs is
	// stored. The deadline only guards against a hang.
	var st *store.Store
	defer func() {
		if st != nil {
			st.Close()
		}
	}()
	for deadline := time.Now().Add(5 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no pair stored after 5 minutes")
		}
		select {
		case err := <-exited:
			t.Fatalf("duet ended before the interrupt: %v\n%s", err, &out)
		default:
		}
		if st == nil {
			if _, err := os.Stat(db); err != nil {
				continue
			}
			var err error
			if st, err = store.Open(db); err != nil {
				t.Fatal(err)
			}
		}
		if runs, err := st.Runs(); err == nil && len(runs) == 2 && runs[0].Measurements > 0 {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := <-exited
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitError {
		t.Errorf("interrupted duet: %v, want exit %d\n%s", err, exitError, &out)
	}
	runs, err := st.Runs()
	if err != nil || len(runs) != 2 {
		t.Fatalf("stored runs: %v, %v; want the two halves", runs, err)
	}
	if runs[0].Measurements == 0 || runs[0].Measurements != runs[1].Measurements || runs[0].Status != "interrupted" {
		t.Errorf("halves hold %d and %d measurements, status %q; want equal, non-zero, interrupted\n%s",
			runs[0].Measurements, runs[1].Measurements, runs[0].Status, &out)
	}
	if !strings.Contains(out.String(), "every finished pair is kept") || !strings.Contains(out.String(), "Work") {
		t.Errorf("no partial report:\n%s", &out)
	}
}
