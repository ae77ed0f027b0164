package probe

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// EnvVar is the environment variable that turns the probe on in a test
// binary built with it.
const EnvVar = "MBENCH_PROBE"

// A Mode says what a side does while the other side's timed run goes on.
type Mode int

const (
	// Fill keeps the side's CPU busy: the duet filler (Bulej et al.
	// 2020, section 4.4). Both sides time their runs at the same moment.
	Fill Mode = iota
	// Idle lets the side that finishes first sleep until the other
	// finishes, as the paper's original procedure does.
	Idle
	// Turns lets the sides time their runs one after the other, never at
	// the same moment: the other side sleeps meanwhile. The side that
	// goes first alternates from one synchronised run to the next.
	Turns
)

// Env returns the EnvVar setting for a child process that inherits, as
// file descriptor peer, a stream socket connected to the other side and,
// as report, the write end of a pipe to the parent (with os/exec, the
// ExtraFiles at index i become descriptor 3+i). side, 0 or 1, tells the
// two sides apart in Turns mode: side 0 goes first at the first run.
func Env(peer, report int, mode Mode, side int) string {
	s := fmt.Sprintf("%s=%d,%d", EnvVar, peer, report)
	switch mode {
	case Idle:
		s += ",idle"
	case Turns:
		s += fmt.Sprintf(",turn%d", side&1)
	}
	return s
}

// An Event is one line a probed process reports to its parent: a *Hello,
// *Turn, *Run, *Result, *Fail or *Stop.
type Event interface{ event() }

// Hello is the first event: the process started with the probe on.
type Hello struct {
	PID int
	// CPUs are the CPUs the process may run on (sched_getaffinity), nil
	// when the kernel did not say.
	CPUs      []int
	GoVersion string
}

// Turn says that, in Turns mode, the side's timed run Seq starts now:
// the other side has finished its own or waits for this one.
type Turn struct {
	Seq int
}

// Run is one synchronised timed run, reported after the filler: Seq
// counts synchronised runs from 1, equal on both sides for the same
// barrier.
type Run struct {
	Seq   int
	Procs int // GOMAXPROCS
	// BenchN is the N of -test.benchtime=Nx; N is b.N after the run.
	BenchN int
	Name   string // the full name, "BenchmarkX/sub"
	N      int
	// Start is when the timer started, right after the barrier released
	// this side (for b.Loop benchmarks: when the first b.Loop call reset
	// it); End is right after the timer stopped. Both are wall-clock
	// times, comparable between processes.
	Start, End time.Time
	// Duration is the timed duration, b.duration.
	Duration time.Duration
	// MemAllocs and MemBytes are the allocations during the timed run,
	// as -test.benchmem counts them.
	MemAllocs, MemBytes uint64
	// Wait is how long this side waited at the barrier for the other.
	Wait time.Duration
	// FillKind is how this side kept its CPU busy until the other side's
	// run ended: "none" (the other ended first), "body" (the benchmark
	// function rerun, FillOps operations in FillChunks calls), "spin", or
	// "idle" (no filler: it slept), or "turn" (Turns: it slept while the
	// other side's run was timed). FillTime runs from End until this
	// side saw the other's end, so End plus FillTime is when it stopped
	// filling; it is zero for "none".
	FillKind            string
	FillChunks, FillOps int
	FillTime            time.Duration
	// CPU is the CPU time of the whole process (every thread) between the
	// timer's start and stop. Unlike Duration it does not grow while
	// other processes have this side's CPU; it does grow with work of
	// the runtime (garbage collection) on other threads.
	CPU time.Duration
	// StartCPU and EndCPU are the CPUs the benchmark's goroutine ran on
	// when the timer started and when it stopped, -1 when unknown.
	StartCPU, EndCPU int
	// GCs is the number of garbage collection cycles that completed
	// during the timed run, -1 when unknown.
	GCs int
}

// Result is a result line printed: the benchmark's BenchmarkResult. Seq is
// the synchronised run it reports, 0 if none (the run was not
// synchronised: -test.benchtime was not Nx).
type Result struct {
	Seq, Procs int
	Name       string
	N          int
	T          time.Duration
	// Bytes is the SetBytes value: bytes processed per operation.
	Bytes               int64
	MemAllocs, MemBytes uint64
	// Extra holds the ReportMetric values.
	Extra map[string]float64
}

// Fail is a run whose benchmark function did not return: Reason is
// "failed" (FailNow), "skipped" (SkipNow) or "aborted" (a panic, or
// runtime.Goexit). Seq is 0 when the run was not synchronised.
type Fail struct {
	Seq, Procs, BenchN int
	Name, Reason       string
}

