package ab

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/internal/gitrev"
)

// withOld returns DefaultOptions against the old revision rev.
func withOld(rev string) *Options {
	o := DefaultOptions
	o.OldRev = rev
	return &o
}

// noneGiven is Options.Parallel's given when every setting is left at
// its default.
func noneGiven(string) bool { return false }

// TestOptionsCheck: options that cannot run are refused.
func TestOptionsCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*Options)
		want string // "" for none
	}{
		{"revision", func(o *Options) { o.OldRev = "HEAD" }, ""},
		{"binaries", func(o *Options) { o.OldBin, o.NewBin = "a.test", "b.test" }, ""},
		{"no old version", func(o *Options) {}, "give the old version once"},
		{"two old versions", func(o *Options) { o.OldRev, o.OldBin, o.NewBin = "HEAD", "a.test", "b.test" }, "give the old version once"},
		{"one binary", func(o *Options) { o.OldBin = "a.test" }, "go together"},
		{"iteration time", func(o *Options) { o.OldRev, o.Iter = "HEAD", 0 }, "Iter 0s"},
		{"iterations", func(o *Options) { o.OldRev, o.Iterations = "HEAD", 0 }, "Iterations 0"},
		{"one round", func(o *Options) { o.OldRev, o.MinRounds = "HEAD", 1 }, "MinRounds"},
		{"rounds reversed", func(o *Options) { o.OldRev, o.MaxRounds, o.MinRounds = "HEAD", 5, 6 }, "MinRounds"},
		{"budget", func(o *Options) { o.OldRev, o.Budget = "HEAD", -time.Second }, "Budget -1s"},
		{"timeout", func(o *Options) { o.OldRev, o.Timeout = "HEAD", 0 }, "Timeout 0s"},
	} {
		o := DefaultOptions
		tc.set(&o)
		err := o.Check()
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestOptionsParallel: the parallel mode takes the versions always, the
// shared settings when given, and the defaults of the parallel mode for
// the rest; settings of the interleaved mode only are refused.
func TestOptionsParallel(t *testing.T) {
	o := withOld("HEAD~1")
	o.NewRev, o.OldLabel, o.Bench, o.Verbose = "HEAD", "a", "X", true
	o.Iterations, o.Compare.Alpha, o.Iter = 7, 0.2, time.Hour
	given := func(field string) bool { return field == "Iterations" || field == "Compare.Alpha" }
	c, opts, err := o.Parallel(given)
	if err != nil {
		t.Fatal(err)
	}
	if c.OldRev != "HEAD~1" || c.NewRev != "HEAD" || c.OldLabel != "a" || c.Bench != "X" || !c.Verbose {
		t.Errorf("versions and selection not carried over: %+v", c)
	}
	if c.Iters != 7 || opts.Alpha != 0.2 {
		t.Errorf("given settings: %d iterations, alpha %v; want 7 and 0.2", c.Iters, opts.Alpha)
	}
	if d := DefaultParallelConfig; c.Iter != d.Iter || c.Runs != d.Runs || c.Warmup != d.Warmup || !c.Benchmem {
		t.Errorf("settings not given: iter %v, %d runs, %d warm-up, benchmem %v; want the parallel defaults and ab's benchmem", c.Iter, c.Runs, c.Warmup, c.Benchmem)
	}
	if err := c.Check(); err != nil {
		t.Errorf("the parallel configuration does not check: %v", err)
	}
	for _, field := range []string{"MinRounds", "Budget", "Resume"} {
		_, _, err := withOld("HEAD").Parallel(func(f string) bool { return f == field })
		var me *ModeError
		if !errors.As(err, &me) || me.Field != field {
			t.Errorf("%s given to the parallel mode: %v, want a ModeError naming it", field, err)
		}
	}
}

// TestOptionsInstance: the instance names the machine in both modes.
func TestOptionsInstance(t *testing.T) {
	o := withOld("HEAD")
	o.Config.Instance = "ci-large"
	c, _, err := o.Parallel(noneGiven)
	if err != nil {
		t.Fatal(err)
	}
	if c.Instance != "ci-large" {
		t.Errorf("parallel instance %q, want ci-large", c.Instance)
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
