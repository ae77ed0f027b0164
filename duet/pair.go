// Package duet compares two versions of a benchmark by running them at the
// same time, each pinned to its own CPU, with every timed iteration of both
// started together (Bulej, Horký, Tůma, Farquet & Prokopec, "Duet
// benchmarking: improving measurement accuracy in the cloud", ICPE 2020):
// interference from the rest of the machine hits both versions at once and
// cancels in the ratio of each pair of iterations.
//
// [RunPair] executes one run: two processes of test binaries built with
// the testing-package probe (internal/probe), synchronised at a barrier before
// every timed iteration, the side that finishes first kept busy by its own
// benchmark until the other finishes (Bulej et al. 2020, section 4.4). Each paired
// iteration is handed to the caller as soon as both sides have reported
// it. [RunFree] is the fallback for binaries without the probe (result
// lines paired by index), and [RunCommands] runs two whole programs.
// The analysis of the pairs, a ratio with a confidence interval, is
// compare.AnalyzePairs.
package duet

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/internal/probe"
	"github.com/mbench/mbench/run"
)

// A Side is one version in a duet run.
type Side struct {
	// Binary is a test binary built with the probe (see Build).
	Binary run.Binary
	// CPU is the CPU the side's process is pinned to.
	CPU int
	// Env is added to the process's environment, e.g. GOGC=200 to
	// compare a runtime setting with one binary on both sides.
	Env []string
}

// A PairSpec says what one duet run executes: one process per side, with
// the same benchmarks and the same number of operations per iteration.
type PairSpec struct {
	Old, New Side
	// Pattern is the -test.bench regular expression, typically
	// run.Anchored(name) for one benchmark.
	Pattern string
	// N is the number of operations per iteration (-test.benchtime=Nx).
	N int
	// Count is the number of iterations per benchmark (-test.count).
	Count int
	// Procs is the -test.cpu value; 0 leaves GOMAXPROCS alone (1 in a
	// process pinned to one CPU).
	Procs    int
	Benchmem bool
	// NoFiller lets the side that finishes an iteration first sleep
	// until the other finishes, as the original duet procedure does,
	// instead of running its benchmark, untimed, to keep its CPU busy.
	NoFiller bool
	// Turns times the two sides one after the other instead of at the
	// same moment (probe.Turns): in each synchronised run one side's
	// timed run goes while the other sleeps, then the other's, the side
	// that goes first alternating from run to run. Both processes run on
	// the CPUs in CPUs (all of the process's when nil), at the GOMAXPROCS
	// Procs sets or the CPUs give, and Side.CPU is not used. Adjacent
	// turns see the same phase of the machine, so the pair's ratio cancels
	// what a slow CPU does to both, without the interference of running at
	// once.
	Turns bool
	CPUs  []int
	// Timeout ends the run when it takes longer; 0 means no limit.
	Timeout time.Duration
}

// forkSpec returns the run of side's test binary that spec asks for: N
// operations per iteration, Count iterations, no time limit of its own.
func (s *PairSpec) forkSpec(side Side) run.ForkSpec {
	return run.ForkSpec{
		Binary: side.Binary, Pattern: s.Pattern, Procs: s.Procs,
		BenchTime: fmt.Sprintf("%dx", s.N), Count: s.Count, Benchmem: s.Benchmem,
		CPUs: s.cpus(side), Timeout: s.Timeout, Env: side.Env,
	}
}

// cpus returns the CPUs side's process is pinned to, nil for none.
func (s *PairSpec) cpus(side Side) []int {
	if s.Turns {
		return s.CPUs
	}
	return []int{side.CPU}
}

// mode returns what a side does while the other's run is timed.
func (s *PairSpec) mode() probe.Mode {
	switch {
	case s.Turns:
		return probe.Turns
	case s.NoFiller:
		return probe.Idle
	}
	return probe.Fill
}

