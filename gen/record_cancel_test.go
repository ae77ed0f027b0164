package gen

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRecordCancel cancels Record while the package's tests run: Record
// returns the context's error and leaves no temporary file (its own, the
// go command's build directory, the tests' t.TempDir) and no process.
func TestRecordCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "m")
	ready := filepath.Join(root, "ready")
	write(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.24\n")
	write(t, filepath.Join(dir, "m.go"), `package m

func Twice(x int) int {
	y := 0
	//mbench:bench Twice
	y = 2 * x
	return y
}
`)
	write(t, filepath.Join(dir, "m_test.go"), `package m

import (
	"os"
	"strconv"
	"testing"
	"time"
)

func TestBlocks(t *testing.T) {
	Twice(3)
	os.WriteFile(t.TempDir()+"/x", []byte("x"), 0o666)
	os.WriteFile(os.Getenv("MBENCH_TEST_READY"), []byte(strconv.Itoa(os.Getpid())), 0o666)
	time.Sleep(time.Hour)
}
`)
	scratch := filepath.Join(root, "tmp")
	if err := os.Mkdir(scratch, 0o777); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", scratch)
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOTMPDIR=", "MBENCH_TEST_READY="+ready)
	segs, err := Find(context.Background(), FindOptions{Dir: dir, Env: env})
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- Record(ctx, segs, RecordOptions{Env: env}) }()
	var pid int
	for pid == 0 {
		select {
		case err := <-done:
			t.Fatalf("Record returned before the tests were cancelled: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
		data, _ := os.ReadFile(ready)
		pid, _ = strconv.Atoi(string(data))
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Record after cancel: %v, want context.Canceled", err)
	}
	if left, _ := os.ReadDir(scratch); len(left) > 0 {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("Record left %s in the temporary directory", strings.Join(names, ", "))
	}
	// The test binary was killed with its group; it may linger as a
	// zombie until it is reaped, but it must not run.
	if stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		if f := strings.Fields(string(stat)); len(f) > 2 && f[2] != "Z" && f[2] != "X" {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("the test binary (pid %d) still runs after Record returned: state %s", pid, f[2])
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "testdata")); err == nil {
		t.Errorf("Record wrote recorded sets after it was cancelled")
	}
}
