package store

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
)

// The SIGKILL test runs TestKillChild in a child process (the test binary
// itself, selected with -test.run and STORE_CHILD=1), which appends
// measurements one per call and reports each returned Append on stdout.

// killMeasurement is the i-th measurement the child appends.
func killMeasurement(i int) bench.Measurement {
	return bench.Measurement{
		Key:    bench.Key{Package: "example.com/m", Name: "Kill", Procs: 4},
		Coord:  bench.Coord{Instance: "child", Fork: i / 10, Iteration: i % 10},
		N:      1000 + i,
		Start:  time.Unix(1_800_000_000, int64(i)),
		Values: []bench.Value{{Value: float64(i), Unit: "sec/op"}, {Value: 2, Unit: "B/op"}},
		Config: config("goos", "linux", "round", strconv.Itoa(i/25)),
	}
}

// TestKillChild is the child's side; it does nothing in an ordinary test run.
func TestKillChild(t *testing.T) {
	if os.Getenv("STORE_CHILD") != "1" {
		t.Skip("helper process for TestSIGKILL")
	}
	s, err := Open(os.Getenv("STORE_PATH"))
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	id, err := s.CreateRun(&bench.Run{ID: os.Getenv("STORE_RUN"), Start: time.Now()})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	// The parent kills us long before this ends; the limit only keeps an
	// orphaned child from running forever.
	deadline := time.Now().Add(time.Minute)
	for i := 0; time.Now().Before(deadline); i++ {
		if err := s.Append(id, killMeasurement(i)); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Printf("appended %d\n", i)
	}
	os.Exit(0)
}

func TestSIGKILL(t *testing.T) {
	if os.Getenv("STORE_CHILD") == "1" {
		t.Skip("in the child")
	}
	eachBackend(t, testSIGKILL)
}

func testSIGKILL(t *testing.T, open opener) {
	_, path := open(t)
	// Each round kills a child at a different point, into the same file,
	// which must keep every earlier round's runs too.
	kills := []int{1, 17, 40}
	for round, k := range kills {
		runID := fmt.Sprintf("killed%06d", round)
		acked := runChildAndKill(t, path, runID, k)

		s, err := Open(path)
		if err != nil {
			t.Fatalf("round %d: reopen after SIGKILL: %v", round, err)
		}
		if !s.pg { // a PostgreSQL server checks its own files
			var integrity string
			if err := s.db.QueryRow("PRAGMA integrity_check").Scan(&integrity); err != nil || integrity != "ok" {
				t.Errorf("round %d: integrity_check = %q, %v", round, integrity, err)
			}
		}
		infos, err := s.Runs()
		if err != nil {
			t.Fatal(err)
		}
		if len(infos) != round+1 {
			t.Fatalf("round %d: %d runs in the store, want %d", round, len(infos), round+1)
		}
		// The runs stay "running" in the file, and the reader sees that
		// their processes are gone.
		for _, ri := range infos {
			if ri.Status != deadStatus {
				t.Errorf("round %d: killed run %s has status %q, want %q", round, ri.ID, ri.Status, deadStatus)
			}
		}
		r, err := s.Load(runID)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if len(r.Measurements) < acked {
			t.Errorf("round %d: child reported %d appends before SIGKILL, store has %d", round, acked, len(r.Measurements))
		}
		// What is there is a gapless prefix of what the child appended.
		for i, m := range r.Measurements {
			want := killMeasurement(i)
			if m.N != want.N || m.Coord != want.Coord || len(m.Values) != 2 || m.Values[0].Value != float64(i) ||
				len(m.Config) != 2 || m.Config[1] != want.Config[1] {
				t.Errorf("round %d: measurement %d = %+v, want %+v", round, i, m, want)
				break
			}
		}
		t.Logf("round %d: killed after %d acknowledged appends; %d stored", round, acked, len(r.Measurements))
		s.Close()
	}
}

// runChildAndKill starts the child, SIGKILLs it once it has reported k
// returned Appends, and returns how many it had reported.
func runChildAndKill(t *testing.T, path, runID string, k int) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "STORE_CHILD=1", "STORE_PATH="+path, "STORE_RUN="+runID)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := 0
	sc := bufio.NewScanner(out)
	for acked < k && sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "error:") {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child: %s", line)
		}
		if n, ok := strings.CutPrefix(line, "appended "); ok {
			i, err := strconv.Atoi(n)
			if err != nil || i != acked {
				t.Fatalf("child printed %q, want appended %d", line, acked)
			}
			acked++
		}
	}
	// While the child lives, its run reads as running.
	if got := runStatus(t, path, runID); got != StatusRunning {
		t.Errorf("run %s of a live process has status %q, want %q", runID, got, StatusRunning)
	}
	// Kill while the child is appending; lines it prints from now on are
	// not counted, so the check below is conservative.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	// Until Wait collects it, the killed child is a zombie, and gone.
	if waitZombie(cmd.Process.Pid) {
		if got := runStatus(t, path, runID); got != StatusInterrupted {
			t.Errorf("run %s of a killed process not yet waited for has status %q, want %q", runID, got, StatusInterrupted)
		}
	}
	cmd.Wait()
	if acked < k {
		t.Fatalf("child exited after %d appends, before the kill at %d", acked, k)
	}
	return acked
}

// runStatus returns the status Runs reports for run id of the store at path.
func runStatus(t *testing.T, path, id string) string {
	t.Helper()
	s, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	infos, err := s.Runs()
	if err != nil {
		t.Fatal(err)
	}
	for _, ri := range infos {
		if ri.ID == id {
			return ri.Status
		}
	}
	t.Fatalf("no run %s in %s", id, path)
	return ""
}

// waitZombie waits until process pid, which has been killed but not
// waited for, is a zombie, and reports whether /proc showed it as one.
func waitZombie(pid int) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return false // no /proc
		}
		if i := strings.LastIndexByte(string(b), ')'); i >= 0 && strings.HasPrefix(string(b[i:]), ") Z") {
			return true
		}
	}
	return false
}
