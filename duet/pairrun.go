package duet

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/internal/probe"
	"github.com/mbench/mbench/internal/proc"
	"github.com/mbench/mbench/run"
	"golang.org/x/sys/unix"
)

// duetRun is a duet run in progress.
type duetRun struct {
	spec   *PairSpec
	ctx    context.Context // no pair is delivered once it is done
	onPair func(Pair) bool
	sides  [2]*sideProc
	events chan sideEvent
	// runs are the synchronised runs reported, by side and sequence
	// number, until their result arrives.
	runs [2]map[int]*probe.Run
	// pending holds iterations with a result on one side only.
	pending   map[int]*[2]*Iteration
	delivered int
	skew      skewAcc
	stopped   bool // onPair returned false
	killed    bool
	problem   error
	// problemSide is the side d.problem is about, "" for both.
	problemSide string
	// turn is the side whose turn started last (PairSpec.Turns), -1
	// before any.
	turn int
}

// sideProc is one side's process.
type sideProc struct {
	cmd     *exec.Cmd
	out     *outputTail
	start   time.Time
	hello   bool
	exited  bool
	eof     bool
	waitErr error
	stop    *probe.Stop
	failed  string // the first "--- FAIL" line
	fails   []*probe.Fail
	skipped map[string]bool
	stats   SideStats
}

// sideEvent is something one side did: a report line, the end of its
// reports, a failure printed, or its exit.
type sideEvent struct {
	side    int
	ev      probe.Event
	err     error // a report that did not parse
	eof     bool
	fail    string // a "--- FAIL" line
	exited  bool
	waitErr error
}

// start starts both processes, connected by a socket pair.
func (d *duetRun) start() error {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("duet: socket pair: %v", err)
	}
	peers := [2]*os.File{os.NewFile(uintptr(fds[0]), "duet-peer-old"), os.NewFile(uintptr(fds[1]), "duet-peer-new")}
	defer peers[0].Close()
	defer peers[1].Close()
	for i, side := range []*Side{&d.spec.Old, &d.spec.New} {
		d.runs[i] = make(map[int]*probe.Run)
		rr, rw, err := os.Pipe()
		if err != nil {
			d.killAll()
			return fmt.Errorf("duet: %v", err)
		}
		s := &sideProc{out: &outputTail{max: outputLines}, skipped: make(map[string]bool)}
		fs := d.spec.forkSpec(*side)
		cmd := proc.Command(context.Background(), side.Binary.Path, fs.Args()...)
		cmd.Dir = side.Binary.Dir
		cmd.Env = append(append(os.Environ(), side.Env...), probe.Env(3, 4, d.spec.mode(), i))
		cmd.ExtraFiles = []*os.File{peers[i], rw}
		cmd.Stdout, cmd.Stderr = s.out, s.out
		s.cmd = cmd
		s.out.onFail = func(line string) { d.events <- sideEvent{side: i, fail: line} }
		err = run.StartPinned(cmd, d.spec.cpus(*side))
		rw.Close()
		if err != nil {
			rr.Close()
			d.killAll()
			return &PairError{Spec: d.spec, Side: sideNames[i], Err: err}
		}
		s.start = time.Now()
		s.stats.PID = cmd.Process.Pid
		d.sides[i] = s
		go d.readReports(i, rr)
		go func() {
			err := cmd.Wait()
			d.events <- sideEvent{side: i, exited: true, waitErr: err}
		}()
	}
	return nil
}

// readReports turns side i's report lines into events.
func (d *duetRun) readReports(i int, r io.ReadCloser) {
	defer r.Close()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		ev, err := probe.Parse(sc.Text())
		d.events <- sideEvent{side: i, ev: ev, err: err}
	}
	d.events <- sideEvent{side: i, eof: true}
}

// killAll kills the process groups of the sides started.
func (d *duetRun) killAll() {
	for _, s := range d.sides {
		if s != nil && s.cmd.Process != nil && !s.exited {
			syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		}
	}
}

// loop handles events until both sides are done, and returns the error of
// the run.
func (d *duetRun) loop(ctx context.Context) error {
	killed := false
	kill := func() {
		if !killed {
			killed = true
			d.killAll()
		}
	}
	var grace <-chan time.Time
	for !d.sides[0].done() || !d.sides[1].done() {
		select {
		case <-ctx.Done():
			kill()
			ctx = context.Background() // keep draining
		case <-grace:
			kill()
		case e := <-d.events:
			d.handle(e)
			switch {
			case d.stopped, e.exited && e.waitErr != nil:
				// The caller has what it wanted, or a side ended
				// badly: the other cannot go on alone.
				kill()
			case d.problem != nil && grace == nil:
				// A side that failed or gave up usually ends by
				// itself, printing why; the other follows when
				// it finds its peer gone.
				grace = time.After(problemGrace)
			}
		}
	}
	d.killed = killed
	if d.stopped {
		return nil
	}
	if err := d.diagnose(); err != nil || killed {
		return err
	}
	for seq, its := range d.pending {
		for i, it := range its {
			if it == nil {
				continue
			}
			name, other := "Benchmark"+it.Key.Name, sideNames[1-i]
			if d.sides[1-i].skipped[name] {
				return d.errorf(other, "%s was skipped on %s only", name, other)
			}
			return d.errorf(sideNames[i], "%s (synchronised run %d) has a result on %s only", name, seq, sideNames[i])
		}
	}
	if d.delivered == 0 {
		return d.errorf("", "no paired iteration: the pattern matched no benchmark, or every one was skipped")
	}
	return nil
}

