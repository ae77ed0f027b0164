package run

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/internal/proc"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/sys/unix"
)

// A ForkSpec says what one process of a test binary runs.
type ForkSpec struct {
	Binary Binary
	// Pattern is the -test.bench regular expression.
	Pattern string
	// Procs is the -test.cpu value; 0 leaves GOMAXPROCS alone.
	Procs int
	// BenchTime is the -test.benchtime value: a duration for calibration,
	// "Nx" for fixed-work iterations.
	BenchTime string
	// Count is the -test.count value: the most iterations the fork may run.
	Count    int
	Benchmem bool
	// CPUs pins the process to these CPUs; nil leaves it unpinned.
	CPUs []int
	// Timeout ends the fork when it runs longer; 0 means no limit.
	Timeout time.Duration
	// Env is added to the process's environment.
	Env []string
	// CPUProfile and MemProfile, if not "", are the files the test binary
	// writes its CPU and heap profiles to (-test.cpuprofile,
	// -test.memprofile) when it ends; MemProfileRate is
	// -test.memprofilerate (0: the runtime's default). A fork that writes
	// a profile must run to its end: RunFork stops it early only when
	// onResult says so.
	CPUProfile, MemProfile string
	MemProfileRate         int
	// CPUTime, if not nil, receives the CPU time, user and system, the
	// process used, once it has ended.
	CPUTime *time.Duration
}

// Args returns the test binary's command line for s.
func (s *ForkSpec) Args() []string {
	args := []string{"-test.run=^$", "-test.bench=" + s.Pattern, "-test.benchtime=" + s.BenchTime,
		"-test.count=" + strconv.Itoa(max(s.Count, 1)), "-test.timeout=0"}
	if s.Procs > 0 {
		args = append(args, "-test.cpu="+strconv.Itoa(s.Procs))
	}
	if s.Benchmem {
		args = append(args, "-test.benchmem")
	}
	if s.CPUProfile != "" {
		args = append(args, "-test.cpuprofile="+s.CPUProfile)
	}
	if s.MemProfile != "" {
		args = append(args, "-test.memprofile="+s.MemProfile)
		if s.MemProfileRate > 0 {
			args = append(args, "-test.memprofilerate="+strconv.Itoa(s.MemProfileRate))
		}
	}
	return args
}

// A ForkError reports a fork that failed: it crashed, a benchmark failed or
// was skipped, or it timed out. Output holds the end of what it printed.
type ForkError struct {
	Spec   *ForkSpec
	Err    error
	Output string
}

func (e *ForkError) Error() string {
	return fmt.Sprintf("%s -test.bench=%s: %v", e.Spec.Binary.Path, e.Spec.Pattern, e.Err)
}

func (e *ForkError) Unwrap() error { return e.Err }

// tailLines is how much of a failed fork's output a ForkError keeps.
const tailLines = 40

// RunFork runs one fork and calls onResult with each result line, as a
// measurement without coordinates, as soon as the process prints it. When
// onResult returns false the process is killed and RunFork returns nil: the
// caller has what it wanted. A process that fails, or ends without printing
// a result, returns a *ForkError.
func RunFork(ctx context.Context, spec ForkSpec, onResult func(m *bench.Measurement) bool) error {
	if spec.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, spec.Timeout)
		defer cancel()
	}
	cmd := proc.Command(ctx, spec.Binary.Path, spec.Args()...)
	cmd.Dir = spec.Binary.Dir
	if len(spec.Env) > 0 {
		cmd.Env = append(os.Environ(), spec.Env...)
	}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := StartPinned(cmd, spec.CPUs); err != nil {
		return &ForkError{Spec: &spec, Err: err}
	}
	var waitErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		waitErr = cmd.Wait()
		if spec.CPUTime != nil && cmd.ProcessState != nil {
			*spec.CPUTime = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
		// A process the benchmark started must not outlive the fork.
		proc.Kill(cmd)
		pw.Close()
	})

	tail := &tailWriter{max: tailLines}
	stopped, results, failures, scanErr := scanResults(io.TeeReader(pr, tail), spec.Binary.Path, spec.Binary.Package,
		func(m *bench.Measurement) bool {
			if onResult(m) {
				return true
			}
			proc.Kill(cmd)
			return false
		})
	io.Copy(io.Discard, pr)
	wg.Wait()

	switch {
	case stopped:
		return nil
	case ctx.Err() == context.DeadlineExceeded:
		return &ForkError{Spec: &spec, Err: fmt.Errorf("timed out after %v", spec.Timeout), Output: tail.String()}
	case ctx.Err() != nil:
		return ctx.Err()
	case waitErr != nil:
		return &ForkError{Spec: &spec, Err: waitErr, Output: tail.String()}
	case scanErr != nil:
		// The results after the error are lost: fail the fork, naming
		// what it ran, rather than report fewer than it printed.
		return &ForkError{Spec: &spec, Err: fmt.Errorf("reading the output: %v", scanErr), Output: tail.String()}
	case results == 0:
		msg := "printed no result"
		if strings.Contains(tail.String(), "--- SKIP") {
			msg = "skipped"
		}
		return &ForkError{Spec: &spec, Err: errors.New(msg), Output: tail.String()}
	case len(failures) > 0:
		return &ForkError{Spec: &spec, Err: errors.New(failures[0]), Output: tail.String()}
	}
	return nil
}

