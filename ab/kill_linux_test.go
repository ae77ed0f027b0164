package ab

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mbench/mbench/store"
)

// The child process of TestKilled runs a session when this variable
// names its mode, "interleaved" or "parallel".
const killChildEnv = "MBENCH_AB_KILL_CHILD"

// killChild runs a long session in the child process of TestKilled, on
// the git repository, store and build cache its environment names, and
// exits; TestKilled kills it long before.
func killChild() {
	dir, db, cache := os.Getenv("MBENCH_AB_KILL_DIR"), os.Getenv("MBENCH_AB_KILL_DB"), os.Getenv("MBENCH_AB_KILL_CACHE")
	s, err := store.Open(db)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ctx := context.Background()
	switch os.Getenv(killChildEnv) {
	case "interleaved":
		o := DefaultOptions
		o.Dir, o.OldRev, o.NewRev, o.CacheDir = dir, "HEAD~1", "HEAD", cache
		o.Bench, o.Iter, o.Iterations, o.Warmup = "^BenchmarkSame$", 2*time.Millisecond, 2, 1
		o.MinRounds, o.MaxRounds, o.BenchmarkBudget = 100, 100, 0
		o.Compare.Replicates = 100
		_, err = RunInterleaved(ctx, o, s)
	case "parallel":
		c := DefaultParallelConfig
		c.Dir, c.OldRev, c.NewRev, c.CacheDir = dir, "HEAD~1", "HEAD", cache
		c.Bench, c.Iter, c.Iters, c.Warmup, c.Runs = "^BenchmarkSame$", 2*time.Millisecond, 3, 1, 1000
		_, err = RunParallel(ctx, c, s, nil)
	}
	fmt.Fprintln(os.Stderr, "session ended:", err)
	os.Exit(1)
}

// TestKilled kills (SIGKILL) a process running a session of each mode
// once the store holds a finished process (interleaved) or run of pairs
// (parallel), and checks that everything stored stays stored, each
// process or run whole, that no checkout is left registered in the
// repository, and that no process the session started outlives it.
func TestKilled(t *testing.T) {
	if mode := os.Getenv(killChildEnv); mode != "" {
		killChild()
	}
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	cache, err := makeBuildCache()
	if err != nil {
		t.Fatal(err)
	}
	// Processes orphaned by the kill are reparented to this one, which
	// can then tell whether any is left.
	if err := setSubreaper(1); err != nil {
		t.Fatalf("cannot become a subreaper: %v", err)
	}
	defer setSubreaper(0)

	repo := t.TempDir()
	for _, name := range []string{"go.mod", "fixture_test.go", "old_test.go", "new_test.go"} {
		b, err := os.ReadFile(filepath.Join("testdata", "fixture", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, name), b, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	git(t, repo, "init", "-q")
	git(t, repo, "add", ".")
	git(t, repo, "commit", "-q", "-m", "one")
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "two")

	for _, mode := range []string{"interleaved", "parallel"} {
		t.Run(mode, func(t *testing.T) {
			if mode == "parallel" {
				needsDuet(t)
			}
			db := filepath.Join(t.TempDir(), "m.db")
			s, err := store.Open(db)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			child := exec.Command(os.Args[0], "-test.run=^TestKilled$")
			var stderr bytes.Buffer
			child.Stderr = &stderr
			// The child's scratch checkouts go to a directory of the test.
			child.Env = append(os.Environ(), killChildEnv+"="+mode, "MBENCH_AB_KILL_DIR="+repo, "MBENCH_AB_KILL_DB="+db,
				"MBENCH_AB_KILL_CACHE="+cache, "TMPDIR="+t.TempDir())
			if err := child.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- child.Wait() }()

			// Poll the store, not the clock, for a finished process or
			// run of pairs; the deadline only guards against a hang.
			var seen []int
			for deadline := time.Now().Add(5 * time.Minute); len(seen) == 0 || seen[0] == 0; {
				select {
				case err := <-exited:
					t.Fatalf("the session ended before it was killed: %v\n%s", err, &stderr)
				case <-time.After(20 * time.Millisecond):
				}
				if time.Now().After(deadline) {
					child.Process.Kill()
					t.Fatalf("nothing stored after 5 minutes\n%s", &stderr)
				}
				seen = measurements(t, s)
			}
			child.Process.Kill()
			<-exited

			got := measurements(t, s)
			per := 3 // warm-up and measured iterations of a process
			if mode == "parallel" {
				per = 4
			}
			if len(got) != len(seen) || got[0] < seen[0] {
				t.Errorf("stored before the kill %v measurements, after it %v: want no fewer", seen, got)
			}
			for i, n := range got {
				if n%per != 0 {
					t.Errorf("run %d holds %d measurements: a process or run of %d stored in part", i, n, per)
				}
			}
			if mode == "parallel" && (len(got) != 2 || got[0] != got[1]) {
				t.Errorf("the two sides hold %v measurements: want two halves of equal size", got)
			}
			if out := git(t, repo, "worktree", "list"); strings.Count(out, "\n") != 1 {
				t.Errorf("worktrees registered after the kill:\n%s", out)
			}
			// Processes the session started may still be finishing
			// their work; none may be left for long.
			killed := time.Now()
			for deadline := killed.Add(time.Minute); ; {
				left := orphans(t)
				if len(left) == 0 {
					t.Logf("the last process the session started ended %v after the kill", time.Since(killed).Round(time.Millisecond))
					break
				}
				if time.Now().After(deadline) {
					t.Errorf("processes left a minute after the kill: %v", left)
					for _, p := range left {
						syscall.Kill(p, syscall.SIGKILL)
					}
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

// measurements returns how many measurements each run in s holds, in
// the order the store lists them, or nil before a run exists.
func measurements(t *testing.T, s *store.Store) []int {
	t.Helper()
	infos, err := s.Runs()
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, info := range infos {
		r, err := s.Load(info.ID)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, len(r.Measurements))
	}
	return out
}

// orphans returns the processes this one adopted as a subreaper and that
// still run; it reaps those that have exited.
func orphans(t *testing.T) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may hold spaces.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(fields) < 2 || fields[1] != strconv.Itoa(os.Getpid()) {
			continue
		}
		if fields[0] == "Z" {
			var ws syscall.WaitStatus
			syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
			continue
		}
		out = append(out, pid)
	}
	return out
}

// setSubreaper makes this process the reaper of its orphaned descendants
// (on 1) or not (on 0).
func setSubreaper(on uintptr) error {
	const prSetChildSubreaper = 36
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, on, 0); errno != 0 {
		return errno
	}
	return nil
}
