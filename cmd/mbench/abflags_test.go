package main

import (
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/mbench/mbench/ab"
	"github.com/mbench/mbench/compare"
)

// parseAB returns ab.DefaultOptions with args parsed by ab's flags.
func parseAB(t *testing.T, args ...string) (*ab.Options, *flag.FlagSet) {
	t.Helper()
	o := ab.DefaultOptions
	fs := flag.NewFlagSet("ab", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	abFlags(fs, &o)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return &o, fs
}

// TestABParallelFlags: ab -parallel takes the shared flags when given and
// the parallel mode's defaults otherwise, and refuses the interleaved
// mode's own flags, naming them.
func TestABParallelFlags(t *testing.T) {
	o, fs := parseAB(t, "-old", "HEAD~1", "-new", "HEAD", "-mi", "7", "-alpha", "0.2", "-instance", "ci-large")
	c, opts, err := abParallel(fs, o)
	if err != nil {
		t.Fatal(err)
	}
	if c.OldRev != "HEAD~1" || c.Iters != 7 || opts.Alpha != 0.2 || c.Instance != "ci-large" {
		t.Errorf("flags not carried over: %s, %d iterations, alpha %v, instance %q", c.OldRev, c.Iters, opts.Alpha, c.Instance)
	}
	if d := ab.DefaultParallelConfig; c.Iter != d.Iter || c.Runs != d.Runs || opts.Threshold != compare.DefaultOptions.Threshold {
		t.Errorf("flags not given: iter %v, %d runs, threshold %v; want the parallel defaults", c.Iter, c.Runs, opts.Threshold)
	}
	for name, value := range map[string]string{"min-rounds": "3", "budget": "1m", "resume": "x"} {
		o, fs := parseAB(t, "-old", "HEAD", "-"+name, value)
		if _, _, err := abParallel(fs, o); err == nil || !strings.Contains(err.Error(), "-"+name+" ") {
			t.Errorf("-%s with -parallel: %v, want an error naming it", name, err)
		}
	}
}

// TestDuetFlags: -cpus and -metric-re are parsed after the flags.
func TestDuetFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-cpus", "1,0"}, ""},
		{[]string{"-cpus", "0"}, "-cpus"},
		{[]string{"-cpus", "1,1"}, "-cpus"},
		{[]string{"-metric-re", "("}, "-metric-re"},
	} {
		c, opts := ab.DefaultParallelConfig, ab.DefaultOptions.Compare
		fs := flag.NewFlagSet("duet", flag.ContinueOnError)
		parsed := duetFlags(fs, &c, &opts)
		if err := fs.Parse(append([]string{"-seed", "9", "-instance", "laptop"}, tc.args...)); err != nil {
			t.Fatal(err)
		}
		err := parsed()
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.args, err, tc.want)
		}
		if err == nil && (c.CPUs != [2]int{1, 0} || c.Seed != 9 || c.Instance != "laptop") {
			t.Errorf("%q: CPUs %v, seed %d, instance %q; want [1 0], 9, laptop", tc.args, c.CPUs, c.Seed, c.Instance)
		}
	}
}

// TestProfileFlag: -profile alone, =all, =changed and =false.
func TestProfileFlag(t *testing.T) {
	var f profileFlag
	for _, c := range []struct{ in, want string }{{"true", ab.ProfileChanged}, {"all", ab.ProfileAll}, {"changed", ab.ProfileChanged}, {"false", ab.ProfileNone}} {
		if err := f.Set(c.in); err != nil || string(f) != c.want {
			t.Errorf("-profile=%s: %q, %v; want %q", c.in, f, err, c.want)
		}
	}
	if err := f.Set("some"); err == nil {
		t.Error("-profile=some accepted")
	}
}