// problemGrace is how long a duet run with a problem waits for its
// processes to end by themselves before killing them.
const problemGrace = 2 * time.Second

func (s *sideProc) done() bool { return s.exited && s.eof }

// handle records one event, delivering a pair when it completes one.
func (d *duetRun) handle(e sideEvent) {
	s := d.sides[e.side]
	switch {
	case e.exited:
		s.exited, s.waitErr = true, e.waitErr
		s.stats.WallTime = time.Since(s.start)
		if ps := s.cmd.ProcessState; ps != nil {
			s.stats.CPUTime = ps.UserTime() + ps.SystemTime()
		}
		return
	case e.eof:
		s.eof = true
		return
	case e.fail != "":
		if s.failed == "" {
			s.failed = e.fail
		}
		d.fail(sideNames[e.side], errors.New(e.fail))
		return
	case e.err != nil:
		d.fail(sideNames[e.side], e.err)
		return
	}
	switch ev := e.ev.(type) {
	case *probe.Hello:
		s.hello = true
		s.stats.CPUs, s.stats.GoVersion = ev.CPUs, ev.GoVersion
	case *probe.Turn:
		d.turn = e.side
	case *probe.Run:
		d.runs[e.side][ev.Seq] = ev
	case *probe.Result:
		d.result(e.side, ev)
	case *probe.Fail:
		s.fails = append(s.fails, ev)
		if ev.Reason == "skipped" {
			s.skipped[ev.Name] = true
			return
		}
		d.fail(sideNames[e.side], fmt.Errorf("%s %s", ev.Name, ev.Reason))
	case *probe.Stop:
		s.stop = ev
		d.fail(sideNames[e.side], fmt.Errorf("probe: %s", ev.Msg))
	}
}

// fail records the first problem, and the side it is about ("" for
// both); diagnose explains how the run ended once both sides have.
func (d *duetRun) fail(side string, err error) {
	if d.problem == nil {
		d.problem, d.problemSide = err, side
	}
}

// result pairs a result with its run and delivers the pair when both
// sides have reported it.
func (d *duetRun) result(side int, res *probe.Result) {
	r, ok := d.runs[side][res.Seq]
	if res.Seq == 0 || !ok || r.Name != res.Name {
		d.fail(sideNames[side], fmt.Errorf("result of %s without a synchronised run (is N fixed?)", res.Name))
		return
	}
	for seq := range d.runs[side] {
		if seq <= res.Seq {
			delete(d.runs[side], seq)
		}
	}
	other := 1 - side
	if d.sides[other].skipped[res.Name] {
		d.fail(sideNames[other], fmt.Errorf("%s was skipped on %s only", res.Name, sideNames[other]))
		return
	}
	procs := res.Procs
	if procs == 1 {
		procs = 0
	}
	it := &Iteration{
		Key: bench.Key{Package: d.sideSpec(side).Binary.Package, Name: strings.TrimPrefix(res.Name, "Benchmark"), Procs: procs},
		N:   res.N, Duration: res.T, MemAllocs: res.MemAllocs, MemBytes: res.MemBytes, Bytes: res.Bytes, Extra: res.Extra,
		Start: r.Start, End: r.End, Wait: r.Wait, CPU: r.CPU, StartCPU: r.StartCPU, EndCPU: r.EndCPU, GCs: r.GCs,
		Fill: FillStats{Kind: r.FillKind, Chunks: r.FillChunks, Ops: r.FillOps, Time: r.FillTime},
	}
	p := d.pending[res.Seq]
	if p == nil {
		p = new([2]*Iteration)
		d.pending[res.Seq] = p
	}
	p[side] = it
	if p[other] == nil {
		return
	}
	delete(d.pending, res.Seq)
	if d.stopped || d.problem != nil || d.ctx.Err() != nil {
		return
	}
	pair := Pair{Index: d.delivered, Old: *p[0], New: *p[1]}
	d.delivered++
	d.skew.add(pair)
	if !d.onPair(pair) {
		d.stopped = true
	}
}