// An Iteration is one side's timed run in a pair.
type Iteration struct {
	// Key is the benchmark: Package from the side's Binary, Name as
	// bench.Key spells it, Procs 0 when GOMAXPROCS was 1.
	Key bench.Key
	// N is the number of operations; Duration is the timed duration,
	// both as the result line reports them.
	N        int
	Duration time.Duration
	// MemAllocs and MemBytes are the totals over the N operations, from
	// which -test.benchmem computes allocs/op and B/op (by integer
	// division by N). They are counted whether or not Benchmem is set.
	MemAllocs, MemBytes uint64
	// Bytes is the b.SetBytes value, Extra the b.ReportMetric values
	// (which may override the computed ns/op, B/op or allocs/op).
	Bytes int64
	Extra map[string]float64
	// Start is when the timer started, right after the barrier released
	// this side (for b.Loop benchmarks, when the first b.Loop call reset
	// it; a benchmark that calls b.ResetTimer after its setup begins
	// measuring later, by its setup time); End is right after it
	// stopped. Both are wall-clock times, comparable between the sides.
	Start, End time.Time
	// Wait is how long this side waited at the barrier for the other.
	Wait time.Duration
	// CPU is the CPU time of the side's process (all its threads)
	// during the timed run: what the iteration cost when the time other
	// processes took this side's CPU away is left out. Zero without the
	// probe.
	CPU time.Duration
	// StartCPU and EndCPU are the CPUs the benchmark's goroutine ran on
	// when the timer started and stopped; -1 when unknown or without
	// the probe.
	StartCPU, EndCPU int
	// GCs is the number of garbage collection cycles that completed
	// during the timed run; -1 when unknown or without the probe.
	GCs int
	// Fill is what this side did after its timed run until the other's
	// ended.
	Fill FillStats
}

// FillStats describes how a side kept its CPU busy after its timed run
// until the other side's run ended.
type FillStats struct {
	// Kind is "none" (the other side ended first), "body" (the benchmark
	// function run again, untimed, Ops operations in Chunks calls),
	// "spin" (polling: the benchmark has sub-benchmarks, or an operation
	// or its untimed setup is too long to stop promptly) or "idle" (no
	// filler: PairSpec.NoFiller) or "turn" (PairSpec.Turns: it slept
	// while the other side's run was timed).
	Kind        string
	Chunks, Ops int
	// Time runs from the end of this side's timed run (Iteration.End)
	// until it saw the other side's end; zero for "none".
	Time time.Duration
}

// A Pair is one paired iteration: the same benchmark, started together on
// both sides.
type Pair struct {
	// Index counts the pairs of a run from 0, over all its benchmarks.
	Index    int
	Old, New Iteration
}

// Skew returns the difference between the two sides' timer starts.
func (p Pair) Skew() time.Duration {
	d := p.Old.Start.Sub(p.New.Start)
	if d < 0 {
		d = -d
	}
	return d
}

// A Skew summarises the start skew of paired iterations.
type Skew struct {
	Pairs       int
	Median, Max time.Duration
	// MedianFraction and MaxFraction are the median and maximum of
	// each pair's skew divided by its iteration time, the mean of the
	// two sides' durations.
	MedianFraction, MaxFraction float64
}

// SkewOf summarises the start skew of pairs.
func SkewOf(pairs []Pair) Skew {
	var s skewAcc
	for _, p := range pairs {
		s.add(p)
	}
	return s.summary()
}

// skewAcc collects skews as pairs arrive.
type skewAcc struct {
	skews []time.Duration
	fracs []float64
}

func (s *skewAcc) add(p Pair) {
	k := p.Skew()
	s.skews = append(s.skews, k)
	if it := (p.Old.Duration + p.New.Duration) / 2; it > 0 {
		s.fracs = append(s.fracs, float64(k)/float64(it))
	}
}

func (s *skewAcc) summary() Skew {
	out := Skew{Pairs: len(s.skews)}
	if len(s.skews) > 0 {
		k := slices.Sorted(slices.Values(s.skews))
		out.Median = (k[(len(k)-1)/2] + k[len(k)/2]) / 2
		out.Max = k[len(k)-1]
	}
	if len(s.fracs) > 0 {
		f := slices.Sorted(slices.Values(s.fracs))
		out.MedianFraction = (f[(len(f)-1)/2] + f[len(f)/2]) / 2
		out.MaxFraction = f[len(f)-1]
	}
	return out
}

