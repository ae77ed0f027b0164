package run

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/mbench/mbench/bench"
)

// A Target is one benchmark at one GOMAXPROCS in one test binary: the unit
// that is calibrated, forked, stopped and reported.
type Target struct {
	Binary *Binary
	Key    bench.Key
	// Pattern selects exactly this benchmark: each `/`-separated level of
	// its name, quoted and anchored, as -test.bench matches level by level.
	Pattern string
	// Procs is the -test.cpu value that gives Key.Procs; 0 when the
	// GOMAXPROCS is not set explicitly.
	Procs int
	// CPUs pins the target's processes to these CPUs (nil: unpinned). It
	// is part of the target because pinning changes what the benchmark
	// reports: a process pinned to one CPU runs with GOMAXPROCS 1, and
	// its names lose their -N suffix.
	CPUs []int
	// Version labels the version of the code in Binary when a run measures
	// several versions side by side (several labelled test binaries): it
	// becomes the Coord.Version of every measurement of the target, which
	// keeps them apart from those of the same benchmark in other versions.
	// It is "" when the run measures one version. Discover leaves it "".
	Version string
}

// Anchored returns a -test.bench pattern that matches the benchmark name
// (without the "Benchmark" prefix) and nothing else.
func Anchored(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	parts[0] = "^Benchmark" + parts[0][1:]
	return strings.Join(parts, "/")
}

// Discover lists the benchmarks of bin that match the -test.bench pattern
// re, including sub-benchmarks, by running each once (-test.benchtime=1x).
// cpus is the -test.cpu list; each benchmark becomes one target per value.
// pin is the CPU set every process of the targets is pinned to, nil for
// none.
func Discover(ctx context.Context, bin *Binary, re string, cpus, pin []int, timeout time.Duration) ([]Target, error) {
	if re == "" {
		re = "."
	}
	if _, err := regexp.Compile(re); err != nil {
		// The testing package compiles each level separately; check the
		// levels so that the error names the pattern, not a test binary.
		for _, level := range strings.Split(re, "/") {
			if _, err := regexp.Compile(level); err != nil {
				return nil, fmt.Errorf("-bench %q: %v", re, err)
			}
		}
	}
	var targets []Target
	seen := make(map[bench.Key]bool)
	procsList := cpus
	if len(procsList) == 0 {
		procsList = []int{0}
	}
	for _, procs := range procsList {
		spec := ForkSpec{Binary: *bin, Pattern: re, Procs: procs, BenchTime: "1x", Count: 1, CPUs: pin, Timeout: timeout}
		err := RunFork(ctx, spec, func(m *bench.Measurement) bool {
			if !seen[m.Key] {
				seen[m.Key] = true
				targets = append(targets, Target{Binary: bin, Key: m.Key, Pattern: Anchored(m.Key.Name), Procs: procs, CPUs: pin})
			}
			return true
		})
		if fe, ok := err.(*ForkError); ok && fe.Err.Error() == "printed no result" {
			// A package without benchmarks, or none matching.
			continue
		}
		if fe, ok := err.(*ForkError); ok {
			return targets, discoveryError(fe)
		}
		if err != nil {
			return targets, err
		}
	}
	if bin.Package == "" && len(targets) > 0 {
		bin.Package = targets[0].Key.Package
	}
	return targets, nil
}

// discoveryError explains a test binary that failed while its benchmarks
// were listed (each run once, -test.benchtime=1x): it names the benchmarks
// that reported a failure and shows the end of the output.
func discoveryError(fe *ForkError) error {
	var failed []string
	for _, line := range strings.Split(fe.Output, "\n") {
		if name, ok := strings.CutPrefix(strings.TrimSpace(line), "--- FAIL: "); ok {
			failed = append(failed, name)
		}
	}
	what := "listing the benchmarks"
	if len(failed) > 0 {
		what = strings.Join(failed, ", ") + " failed when run once to list the benchmarks"
	}
	out := strings.TrimRight(fe.Output, "\n")
	if out == "" {
		return fmt.Errorf("%s: %w", what, fe)
	}
	return fmt.Errorf("%s: %w; its output ends:\n\t%s", what, fe, strings.ReplaceAll(out, "\n", "\n\t"))
}