func (d *duetRun) sideSpec(i int) *Side {
	if i == 1 {
		return &d.spec.New
	}
	return &d.spec.Old
}

// diagnose returns the error that best explains how the run ended, or nil
// if it ended well: a benchmark that failed, two sides at different
// benchmarks, a crash, a side that ended early, in that order.
func (d *duetRun) diagnose() error {
	for i, s := range d.sides {
		for _, f := range s.fails {
			if f.Reason == "failed" {
				return d.errorf(sideNames[i], "%s failed", f.Name)
			}
		}
		if s.failed != "" {
			return d.errorf(sideNames[i], "%s", strings.TrimPrefix(s.failed, "--- "))
		}
	}
	for i, s := range d.sides {
		if s.waitErr == nil || s.stop != nil || d.stoppedByUs(s) {
			continue
		}
		for _, f := range s.fails {
			if f.Reason == "aborted" {
				return d.errorf(sideNames[i], "%s did not return (a panic?): %v", f.Name, s.waitErr)
			}
		}
		return d.errorf(sideNames[i], "%v", s.waitErr)
	}
	for i, s := range d.sides {
		if !s.hello && !d.stoppedByUs(s) {
			return d.errorf(sideNames[i], "the test binary did not report through the probe: build it with run.BuildProbed")
		}
	}
	for i, s := range d.sides {
		if s.stop != nil && s.stop.Kind == "mismatch" {
			return d.mismatch(i, s.stop.Msg)
		}
	}
	if d.problem != nil {
		return d.errorf(d.problemSide, "%v", d.problem)
	}
	for i, s := range d.sides {
		if s.stop == nil {
			continue
		}
		if s.stop.Kind == "peer" {
			other := sideNames[1-i]
			return d.errorf("", "%s ended while %s waited at synchronised run %d: the versions do not have the same benchmarks, or one failed or was skipped on %s only",
				other, sideNames[i], s.stop.Seq, other)
		}
		return d.errorf(sideNames[i], "probe: %s", s.stop.Msg)
	}
	return nil
}

// stoppedByUs reports whether s ended because RunPair killed it.
func (d *duetRun) stoppedByUs(s *sideProc) bool {
	if !d.killed {
		return false
	}
	var ee *exec.ExitError
	if !errors.As(s.waitErr, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// mismatch explains a mismatch reported by side i: its barrier line and
// the peer's, "R seq procs N name".
func (d *duetRun) mismatch(i int, msg string) error {
	mine, theirs, _ := strings.Cut(msg, "\t")
	lines := [2]string{mine, theirs}
	if i == 1 {
		lines[0], lines[1] = lines[1], lines[0]
	}
	var at [2]string
	for j, line := range lines {
		at[j] = describeBarrier(line)
		// The other side skipped the benchmark this one reached.
		if f := strings.Fields(line); len(f) == 5 && d.sides[1-j].skipped[f[4]] {
			return d.errorf(sideNames[1-j], "%s was skipped on %s only", f[4], sideNames[1-j])
		}
	}
	return d.errorf("", "the versions do not run the same benchmarks: old reached %s where new reached %s (a benchmark missing, failing or skipped on one side, or a different N)", at[0], at[1])
}

// describeBarrier renders a barrier line for people.
func describeBarrier(line string) string {
	f := strings.Fields(line)
	if len(f) != 5 || f[0] != "R" {
		return strconv.Quote(line)
	}
	return fmt.Sprintf("%s (N=%s, GOMAXPROCS %s)", f[4], f[3], f[2])
}

// errorf returns a *PairError with the output of both sides.
func (d *duetRun) errorf(side, format string, args ...any) error {
	return &PairError{Spec: d.spec, Side: side, Err: fmt.Errorf(format, args...),
		OldOutput: d.sides[0].out.String(), NewOutput: d.sides[1].out.String()}
}

// outputTail keeps the last max lines written to it and reports each
// "--- FAIL" line.
type outputTail struct {
	mu     sync.Mutex
	max    int
	lines  []string
	part   []byte
	onFail func(line string)
}

func (t *outputTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	var fails []string
	for _, c := range p {
		if c != '\n' {
			t.part = append(t.part, c)
			continue
		}
		line := string(t.part)
		t.part = t.part[:0]
		if strings.HasPrefix(strings.TrimSpace(line), "--- FAIL") {
			fails = append(fails, strings.TrimSpace(line))
		}
		t.lines = append(t.lines, line)
		if len(t.lines) > t.max {
			t.lines = t.lines[len(t.lines)-t.max:]
		}
	}
	t.mu.Unlock()
	for _, f := range fails {
		if t.onFail != nil {
			t.onFail(f)
		}
	}
	return len(p), nil
}

func (t *outputTail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.Join(t.lines, "\n")
	if len(t.part) > 0 {
		s += "\n" + string(t.part)
	}
	return s
}