// SideStats describes one side's process.
type SideStats struct {
	PID int
	// CPUs are the CPUs the process could run on, as it read its own
	// affinity: the pinning in effect.
	CPUs      []int
	GoVersion string
	// CPUTime is the user and system time of the process; WallTime how
	// long it ran. A side kept busy by its filler has CPUTime close to
	// WallTime.
	CPUTime, WallTime time.Duration
}

// PairStats describes a duet run.
type PairStats struct {
	// Pairs is the number of pairs delivered.
	Pairs    int
	Skew     Skew
	Old, New SideStats
}

// A PairError reports a duet run that failed: a side crashed, a benchmark
// failed or was skipped on one side, the two sides reached different
// benchmarks, or the run timed out. OldOutput and NewOutput hold the end
// of what each side printed.
type PairError struct {
	Spec *PairSpec
	// Side is "old", "new", or "" when the problem is not one side's.
	Side                 string
	Err                  error
	OldOutput, NewOutput string
}

func (e *PairError) Error() string {
	where := "duet -test.bench=" + e.Spec.Pattern
	if e.Side != "" {
		where += ": " + e.Side + " (" + e.side().Binary.Path + ")"
	}
	return where + ": " + e.Err.Error()
}

func (e *PairError) Unwrap() error { return e.Err }

func (e *PairError) side() *Side {
	if e.Side == "new" {
		return &e.Spec.New
	}
	return &e.Spec.Old
}

// sideNames names the sides in messages.
var sideNames = [2]string{"old", "new"}

// outputLines is how much of each side's output a PairError keeps.
const outputLines = 40

// RunPair runs spec: both processes start, pinned, and every timed
// iteration of the selected benchmarks runs paired. onPair receives each
// pair as soon as both sides have reported it, so the caller can store it
// durably; returning false stops the run (both processes are killed) and
// RunPair returns nil. When ctx is cancelled both processes are killed and
// RunPair returns ctx's error; the pairs delivered are the caller's. Any
// other failure is a *PairError. PairStats describes what was delivered.
func RunPair(ctx context.Context, spec PairSpec, onPair func(Pair) bool) (PairStats, error) {
	switch {
	case spec.N < 1 || spec.Count < 1:
		return PairStats{}, fmt.Errorf("duet: N %d, Count %d: want at least one operation and one iteration", spec.N, spec.Count)
	case !spec.Turns && (spec.Old.CPU == spec.New.CPU || spec.Old.CPU < 0 || spec.New.CPU < 0):
		return PairStats{}, fmt.Errorf("duet: CPUs %d and %d: want two different CPUs", spec.Old.CPU, spec.New.CPU)
	case spec.Pattern == "":
		return PairStats{}, errors.New("duet: no -test.bench pattern")
	}
	runCtx := ctx
	if spec.Timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, spec.Timeout)
		defer cancel()
	}
	d := &duetRun{spec: &spec, ctx: runCtx, onPair: onPair, events: make(chan sideEvent, 64),
		pending: make(map[int]*[2]*Iteration), turn: -1}
	if err := d.start(); err != nil {
		return PairStats{}, err
	}
	defer d.killAll() // in case onPair panics
	err := d.loop(runCtx)
	stats := PairStats{Pairs: d.delivered, Skew: d.skew.summary()}
	for i, st := range []*SideStats{&stats.Old, &stats.New} {
		*st = d.sides[i].stats
	}
	switch {
	case ctx.Err() != nil:
		return stats, ctx.Err()
	case runCtx.Err() != nil && spec.Turns && d.turn >= 0:
		// Only one side runs at a time: the one whose turn it was.
		return stats, d.errorf(sideNames[d.turn], "timed out after %v in its turn", spec.Timeout)
	case runCtx.Err() != nil:
		return stats, d.errorf("", "timed out after %v", spec.Timeout)
	}
	return stats, err
}
