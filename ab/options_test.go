package ab

import (
	"flag"
	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/internal/gitrev"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mbench/mbench/compare"
)

// parse returns DefaultOptions with args parsed by their flags.
func parse(t *testing.T, args ...string) (*Options, *flag.FlagSet) {
	t.Helper()
	o := DefaultOptions
	fs := flag.NewFlagSet("ab", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o.Flags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return &o, fs
}

// TestOptionsCheck: options that cannot run are named by their flags.
func TestOptionsCheck(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // "" for none
	}{
		{[]string{"-old", "HEAD"}, ""},
		{[]string{"-old-bin", "a.test", "-new-bin", "b.test"}, ""},
		{nil, "give the old version once"},
		{[]string{"-old", "HEAD", "-old-bin", "a.test", "-new-bin", "b.test"}, "give the old version once"},
		{[]string{"-old-bin", "a.test"}, "go together"},
		{[]string{"-old", "HEAD", "-iter", "0"}, "-iter"},
		{[]string{"-old", "HEAD", "-mi", "0"}, "-mi"},
		{[]string{"-old", "HEAD", "-min-rounds", "1"}, "-min-rounds"},
		{[]string{"-old", "HEAD", "-max-rounds", "5", "-min-rounds", "6"}, "-min-rounds"},
		{[]string{"-old", "HEAD", "-budget", "-1s"}, "-budget"},
		{[]string{"-old", "HEAD", "-timeout", "0"}, "-timeout"},
	} {
		o, _ := parse(t, tc.args...)
		err := o.Check()
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.args, err, tc.want)
		}
	}
}

// TestOptionsParallel: the parallel mode takes the versions always, the
// shared options when given, and the defaults of the parallel mode for
// the rest; options of the interleaved mode only are refused.
func TestOptionsParallel(t *testing.T) {
	o, fs := parse(t, "-old", "HEAD~1", "-new", "HEAD", "-old-label", "a", "-bench", "X", "-mi", "7", "-alpha", "0.2", "-v")
	c, opts, err := o.Parallel(fs)
	if err != nil {
		t.Fatal(err)
	}
	if c.OldRev != "HEAD~1" || c.NewRev != "HEAD" || c.OldLabel != "a" || c.Bench != "X" || !c.Verbose {
		t.Errorf("versions and selection not carried over: %+v", c)
	}
	if c.Iters != 7 || opts.Alpha != 0.2 {
		t.Errorf("given options: %d iterations, alpha %v; want 7 and 0.2", c.Iters, opts.Alpha)
	}
	if d := DefaultParallelConfig; c.Iter != d.Iter || c.Runs != d.Runs || c.Warmup != d.Warmup || !c.Benchmem {
		t.Errorf("options not given: iter %v, %d runs, %d warm-up, benchmem %v; want the parallel defaults and ab's benchmem", c.Iter, c.Runs, c.Warmup, c.Benchmem)
	}
	if err := c.Check(); err != nil {
		t.Errorf("the parallel configuration does not check: %v", err)
	}
	for _, name := range []string{"min-rounds", "budget", "resume"} {
		value := map[string]string{"min-rounds": "3", "budget": "1m", "resume": "x"}[name]
		o, fs := parse(t, "-old", "HEAD", "-"+name, value)
		if _, _, err := o.Parallel(fs); err == nil || !strings.Contains(err.Error(), "-"+name) {
			t.Errorf("-%s with -parallel: %v, want an error naming it", name, err)
		}
	}
}

// TestParallelFlags: -cpus and -metric-re are parsed after the flags.
func TestParallelFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-cpus", "1,0"}, ""},
		{[]string{"-cpus", "0"}, "-cpus"},
		{[]string{"-cpus", "1,1"}, "-cpus"},
		{[]string{"-metric-re", "("}, "-metric-re"},
	} {
		c, opts := DefaultParallelConfig, DefaultOptions.Compare
		fs := flag.NewFlagSet("duet", flag.ContinueOnError)
		parsed := c.Flags(fs, &opts)
		if err := fs.Parse(append([]string{"-seed", "9"}, tc.args...)); err != nil {
			t.Fatal(err)
		}
		err := parsed()
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.args, err, tc.want)
		}
		if err == nil && (c.CPUs != [2]int{1, 0} || c.Seed != 9) {
			t.Errorf("%q: CPUs %v, seed %d; want [1 0] and 9", tc.args, c.CPUs, c.Seed)
		}
	}
}

// TestOptionsInstance: -instance names the machine in both modes of ab,
// and in duet.
func TestOptionsInstance(t *testing.T) {
	o, fs := parse(t, "-old", "HEAD", "-instance", "ci-large")
	if o.Config.Instance != "ci-large" {
		t.Errorf("interleaved instance %q, want ci-large", o.Config.Instance)
	}
	c, _, err := o.Parallel(fs)
	if err != nil {
		t.Fatal(err)
	}
	if c.Instance != "ci-large" {
		t.Errorf("parallel instance %q, want ci-large", c.Instance)
	}
	d := DefaultParallelConfig
	opts := compare.DefaultOptions
	dfs := flag.NewFlagSet("duet", flag.ContinueOnError)
	parsed := d.Flags(dfs, &opts)
	if err := dfs.Parse([]string{"-instance", "laptop"}); err != nil {
		t.Fatal(err)
	}
	if err := parsed(); err != nil || d.Instance != "laptop" {
		t.Errorf("duet instance %q (%v), want laptop", d.Instance, err)
	}
}

// TestRevisionWords checks how the build lines name a revision: by the
// name given and its commit, by the commit alone when the name is a
// prefix of it, and the working tree by its commit and state.
func TestRevisionWords(t *testing.T) {
	const commit = "3f2a1bc1234567890abcdef1234567890abcdef0"
	for _, c := range []struct {
		rev  string
		r    gitrev.Revision
		want string
	}{
		{"v1.2.0", gitrev.Revision{Commit: commit, Short: commit[:12]}, "v1.2.0, 3f2a1bc12345"},
		{"3f2a1bc", gitrev.Revision{Commit: commit, Short: commit[:12]}, "3f2a1bc12345"},
		{gitrev.WorkingTree, gitrev.Revision{Commit: commit, Short: commit[:12] + "-dirty", Dirty: true}, "working tree, 3f2a1bc12345-dirty"},
	} {
		if got := revisionWords(c.rev, c.r); got != c.want {
			t.Errorf("revisionWords(%q) = %q, want %q", c.rev, got, c.want)
		}
	}
}

func TestProgressString(t *testing.T) {
	key := bench.Key{Package: "example.com/m", Name: "Sort", Procs: 2}
	p := Progress{Round: 3, Benchmark: key, Index: 2, Active: 5, Decided: 1, Total: 7, Elapsed: 100 * time.Second}
	if got, want := p.String(), "round 3, benchmark 2 of 5: Sort-2; 1 of 7 decided"; got != want {
		t.Errorf("without a budget: %q, want %q", got, want)
	}
	p.Budget = 180*time.Second + 400*time.Millisecond
	if got, want := p.String(), "round 3, benchmark 2 of 5: Sort-2; 1 of 7 decided; at most 1m20s left by the budget"; got != want {
		t.Errorf("with a budget: %q, want %q", got, want)
	}
	p.Elapsed = 4 * time.Minute
	if got, want := p.String(), "round 3, benchmark 2 of 5: Sort-2; 1 of 7 decided; at most 0s left by the budget"; got != want {
		t.Errorf("past the budget: %q, want %q", got, want)
	}
}