// Calibrate finds the number of operations per iteration that makes one
// iteration of t last about iter: it runs the benchmark once with
// -test.benchtime=iter, letting the testing package ramp b.N up, and scales
// the resulting time per op. It returns the count and the calibration
// measurement. That result is the process's first, and can be its first op
// alone: the testing package starts the ramp from one call with b.N = 1
// and ends it there when that call lasted iter, as a cold first op of a
// few milliseconds does at short iterations (a parser whose first document
// took many times as long as every later one calibrated to one op).
// CalibrateWarm does not.
func Calibrate(ctx context.Context, t *Target, iter time.Duration, benchmem bool, timeout time.Duration) (int, *bench.Measurement, error) {
	return calibrate(ctx, t, iter, benchmem, timeout, 1)
}

// CalibrateWarm is Calibrate from the process's second result
// (-test.count=2), whose ramp starts from a warm op, as that of go test
// does after its first: the count fits the op's steady time, not its first.
func CalibrateWarm(ctx context.Context, t *Target, iter time.Duration, benchmem bool, timeout time.Duration) (int, *bench.Measurement, error) {
	return calibrate(ctx, t, iter, benchmem, timeout, 2)
}

// calibrate scales the count-th result of t in a process run at
// -test.benchtime=iter.
func calibrate(ctx context.Context, t *Target, iter time.Duration, benchmem bool, timeout time.Duration, count int) (int, *bench.Measurement, error) {
	spec := ForkSpec{Binary: *t.Binary, Pattern: t.Pattern, Procs: t.Procs, BenchTime: iter.String(), Count: count,
		Benchmem: benchmem, CPUs: t.CPUs, Timeout: timeout}
	var got *bench.Measurement
	seen := 0
	err := RunFork(ctx, spec, func(m *bench.Measurement) bool {
		if m.Key == t.Key {
			got = m
			seen++
			return seen < count
		}
		return true
	})
	if err != nil {
		return 0, nil, err
	}
	switch {
	case seen == 0:
		return 0, nil, fmt.Errorf("%s: calibration printed no result for the benchmark", t.Key)
	case seen < count:
		return 0, nil, fmt.Errorf("%s: calibration printed %d of %d results for the benchmark", t.Key, seen, count)
	}
	return scaleN(got, iter), got, nil
}

// scaleN returns the operation count that makes an iteration last iter,
// given a measurement m of the benchmark.
func scaleN(m *bench.Measurement, iter time.Duration) int {
	perOp, ok := m.Get("sec/op")
	if !ok || perOp <= 0 {
		// No time per op: keep what the testing package chose.
		return max(m.N, 1)
	}
	n := iter.Seconds() / perOp
	// Limit to what -test.benchtime=Nx accepts and a run can finish.
	return int(math.Max(1, math.Min(n, 1e9)))
}

// ParseCPUList parses a list such as "0-3,6" (for -cpuset) or "1,2,4" (for
// -cpu) into numbers, each below maxCPUs.
func ParseCPUList(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("%q is not a number or a range like 0-3", part)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("%q is not a range like 0-3", part)
			}
		}
		if b >= maxCPUs {
			// Checked before the range is listed: "0-99999999" must not
			// allocate a hundred million numbers.
			return nil, fmt.Errorf("%q: CPU numbers go up to %d", part, maxCPUs-1)
		}
		for i := a; i <= b; i++ {
			out = append(out, i)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty list")
	}
	return out, nil
}

// CheckPattern reports a -test.bench pattern the testing package would
// refuse, before anything is built: each of its levels, split at the
// slashes outside brackets and parentheses as the testing package splits
// them, must be a regular expression.
func CheckPattern(pattern string) error {
	for _, level := range splitPattern(pattern) {
		if _, err := regexp.Compile(level); err != nil {
			return fmt.Errorf("-bench %q: %v", pattern, err)
		}
	}
	return nil
}

// splitPattern splits a -test.bench pattern into its levels, as the
// testing package's splitRegexp does: at the slashes, and the bars, outside
// brackets and parentheses.
func splitPattern(s string) []string {
	var out []string
	brackets, parens, start := 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			brackets++
		case ']':
			brackets = max(brackets-1, 0) // an unmatched ']' is legal
		case '(':
			if brackets == 0 {
				parens++
			}
		case ')':
			if brackets == 0 {
				parens--
			}
		case '\\':
			i++
		case '/', '|':
			if brackets == 0 && parens == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
