package store

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
)

// The tests here run TestStoreChild in child processes (the test binary
// itself, with STORE_ROLE set), so that the store is shared between
// processes as between two mbench commands. A child reports on stdout, one
// line per event; STORE_BUSY_MS shortens its busy timeout, so that the
// waits the tests provoke come quickly, and with STORE_REPORT_BUSY=1 it
// reports the first wait for the write lock as "busy".

// TestStoreChild is a child's side; it does nothing in an ordinary test run.
func TestStoreChild(t *testing.T) {
	role := os.Getenv("STORE_ROLE")
	if role == "" {
		t.Skip("helper process for the tests of several processes")
	}
	fail := func(err error) {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	if ms, err := strconv.Atoi(os.Getenv("STORE_BUSY_MS")); err == nil {
		busyTimeout = time.Duration(ms) * time.Millisecond
	}
	if os.Getenv("STORE_REPORT_BUSY") == "1" {
		var once sync.Once
		busyHook = func() { once.Do(func() { fmt.Println("busy") }) }
	}
	path := os.Getenv("STORE_PATH")
	switch role {
	case "append-on-go":
		// Create a run, then append to it when told to on stdin.
		s, err := Open(path)
		if err != nil {
			fail(err)
		}
		id, err := s.CreateRun(&bench.Run{Label: "waiter"})
		if err != nil {
			fail(err)
		}
		fmt.Println("ready", id)
		if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
			fail(err)
		}
		if err := s.Append(id, childMeasurement(0)); err != nil {
			fail(err)
		}
		if err := s.Finish(id, time.Now(), StatusComplete); err != nil {
			fail(err)
		}
		fmt.Println("appended")
	case "writer":
		s, err := Open(path)
		if err != nil {
			fail(err)
		}
		n, _ := strconv.Atoi(os.Getenv("STORE_N"))
		id, err := s.CreateRun(&bench.Run{Label: os.Getenv("STORE_LABEL")})
		if err != nil {
			fail(err)
		}
		for i := range n {
			if err := s.Append(id, childMeasurement(i)); err != nil {
				fail(err)
			}
			if i%20 == 0 {
				if err := s.SetSettings(id, map[string]string{"progress": strconv.Itoa(i)}); err != nil {
					fail(err)
				}
			}
		}
		if err := s.Finish(id, time.Now(), StatusComplete); err != nil {
			fail(err)
		}
		fmt.Println("wrote", n)
	case "reader":
		s, err := OpenReadOnly(path)
		if err != nil {
			fail(err)
		}
		infos, err := s.Runs()
		if err != nil {
			fail(err)
		}
		for _, ri := range infos {
			r, err := s.Load(ri.ID)
			if err != nil {
				fail(err)
			}
			fmt.Println("read", ri.ID, len(r.Measurements))
		}
	default:
		fail(fmt.Errorf("unknown role %q", role))
	}
	os.Exit(0)
}

// childMeasurement is the i-th measurement a child appends. Keys and
// configurations repeat, so that concurrent writers look up and create the
// same rows.
func childMeasurement(i int) bench.Measurement {
	return bench.Measurement{
		Key:    bench.Key{Package: "example.com/m", Name: fmt.Sprintf("B%d", i%7)},
		Coord:  bench.Coord{Iteration: i},
		N:      1 + i,
		Values: []bench.Value{{Value: float64(i), Unit: "sec/op"}},
		Config: config("k", strconv.Itoa(i%5)),
	}
}

// A child is a running TestStoreChild.
type child struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines *bufio.Scanner
}

func startChild(t *testing.T, role, path string, env ...string) *child {
	t.Helper()
	if os.Getenv("STORE_ROLE") != "" || os.Getenv("STORE_CHILD") != "" {
		t.Skip("in a child")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestStoreChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), append(env, "STORE_ROLE="+role, "STORE_PATH="+path)...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{t: t, cmd: cmd, stdin: stdin, lines: bufio.NewScanner(out)}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return c
}

// expect reads the child's next line, which must begin with prefix, and
// returns it.
func (c *child) expect(prefix string) string {
	c.t.Helper()
	for c.lines.Scan() {
		line := c.lines.Text()
		if strings.HasPrefix(line, prefix) {
			return line
		}
		if strings.HasPrefix(line, "error:") || line == "busy" {
			c.t.Fatalf("child %s: %s, want %q", c.cmd.Env[len(c.cmd.Env)-2], line, prefix)
		}
	}
	c.t.Fatalf("child %s ended without printing %q", c.cmd.Env[len(c.cmd.Env)-2], prefix)
	return ""
}

