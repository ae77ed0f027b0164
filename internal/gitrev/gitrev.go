// Package gitrev makes git revisions of a module available as directories,
// so that two versions can be built and compared side by side.
//
// A revision other than the working tree is checked out in a scratch
// directory: a clone that borrows the repository's objects (git clone
// --shared, no copy) with the revision's commit checked out, detached. The
// user's working tree, index, branches and worktree list are never
// touched, so nothing is left in the repository even when the process is
// killed before it can clean up (SIGKILL); the cleanup Checkout returns
// removes the directory.
//
// A killed process leaves its scratch directory in the system's temporary
// directory, though. Scratch directories are therefore named after the
// process that made them (mbench-rev-PID-*), and every Checkout first
// removes those of processes that no longer exist, as well as the
// registered worktrees earlier versions of this package made.
package gitrev

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/mbench/mbench/internal/proc"
)

// WorkingTree is the revision that names the working tree as it is,
// uncommitted changes included. Checkout returns it without a checkout.
const WorkingTree = "."

// scratchPrefix starts the name of every scratch directory; the process
// id that follows it tells a live session's checkout from one an earlier,
// killed session left behind.
const scratchPrefix = "mbench-rev-"

// scratchName matches a scratch directory's name and captures the id of
// the process that made it.
var scratchName = regexp.MustCompile(`^` + scratchPrefix + `([0-9]+)-`)

// A Revision is a git revision resolved to a commit.
type Revision struct {
	Name   string // as given: a branch, tag, hash, HEAD~1, or WorkingTree
	Commit string // the full commit hash
	// Short is the commit's first 12 hex digits, followed by "-dirty" when
	// Name is WorkingTree and the tree has uncommitted changes: a label
	// that stays the same however the revision was named.
	Short string
	// Dirty reports uncommitted changes; only the working tree has them.
	Dirty bool
}

// Resolve resolves rev in the git repository containing dir. For
// WorkingTree it resolves HEAD and reports whether the tree is dirty.
func Resolve(ctx context.Context, dir, rev string) (Revision, error) {
	top, err := toplevel(ctx, dir)
	if err != nil {
		return Revision{}, err
	}
	r := Revision{Name: rev}
	spec := rev
	if rev == WorkingTree {
		spec = "HEAD"
	}
	if r.Commit, err = verify(ctx, top, spec); err != nil {
		return Revision{}, err
	}
	r.Short = r.Commit[:min(12, len(r.Commit))]
	if rev == WorkingTree {
		// git status refreshes a stale index and writes it, under
		// index.lock, which an interrupt could leave behind in the
		// user's repository; --no-optional-locks reads only.
		status, err := git(ctx, top, "--no-optional-locks", "status", "--porcelain", "--untracked-files=no")
		if err != nil {
			return Revision{}, err
		}
		if status != "" {
			r.Dirty = true
			r.Short += "-dirty"
		}
	}
	return r, nil
}

// Checkout makes revision rev of the git repository containing dir
// available as a directory, and returns the directory that corresponds to
// dir in it, with a function that removes the checkout. For WorkingTree it
// returns dir itself and a cleanup that does nothing.
//
// The caller must call cleanup, also when ctx has been cancelled: it does
// not depend on ctx, so an interrupted session still removes its checkout.
// Calling it more than once is safe. When Checkout fails it has already
// cleaned up, and cleanup is nil.
func Checkout(ctx context.Context, dir, rev string) (path string, cleanup func(), err error) {
	if rev == WorkingTree {
		return dir, func() {}, nil
	}
	top, err := toplevel(ctx, dir)
	if err != nil {
		return "", nil, err
	}
	commit, err := verify(ctx, top, rev)
	if err != nil {
		return "", nil, err
	}
	rel, err := filepath.Rel(top, realPath(dir))
	if err != nil {
		return "", nil, err
	}
	removeStale(ctx, top)
	wt, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", scratchPrefix, os.Getpid()))
	if err != nil {
		return "", nil, err
	}
	var once sync.Once
	cleanup = func() { once.Do(func() { os.RemoveAll(wt) }) }
	// A clone, not a worktree: git records a worktree in the repository,
	// and the record outlives a process killed before its cleanup.
	// --shared borrows the objects instead of copying them, so the commit
	// is there even when no branch of the clone reaches it.
	if _, err = git(ctx, top, "clone", "--quiet", "--shared", "--no-checkout", "--", top, wt); err == nil {
		_, err = git(ctx, wt, "checkout", "--quiet", "--detach", commit)
	}
	if err != nil {
		cleanup()
		if ctx.Err() != nil {
			return "", nil, ctx.Err()
		}
		return "", nil, fmt.Errorf("checking out %s: %v", rev, err)
	}
	return filepath.Join(wt, rel), cleanup, nil
}