// Stop is the last event of a process that gave up: Kind "mismatch" (the
// other side was at another benchmark), "peer" (the other side ended or
// its socket failed) or "error" (the protocol was broken). Seq is the
// last synchronised run.
type Stop struct {
	Kind string
	Seq  int
	Msg  string
}

func (*Hello) event()  {}
func (*Turn) event()   {}
func (*Run) event()    {}
func (*Result) event() {}
func (*Fail) event()   {}
func (*Stop) event()   {}

// Parse parses one line of a probed process's report.
func Parse(line string) (Event, error) {
	kind, rest, _ := strings.Cut(line, " ")
	switch kind {
	case "mismatch", "peer", "error":
		seq, msg, _ := strings.Cut(rest, " ")
		n, err := strconv.Atoi(seq)
		if err != nil {
			return nil, fmt.Errorf("probe report %q: bad sequence number", line)
		}
		return &Stop{Kind: kind, Seq: n, Msg: msg}, nil
	}
	f := strings.Fields(rest)
	p := fieldParser{line: line, f: f}
	switch kind {
	case "hello":
		if len(f) != 3 {
			break
		}
		e := &Hello{PID: p.int(0), GoVersion: f[2]}
		if f[1] != "?" {
			for _, c := range strings.Split(f[1], ",") {
				n, err := strconv.Atoi(c)
				if err != nil || n < 0 {
					p.err = fmt.Errorf("probe report %q: bad CPU list", line)
					break
				}
				e.CPUs = append(e.CPUs, n)
			}
		}
		return p.done(e)
	case "turn":
		if len(f) != 1 {
			break
		}
		return p.done(&Turn{Seq: p.int(0)})
	case "iter":
		// A binary built by an earlier mbench reports fewer fields:
		// 16 before the CPUs, 18 before the collections.
		if len(f) != 16 && len(f) != 18 && len(f) != 19 {
			break
		}
		e := &Run{Seq: p.int(0), Procs: p.int(1), BenchN: p.int(2), Name: f[3], N: p.int(4),
			Start: time.Unix(0, p.int64(5)), End: time.Unix(0, p.int64(6)), Duration: time.Duration(p.int64(7)),
			MemAllocs: p.uint(8), MemBytes: p.uint(9), Wait: time.Duration(p.int64(10)),
			FillKind: f[11], FillChunks: p.int(12), FillOps: p.int(13), FillTime: time.Duration(p.int64(14)),
			CPU: time.Duration(p.int64(15)), StartCPU: -1, EndCPU: -1, GCs: -1}
		if len(f) >= 18 {
			e.StartCPU, e.EndCPU = p.int(16), p.int(17)
		}
		if len(f) >= 19 {
			e.GCs = p.int(18)
		}
		return p.done(e)
	case "result":
		if len(f) < 8 {
			break
		}
		e := &Result{Seq: p.int(0), Procs: p.int(1), Name: f[2], N: p.int(3), T: time.Duration(p.int64(4)),
			Bytes: p.int64(5), MemAllocs: p.uint(6), MemBytes: p.uint(7)}
		for _, kv := range f[8:] {
			i := strings.LastIndexByte(kv, '=')
			if i <= 0 {
				return nil, fmt.Errorf("probe report %q: bad metric %q", line, kv)
			}
			v, err := strconv.ParseFloat(kv[i+1:], 64)
			if err != nil {
				return nil, fmt.Errorf("probe report %q: bad metric %q", line, kv)
			}
			if e.Extra == nil {
				e.Extra = make(map[string]float64)
			}
			e.Extra[kv[:i]] = v
		}
		return p.done(e)
	case "fail":
		if len(f) != 5 {
			break
		}
		return p.done(&Fail{Seq: p.int(0), Procs: p.int(1), BenchN: p.int(2), Name: f[3], Reason: f[4]})
	default:
		return nil, fmt.Errorf("probe report %q: unknown event", line)
	}
	return nil, fmt.Errorf("probe report %q: wrong number of fields", line)
}

// fieldParser parses numeric fields, keeping the first error.
type fieldParser struct {
	line string
	f    []string
	err  error
}

// done returns e, or the first error instead.
func (p *fieldParser) done(e Event) (Event, error) {
	if p.err != nil {
		return nil, p.err
	}
	return e, nil
}

func (p *fieldParser) int64(i int) int64 {
	n, err := strconv.ParseInt(p.f[i], 10, 64)
	if err != nil && p.err == nil {
		p.err = fmt.Errorf("probe report %q: field %d: %v", p.line, i+2, err)
	}
	return n
}

func (p *fieldParser) int(i int) int { return int(p.int64(i)) }

func (p *fieldParser) uint(i int) uint64 {
	n, err := strconv.ParseUint(p.f[i], 10, 64)
	if err != nil && p.err == nil {
		p.err = fmt.Errorf("probe report %q: field %d: %v", p.line, i+2, err)
	}
	return n
}
