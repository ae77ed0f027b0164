package store

import (
	"os"
	"os/exec"
	"runtime"
	"testing"

	"github.com/mbench/mbench/bench"
)

// deadStatus is the status Runs reports for a run whose process has died:
// interrupted, except where the store cannot tell a dead process (Windows).
var deadStatus = map[bool]string{true: StatusRunning, false: StatusInterrupted}[runtime.GOOS == "windows"]

// exitedPid returns the pid of a process that has exited and been waited
// for.
func exitedPid(t *testing.T) int64 {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return int64(cmd.Process.Pid)
}

func TestOwnerGone(t *testing.T) {
	me := self()
	if me.host == "" || me.pid != int64(os.Getpid()) {
		t.Fatalf("self() = %+v", me)
	}
	exited := exitedPid(t)

	for _, tc := range []struct {
		name string
		o    owner
		want bool
	}{
		{"this process", me, false},
		{"another host", owner{host: me.host + ".elsewhere", pid: exited}, false},
		{"no host", owner{pid: exited}, false},
		{"exited process", owner{host: me.host, pid: exited}, deadStatus == StatusInterrupted},
		{"exited process with a token", owner{host: me.host, pid: exited, process: me.process}, deadStatus == StatusInterrupted},
	} {
		if got := tc.o.gone(); got != tc.want {
			t.Errorf("%s: %+v gone = %v, want %v", tc.name, tc.o, got, tc.want)
		}
	}
}

// TestRunsOwnerless checks that a running run without an owner, as version
// 2 stores hold, keeps its status.
func TestRunsOwnerless(t *testing.T) { eachBackend(t, testRunsOwnerless) }

func testRunsOwnerless(t *testing.T, open opener) {
	s, _ := open(t)
	id, err := s.CreateRun(&bench.Run{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec("DELETE FROM run_owners"); err != nil {
		t.Fatal(err)
	}
	infos, err := s.Runs()
	if err != nil || len(infos) != 1 || infos[0].ID != id || infos[0].Status != StatusRunning {
		t.Errorf("Runs = %+v, %v, want run %s running", infos, err, id)
	}
}

// TestAppendTakesOwnership resumes a run whose process died: the process
// that appends to it owns it from then on, so that it reads as running
// while that process lives.
func TestAppendTakesOwnership(t *testing.T) { eachBackend(t, testAppendTakesOwnership) }

func testAppendTakesOwnership(t *testing.T, open opener) {
	s, path := open(t)
	id, err := s.CreateRun(&bench.Run{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec("UPDATE run_owners SET pid = ?, process = ''", exitedPid(t)); err != nil {
		t.Fatal(err)
	}
	if got := runStatus(t, path, id); got != deadStatus {
		t.Fatalf("run of an exited process: status %q, want %q", got, deadStatus)
	}
	resumer, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer resumer.Close()
	m := bench.Measurement{Key: bench.Key{Name: "X"}, N: 1, Values: []bench.Value{{Value: 1, Unit: "sec/op"}}}
	if err := resumer.Append(id, m); err != nil {
		t.Fatal(err)
	}
	if got := runStatus(t, path, id); got != StatusRunning {
		t.Errorf("resumed run: status %q, want %q", got, StatusRunning)
	}
}