// remove removes the worktree at wt of the repository top, as earlier
// versions of this package made them: its record and its directory. It
// runs without a context because it must also run after an interrupt has
// cancelled the session's.
func remove(top, wt string) {
	ctx := context.Background()
	git(ctx, top, "worktree", "remove", "--force", wt)
	os.RemoveAll(wt)
	// Drops the record when remove failed (a worktree that was never
	// completed), now that the directory is gone.
	git(ctx, top, "worktree", "prune")
}

// removeStale removes what processes which no longer run left behind:
// scratch directories in the system's temporary directory, and scratch
// worktrees of top that earlier versions of this package registered (also
// those whose directories are gone). Other worktrees are the user's and
// stay registered, also when their directories are missing (a worktree on
// a disk not mounted now). Failures are ignored: stale scratch directories
// cost disk space, not correctness.
func removeStale(ctx context.Context, top string) {
	list, err := git(ctx, top, "worktree", "list", "--porcelain")
	if err != nil {
		return
	}
	tmp := realPath(os.TempDir())
	for _, line := range strings.Split(list, "\n") {
		path, ok := strings.CutPrefix(line, "worktree ")
		if !ok || realPath(filepath.Dir(path)) != tmp {
			continue
		}
		m := scratchName.FindStringSubmatch(filepath.Base(path))
		if m == nil {
			continue
		}
		if pid, err := strconv.Atoi(m[1]); err == nil && !alive(pid) {
			remove(top, path)
		}
	}
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		m := scratchName.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() {
			continue
		}
		if pid, err := strconv.Atoi(m[1]); err == nil && !alive(pid) {
			os.RemoveAll(filepath.Join(tmp, e.Name()))
		}
	}
}

// alive reports whether a process with id pid exists. A process of
// another user also counts (EPERM): its worktree is not ours to remove.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// realPath returns path with symbolic links resolved, or path itself when
// they cannot be: git reports worktree paths resolved.
func realPath(path string) string {
	if p, err := filepath.EvalSymlinks(path); err == nil {
		return p
	}
	return filepath.Clean(path)
}

// ErrNoRepository is the error, wrapped, of a directory in no git
// repository (or where git cannot run); ErrNotFound that of a revision
// that names no commit.
var (
	ErrNoRepository = errors.New("not in a git repository")
	ErrNotFound     = errors.New("not found")
)

// toplevel returns the top directory of the working tree containing dir.
func toplevel(ctx context.Context, dir string) (string, error) {
	top, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("%s is %w: %v", dir, ErrNoRepository, err)
	}
	return top, nil
}

// verify returns the commit rev names in the repository top.
func verify(ctx context.Context, top, rev string) (string, error) {
	commit, err := git(ctx, top, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("git revision %q: %w in %s", rev, ErrNotFound, top)
	}
	return commit, nil
}

// git runs git in dir and returns its output, trimmed.
//
// git runs in a process group of its own: an interrupt typed at the
// terminal reaches only this process, which decides when git stops
// (through ctx, which kills the whole group) — so a cleanup is never cut
// short by the keystroke that asked for it. GIT_INDEX_FILE is dropped from
// the environment so that no command can write the user's index.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := proc.Command(ctx, "git", args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_INDEX_FILE=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("git %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}
