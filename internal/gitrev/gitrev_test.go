package gitrev

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// repo makes a git repository with two commits of sub/v.txt ("1", then
// "2") and returns its directory.
func repo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o777); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "init", "-q")
	for _, v := range []string{"1", "2"} {
		write(t, filepath.Join(dir, "sub", "v.txt"), v)
		run(t, dir, "add", ".")
		run(t, dir, "commit", "-q", "-m", "v"+v)
	}
	return dir
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// run runs git in dir with a fixed identity and returns its output.
func run(t *testing.T, dir string, args ...string) string {
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

// worktrees returns the number of worktrees git lists for dir.
func worktrees(t *testing.T, dir string) int {
	t.Helper()
	return strings.Count(run(t, dir, "worktree", "list", "--porcelain"), "worktree ")
}

// TestCheckout checks out HEAD~1 from a subdirectory while the working
// tree has a staged and an unstaged change: the checkout holds the older
// file at the same place, and after cleanup the working tree, the index and
// the branch are as they were and git lists one worktree.
func TestCheckout(t *testing.T) {
	dir := repo(t)
	write(t, filepath.Join(dir, "sub", "v.txt"), "dirty")
	write(t, filepath.Join(dir, "staged.txt"), "staged")
	run(t, dir, "add", "staged.txt")
	status, head := run(t, dir, "status", "--porcelain"), run(t, dir, "rev-parse", "HEAD")
	branch := run(t, dir, "branch", "--show-current")

	got, cleanup, err := Checkout(context.Background(), filepath.Join(dir, "sub"), "HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	if v := read(t, filepath.Join(got, "v.txt")); v != "1" {
		t.Errorf("HEAD~1 checked out at %s holds v.txt %q, want \"1\"", got, v)
	}
	// The checkout is not registered in the repository: a process
	// killed before its cleanup leaves nothing there.
	if n := worktrees(t, dir); n != 1 {
		t.Errorf("during the checkout git lists %d worktrees, want 1", n)
	}
	cleanup()
	cleanup() // a second call does nothing
	if _, err := os.Stat(got); !os.IsNotExist(err) {
		t.Errorf("checkout directory %s left behind: %v", got, err)
	}
	if n := worktrees(t, dir); n != 1 {
		t.Errorf("after cleanup git lists %d worktrees, want 1:\n%s", n, run(t, dir, "worktree", "list"))
	}
	if s := run(t, dir, "status", "--porcelain"); s != status {
		t.Errorf("status changed:\nbefore:\n%s\nafter:\n%s", status, s)
	}
	if v := read(t, filepath.Join(dir, "sub", "v.txt")); v != "dirty" {
		t.Errorf("working tree's v.txt is %q, want \"dirty\"", v)
	}
	if h, b := run(t, dir, "rev-parse", "HEAD"), run(t, dir, "branch", "--show-current"); h != head || b != branch {
		t.Errorf("HEAD %s on branch %s, want %s on %s", h, b, head, branch)
	}
}

// TestCheckoutWorkingTree: "." is the directory itself, no checkout.
func TestCheckoutWorkingTree(t *testing.T) {
	dir := repo(t)
	got, cleanup, err := Checkout(context.Background(), dir, WorkingTree)
	if err != nil || got != dir {
		t.Fatalf("Checkout(%q) = %q, %v; want the directory itself", WorkingTree, got, err)
	}
	cleanup()
	if n := worktrees(t, dir); n != 1 {
		t.Errorf("git lists %d worktrees, want 1", n)
	}
}

// TestUnknownRevision: an unknown revision is named in the error, with
// the repository, and nothing is checked out.
func TestUnknownRevision(t *testing.T) {
	dir := repo(t)
	for _, rev := range []string{"no-such-rev", "--orphan"} {
		_, cleanup, err := Checkout(context.Background(), dir, rev)
		want := fmt.Sprintf("git revision %q: not found in ", rev)
		if err == nil || !strings.Contains(err.Error(), want) || cleanup != nil {
			t.Errorf("Checkout(%q): error %v, want one containing %q and no cleanup", rev, err, want)
		}
		if _, err := Resolve(context.Background(), dir, rev); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Resolve(%q): error %v, want one containing %q", rev, err, want)
		}
	}
	if n := worktrees(t, dir); n != 1 {
		t.Errorf("git lists %d worktrees, want 1", n)
	}
	if _, _, err := Checkout(context.Background(), t.TempDir(), "HEAD"); err == nil {
		t.Error("Checkout outside a repository: no error")
	}
}

