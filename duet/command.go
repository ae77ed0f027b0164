package duet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mbench/mbench/internal/proc"
	"github.com/mbench/mbench/run"
)

// A CommandSpec is a duet of two whole programs, as Bulej et al. 2020 measures
// SPEC CPU and ScalaBench workloads: one run of each command is one
// iteration.
type CommandSpec struct {
	// Old and New are the two command lines (program and arguments).
	Old, New []string
	// Dir is the directory both run in; "" is the current one.
	Dir string
	// Metric, when not nil, takes an iteration's value from the
	// command's output (stdout and stderr): the first submatch of the
	// last match, a number. Nil measures the wall time, in seconds.
	Metric *regexp.Regexp
	// CPUs pins Old to CPUs[0] and New to CPUs[1].
	CPUs [2]int
	// Iterations is the number of paired iterations.
	Iterations int
	// Timeout ends a command that runs longer; 0 means no limit.
	Timeout time.Duration
	// Filler restarts the command that finished first, discarding its
	// results, until the other finishes (Bulej et al. 2020 §4.4), so that both
	// CPUs stay busy for the whole of every iteration.
	Filler bool
}

// A CommandPair is one paired iteration of two commands.
type CommandPair struct {
	Iteration int
	// Old and New are the values: seconds of wall time, or the metric.
	Old, New float64
	// Skew is the difference between the two start times.
	Skew time.Duration
	// Fillers counts the filler runs started while the slower command
	// finished.
	Fillers int
}

// RunCommands runs spec.Iterations paired iterations and calls onPair with
// each as soon as both commands of it have finished; returning false stops
// the duet. A command that fails is an error with the end of its output.
// A cancelled ctx kills both commands and returns ctx's error; the pairs
// delivered so far are the caller's.
func RunCommands(ctx context.Context, spec CommandSpec, onPair func(CommandPair) bool) error {
	if len(spec.Old) == 0 || len(spec.New) == 0 {
		return errors.New("duet of commands: both commands must be given")
	}
	for i := range spec.Iterations {
		p, err := commandIteration(ctx, &spec, i)
		if err != nil {
			return err
		}
		if !onPair(p) {
			return nil
		}
	}
	return nil
}

// commandResult is one command run.
type commandResult struct {
	start   time.Time
	value   float64
	fillers int
	err     error
}

func commandIteration(ctx context.Context, spec *CommandSpec, iter int) (CommandPair, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	argvs := [2][]string{spec.Old, spec.New}
	names := [2]string{"old", "new"}
	var results [2]commandResult
	var wg sync.WaitGroup
	release := make(chan struct{})
	// done[s] is closed when side s's measured run has finished; the
	// other side's filler stops then.
	done := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	for s := range 2 {
		wg.Go(func() {
			<-release
			results[s] = runCommand(ctx, spec, argvs[s], spec.CPUs[s])
			close(done[s])
			if results[s].err != nil {
				cancel()
				return
			}
			if spec.Filler {
				results[s].fillers = fill(ctx, spec, argvs[s], spec.CPUs[s], done[1-s])
			}
		})
	}
	close(release)
	wg.Wait()
	for s := range 2 {
		if err := results[s].err; err != nil {
			if ctx.Err() != nil && errors.Is(err, context.Canceled) {
				continue // the other side failed; report that
			}
			return CommandPair{}, fmt.Errorf("iteration %d, %s command %s: %w", iter+1, names[s], strings.Join(argvs[s], " "), err)
		}
	}
	if err := ctx.Err(); err != nil {
		return CommandPair{}, err
	}
	skew := results[0].start.Sub(results[1].start)
	return CommandPair{Iteration: iter, Old: results[0].value, New: results[1].value, Skew: skew.Abs(),
		Fillers: results[0].fillers + results[1].fillers}, nil
}

// fill reruns argv until stop is closed, killing the last run then, and
// returns how many runs it started.
func fill(ctx context.Context, spec *CommandSpec, argv []string, cpu int, stop <-chan struct{}) int {
	n := 0
	for {
		select {
		case <-stop:
			return n
		default:
		}
		fctx, cancel := context.WithCancel(ctx)
		go func() {
			select {
			case <-stop:
			case <-fctx.Done():
			}
			cancel()
		}()
		n++
		runCommand(fctx, spec, argv, cpu)
		cancel()
		if ctx.Err() != nil {
			return n
		}
	}
}

// runCommand runs argv once, pinned to cpu, and measures it.
func runCommand(ctx context.Context, spec *CommandSpec, argv []string, cpu int) commandResult {
	if spec.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, spec.Timeout)
		defer cancel()
	}
	cmd := proc.Command(ctx, argv[0], argv[1:]...)
	cmd.Dir = spec.Dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	res := commandResult{start: time.Now()}
	if err := run.StartPinned(cmd, []int{cpu}); err != nil {
		res.err = err
		return res
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var err error
	select {
	case err = <-waited:
	case <-ctx.Done():
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-waited
		res.err = ctx.Err()
		return res
	}
	wall := time.Since(res.start)
	if err != nil {
		res.err = fmt.Errorf("%v\n%s", err, tail(out.String(), 20))
		return res
	}
	if spec.Metric == nil {
		res.value = wall.Seconds()
		return res
	}
	res.value, res.err = metricValue(spec.Metric, out.String())
	return res
}

// metricValue is the number the last match of re's first submatch in a
// command's output holds; it must be finite.
func metricValue(re *regexp.Regexp, out string) (float64, error) {
	ms := re.FindAllStringSubmatch(out, -1)
	if len(ms) == 0 || len(ms[len(ms)-1]) < 2 {
		return 0, fmt.Errorf("output has no match of -metric %q (with a submatch)\n%s", re, tail(out, 20))
	}
	s := ms[len(ms)-1][1]
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("-metric %q matched %q, not a finite number", re, s)
	}
	return v, nil
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