// scanResults reads a test binary's output from r and calls onResult with
// each result line as a measurement without coordinates, timed from the
// previous line's arrival to its own. It stops at the end of r, at an error
// reading r (returned in err), or when onResult returns false (stopped).
// Lines that look like results but do not parse are returned in bad; other
// output is ignored, however long its lines. pkg fills in the package of
// results printed without a "pkg:" line.
func scanResults(r io.Reader, name, pkg string, onResult func(m *bench.Measurement) bool) (stopped bool, results int, bad []string, err error) {
	lines := &lineLimiter{r: bufio.NewReaderSize(r, maxLine)}
	reader := benchfmt.NewReader(lines, name)
	prev := time.Now()
	var config []bench.Config
	for reader.Scan() {
		switch rec := reader.Result().(type) {
		case *benchfmt.SyntaxError:
			bad = append(bad, rec.Error())
		case *benchfmt.Result:
			now := time.Now()
			m, err := bench.FromBenchfmt(rec, config)
			if err != nil {
				bad = append(bad, err.Error())
				continue
			}
			config = m.Config
			if m.Key.Package == "" {
				m.Key.Package = pkg
			}
			m.Start, m.End = prev, now
			prev = now
			results++
			if !onResult(&m) {
				return true, results, bad, nil
			}
		}
	}
	for _, c := range lines.cut {
		bad = append(bad, fmt.Sprintf("%s: a result line longer than %d bytes: %.60s...", name, maxLine, c))
	}
	return false, results, bad, reader.Err()
}

// maxLine is the longest line of a test binary's output that scanResults
// reads whole. A result line is far shorter; a benchmark's own output (a
// b.Log of a large value) may be far longer, and would make the benchfmt
// reader, whose lines are limited to bufio.MaxScanTokenSize, give up on the
// rest of the output: every later result would be lost.
const maxLine = 16 << 10

// lineLimiter passes r through with every line cut to at most maxLine
// bytes, so that no line of any length stops the benchfmt reader.
type lineLimiter struct {
	r    *bufio.Reader // of size maxLine
	rest []byte        // of the current line, not yet read
	skip bool          // dropping the rest of a line too long
	cut  []string      // starts of the result lines cut
}

func (l *lineLimiter) Read(p []byte) (int, error) {
	for len(l.rest) == 0 {
		line, err := l.r.ReadSlice('\n')
		switch {
		case l.skip && len(line) > 0 && line[len(line)-1] == '\n':
			l.skip, l.rest = false, []byte{'\n'}
		case l.skip:
			// Still in the long line's tail.
		case err == bufio.ErrBufferFull:
			// The line's first maxLine bytes, then the tail dropped.
			l.skip, l.rest = true, line
			if bytes.HasPrefix(line, []byte("Benchmark")) {
				l.cut = append(l.cut, string(line[:64]))
			}
		default:
			l.rest = line
		}
		if err != nil && err != bufio.ErrBufferFull && len(l.rest) == 0 {
			return 0, err
		}
	}
	n := copy(p, l.rest)
	l.rest = l.rest[n:]
	return n, nil
}

// StartPinned starts cmd with its CPU affinity set to cpus. A child
// inherits the affinity of the thread that forks it, so the thread is
// locked, pinned, used to start the child, and restored.
func StartPinned(cmd *exec.Cmd, cpus []int) error {
	if len(cpus) == 0 {
		return cmd.Start()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var old, set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return fmt.Errorf("reading CPU affinity: %v", err)
	}
	for _, c := range cpus {
		set.Set(c)
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("pinning to CPUs %v: %v", cpus, err)
	}
	err := cmd.Start()
	if rerr := unix.SchedSetaffinity(0, &old); rerr != nil && err == nil {
		err = fmt.Errorf("restoring CPU affinity: %v", rerr)
	}
	return err
}

// tailLineLen is how much of each line a tailWriter keeps.
const tailLineLen = 1 << 10

// tailWriter keeps the last max lines written to it, each cut to
// tailLineLen bytes.
type tailWriter struct {
	max   int
	lines []string
	part  strings.Builder
}

func (t *tailWriter) Write(p []byte) (int, error) {
	for _, c := range string(p) {
		if c == '\n' {
			t.lines = append(t.lines, t.part.String())
			t.part.Reset()
			if len(t.lines) > t.max {
				t.lines = t.lines[len(t.lines)-t.max:]
			}
			continue
		}
		if t.part.Len() < tailLineLen {
			t.part.WriteRune(c)
		}
	}
	return len(p), nil
}

func (t *tailWriter) String() string {
	s := strings.Join(t.lines, "\n")
	if t.part.Len() > 0 {
		s += "\n" + t.part.String()
	}
	return s
}