// TestCleanupAfterCancel: a session interrupted after its checkout (its
// context cancelled, as by SIGINT) still removes the worktree when it
// calls the cleanup; a checkout under a cancelled context leaves nothing.
func TestCleanupAfterCancel(t *testing.T) {
	dir := repo(t)
	ctx, cancel := context.WithCancel(context.Background())
	got, cleanup, err := Checkout(ctx, dir, "HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	cleanup()
	if _, err := os.Stat(got); !os.IsNotExist(err) {
		t.Errorf("checkout directory %s left behind: %v", got, err)
	}
	if n := worktrees(t, dir); n != 1 {
		t.Errorf("after cleanup git lists %d worktrees, want 1", n)
	}
	if _, cleanup, err := Checkout(ctx, dir, "HEAD~1"); err == nil || cleanup != nil {
		t.Errorf("Checkout with a cancelled context: error %v, want one and no cleanup", err)
	}
	if n := worktrees(t, dir); n != 1 {
		t.Errorf("after a cancelled checkout git lists %d worktrees, want 1", n)
	}
}

// TestRemoveStale: worktrees that a killed session of an earlier version
// left behind, one with its directory and one without, and a killed
// session's scratch checkout are gone after the next Checkout; a live
// process's stay.
func TestRemoveStale(t *testing.T) {
	dir := repo(t)
	// A process that has exited and been waited for no longer exists.
	exited := exec.Command("true")
	if err := exited.Run(); err != nil {
		t.Fatal(err)
	}
	dead := exited.Process.Pid
	stale := func(pid int) string {
		wt, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", scratchPrefix, pid))
		if err != nil {
			t.Fatal(err)
		}
		run(t, dir, "worktree", "add", "--detach", "--force", wt, "HEAD")
		return wt
	}
	kept, gone := stale(dead), stale(dead)
	live := stale(os.Getpid())
	defer remove(realPath(dir), live)
	scratch := func(pid int) string {
		d, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", scratchPrefix, pid))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(d, "f"), "x")
		return d
	}
	deadClone, liveClone := scratch(dead), scratch(os.Getpid())
	defer os.RemoveAll(liveClone)
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	_, cleanup, err := Checkout(context.Background(), dir, "HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	cleanup()
	if _, err := os.Stat(kept); !os.IsNotExist(err) {
		t.Errorf("stale worktree %s left behind: %v", kept, err)
	}
	if _, err := os.Stat(deadClone); !os.IsNotExist(err) {
		t.Errorf("stale scratch checkout %s left behind: %v", deadClone, err)
	}
	if _, err := os.Stat(liveClone); err != nil {
		t.Errorf("a live process's scratch checkout: %v", err)
	}
	list := run(t, dir, "worktree", "list", "--porcelain")
	if strings.Contains(list, filepath.Base(kept)) || strings.Contains(list, filepath.Base(gone)) || !strings.Contains(list, filepath.Base(live)) {
		t.Errorf("worktrees after Checkout:\n%s\nwant the repository and %s only", list, live)
	}
}

// TestResolve resolves a named revision and the working tree, clean and
// dirty.
func TestResolve(t *testing.T) {
	dir := repo(t)
	ctx := context.Background()
	head := strings.TrimSpace(run(t, dir, "rev-parse", "HEAD"))
	prev := strings.TrimSpace(run(t, dir, "rev-parse", "HEAD~1"))
	r, err := Resolve(ctx, filepath.Join(dir, "sub"), "HEAD~1")
	if err != nil || r.Commit != prev || r.Short != prev[:12] || r.Dirty || r.Name != "HEAD~1" {
		t.Errorf("Resolve(HEAD~1) = %+v, %v; want commit %s", r, err, prev)
	}
	r, err = Resolve(ctx, dir, WorkingTree)
	if err != nil || r.Commit != head || r.Short != head[:12] || r.Dirty {
		t.Errorf("Resolve(.) of a clean tree = %+v, %v; want commit %s", r, err, head)
	}
	write(t, filepath.Join(dir, "sub", "v.txt"), "dirty")
	r, err = Resolve(ctx, dir, WorkingTree)
	if err != nil || r.Commit != head || r.Short != head[:12]+"-dirty" || !r.Dirty {
		t.Errorf("Resolve(.) of a dirty tree = %+v, %v; want commit %s, dirty", r, err, head)
	}
}

// TestKilled: a process killed (SIGKILL) after its checkout leaves no
// worktree registered in the repository, and its scratch directory goes
// with the next Checkout.
func TestKilled(t *testing.T) {
	if dir := os.Getenv("GITREV_TEST_CHECKOUT"); dir != "" {
		got, _, err := Checkout(context.Background(), dir, "HEAD~1")
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println(got)
		select {} // until killed
	}
	dir := repo(t)
	child := exec.Command(os.Args[0], "-test.run=^TestKilled$")
	child.Env = append(os.Environ(), "GITREV_TEST_CHECKOUT="+dir)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	child.Process.Kill()
	child.Wait()
	got := strings.TrimSpace(line)
	if err != nil || !filepath.IsAbs(got) {
		t.Fatalf("child: %q, %v", line, err)
	}
	if v := read(t, filepath.Join(got, "sub", "v.txt")); v != "1" {
		t.Errorf("the child's checkout holds v.txt %q, want \"1\"", v)
	}
	if n := worktrees(t, dir); n != 1 {
		t.Errorf("after the kill git lists %d worktrees, want 1:\n%s", n, run(t, dir, "worktree", "list"))
	}
	_, cleanup, err := Checkout(context.Background(), dir, "HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	cleanup()
	if _, err := os.Stat(got); !os.IsNotExist(err) {
		t.Errorf("the killed process's checkout %s is left: %v", got, err)
	}
}

// TestResolveLeavesIndex: resolving the working tree never writes the
// user's index, so an interrupt cannot leave its lock behind (git status
// would refresh a stale index, taking .git/index.lock to write it).
func TestResolveLeavesIndex(t *testing.T) {
	dir := repo(t)
	index := filepath.Join(dir, ".git", "index")
	before := read(t, index)
	// A tracked file whose time changed but whose content did not: the
	// index's stat data are stale.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "sub", "v.txt"), later, later); err != nil {
		t.Fatal(err)
	}
	r, err := Resolve(context.Background(), dir, WorkingTree)
	if err != nil {
		t.Fatal(err)
	}
	if r.Dirty {
		t.Errorf("a file with a new time and the same content makes the tree dirty")
	}
	if read(t, index) != before {
		t.Error("Resolve wrote the index")
	}
}

// TestUserWorktreeKept: a worktree of the user's whose directory is
// missing (on a disk not mounted now) stays registered through Checkout.
func TestUserWorktreeKept(t *testing.T) {
	dir := repo(t)
	wt := filepath.Join(t.TempDir(), "elsewhere")
	run(t, dir, "worktree", "add", "--detach", wt, "HEAD")
	if err := os.RemoveAll(wt); err != nil {
		t.Fatal(err)
	}
	_, cleanup, err := Checkout(context.Background(), dir, "HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	cleanup()
	if n := worktrees(t, dir); n != 2 {
		t.Errorf("git lists %d worktrees, want the repository and the user's:\n%s", n, run(t, dir, "worktree", "list"))
	}
}
