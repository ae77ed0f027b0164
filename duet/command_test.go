package duet

import (
	"context"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestRunCommandsWallTimeAndFiller runs a duet of two sleeps. What it
// checks holds however busy the machine is, which may delay either side
// by a second: each side's wall time is at least its sleep, and the
// faster side fills the time of the slower one.
func TestRunCommandsWallTimeAndFiller(t *testing.T) {
	if testing.Short() {
		t.Skip("sleeps for seconds")
	}
	if runtime.NumCPU() < 2 {
		t.Skip("a duet needs two CPUs")
	}
	spec := CommandSpec{
		Old: []string{"sleep", "0.2"}, New: []string{"sleep", "0.6"},
		CPUs: [2]int{0, 1}, Iterations: 3, Filler: true, Timeout: 10 * time.Second,
	}
	var pairs []CommandPair
	err := RunCommands(context.Background(), spec, func(p CommandPair) bool {
		pairs = append(pairs, p)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 3 {
		t.Fatalf("%d pairs, want 3", len(pairs))
	}
	fillers := 0
	for _, p := range pairs {
		t.Logf("iteration %d: old %.3fs new %.3fs skew %v fillers %d", p.Iteration, p.Old, p.New, p.Skew, p.Fillers)
		if p.Old < 0.2 || p.New < 0.6 {
			t.Errorf("iteration %d: old %.3fs, new %.3fs; want at least their sleeps, 0.2s and 0.6s", p.Iteration, p.Old, p.New)
		}
		fillers += p.Fillers
	}
	// The fast side restarts while the slow one runs: about two filler
	// runs of 200 ms in the remaining 400 ms of each iteration, unless a
	// loaded machine delays it by as much.
	if fillers < 1 {
		t.Error("no filler run while the slower command ran")
	}
}

// TestRunCommandsPinned reads each command's CPU affinity back from
// /proc/self/status through the metric.
func TestRunCommandsPinned(t *testing.T) {
	cpus := [2]int{0, 1}
	spec := CommandSpec{
		Old: []string{"grep", "Cpus_allowed_list", "/proc/self/status"}, New: []string{"grep", "Cpus_allowed_list", "/proc/self/status"},
		Metric: regexp.MustCompile(`Cpus_allowed_list:\s*(\d+)\s*$`), CPUs: cpus, Iterations: 1,
	}
	err := RunCommands(context.Background(), spec, func(p CommandPair) bool {
		if p.Old != float64(cpus[0]) || p.New != float64(cpus[1]) {
			t.Errorf("commands ran on CPUs %v and %v, want %v", p.Old, p.New, cpus)
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestRunCommandsErrors(t *testing.T) {
	ctx := context.Background()
	spec := CommandSpec{Old: []string{"true"}, New: []string{"sh", "-c", "echo boom; exit 3"}, Iterations: 2}
	err := RunCommands(ctx, spec, func(CommandPair) bool { return true })
	if err == nil || !strings.Contains(err.Error(), "new command") || !strings.Contains(err.Error(), "boom") {
		t.Errorf("failing command: error %v, want one naming the new command with its output", err)
	}
	spec = CommandSpec{Old: []string{"echo", "x"}, New: []string{"echo", "y"}, Metric: regexp.MustCompile(`score (\d+)`), Iterations: 1}
	err = RunCommands(ctx, spec, func(CommandPair) bool { return true })
	if err == nil || !strings.Contains(err.Error(), "no match") {
		t.Errorf("missing metric: error %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	spec = CommandSpec{Old: []string{"sleep", "5"}, New: []string{"sleep", "5"}, Iterations: 1}
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	err = RunCommands(cctx, spec, func(CommandPair) bool { return true })
	if err == nil || time.Since(start) > 3*time.Second {
		t.Errorf("cancel: error %v after %v, want an error at once", err, time.Since(start))
	}
}