// wait waits for the child to exit and fails the test unless it exits 0.
func (c *child) wait() {
	c.t.Helper()
	for c.lines.Scan() {
		if line := c.lines.Text(); strings.HasPrefix(line, "error:") || line == "busy" {
			c.t.Errorf("child: %s", line)
		}
	}
	if err := c.cmd.Wait(); err != nil {
		c.t.Errorf("child: %v", err)
	}
}

// TestWriterWaitsForLock holds the write lock of a store for longer than
// another process's busy timeout: that process's Append must wait for the
// lock instead of failing with SQLITE_BUSY, and succeed once the lock is
// free.
func TestWriterWaitsForLock(t *testing.T) {
	_, path := openTemp(t)
	c := startChild(t, "append-on-go", path, "STORE_BUSY_MS=5", "STORE_REPORT_BUSY=1")
	id := strings.TrimPrefix(c.expect("ready "), "ready ")

	release := holdWriteLock(t, path)
	fmt.Fprintln(c.stdin, "go")
	// The child has waited its busy timeout once and goes on waiting.
	if line := c.expect(""); line != "busy" {
		release()
		t.Fatalf("child printed %q, want busy", line)
	}
	release()
	c.expect("appended")
	c.wait()

	s, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := s.Load(id)
	if err != nil || len(r.Measurements) != 1 {
		t.Fatalf("after the wait: %v, %v", r, err)
	}
}

// TestReaderWhileLocked reads a store in another process while this one
// holds the write lock for good: the reader neither waits nor fails.
func TestReaderWhileLocked(t *testing.T) {
	w, path := openTemp(t)
	id, err := w.CreateRun(&bench.Run{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(id, childMeasurement(0), childMeasurement(1)); err != nil {
		t.Fatal(err)
	}
	release := holdWriteLock(t, path)
	defer release()
	c := startChild(t, "reader", path, "STORE_BUSY_MS=5", "STORE_REPORT_BUSY=1")
	if got, want := c.expect("read "), fmt.Sprintf("read %s 2", id); got != want {
		t.Errorf("reader printed %q, want %q", got, want)
	}
	c.wait()
}

// TestWriterProcesses has two processes write runs into one store at once,
// with a busy timeout short enough that they often wait for each other
// (in SQLite; in PostgreSQL they take turns at the write lock), while this
// one reads it.
func TestWriterProcesses(t *testing.T) { eachBackend(t, testWriterProcesses) }

func testWriterProcesses(t *testing.T, open opener) {
	_, path := open(t)
	const n = 100
	var children []*child
	for _, label := range []string{"a", "b"} {
		children = append(children, startChild(t, "writer", path, "STORE_BUSY_MS=1",
			"STORE_N="+strconv.Itoa(n), "STORE_LABEL="+label))
	}
	s, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// The children's output is read here; only this goroutine may fail
	// the test.
	done := make(chan []string)
	go func() {
		var out []string
		for _, c := range children {
			for c.lines.Scan() {
				out = append(out, c.lines.Text())
			}
			if err := c.cmd.Wait(); err != nil {
				out = append(out, "error: "+err.Error())
			}
		}
		done <- out
	}()
	reads := 0
	var out []string
	for running := true; running; reads++ {
		select {
		case out = <-done:
			running = false
		default:
		}
		infos, err := s.Runs()
		if err != nil {
			t.Fatalf("Runs while two processes write: %v", err)
		}
		for _, ri := range infos {
			if _, err := s.Load(ri.ID); err != nil {
				t.Fatalf("Load while two processes write: %v", err)
			}
		}
	}
	wrote := 0
	for _, line := range out {
		if strings.HasPrefix(line, "error:") {
			t.Errorf("writer: %s", line)
		}
		if line == fmt.Sprintf("wrote %d", n) {
			wrote++
		}
	}
	if wrote != len(children) {
		t.Errorf("%d writers reported writing their %d measurements, want %d:\n%s", wrote, n, len(children), strings.Join(out, "\n"))
	}
	infos, err := s.Runs()
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 2 {
		t.Fatalf("%d runs, want 2", len(infos))
	}
	for _, ri := range infos {
		if ri.Measurements != n || ri.Status != StatusComplete {
			t.Errorf("run %s: %d measurements, status %s; want %d, complete", ri.Label, ri.Measurements, ri.Status, n)
		}
	}
	t.Logf("%d reads during the writes", reads)
}
