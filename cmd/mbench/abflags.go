package main

import (
	"errors"
	"flag"
	"fmt"
	"regexp"

	"github.com/mbench/mbench/ab"
	"github.com/mbench/mbench/compare"
)

// abFlags defines the flags of `mbench ab` that set o in fs, with o's
// values as their defaults. Where to store, how to report and -parallel
// are the caller's.
func abFlags(fs *flag.FlagSet, o *ab.Options) {
	c := &o.Config
	fs.StringVar(&o.OldRev, "old", o.OldRev, "old version: a git `revision`")
	fs.StringVar(&o.NewRev, "new", o.NewRev, "new version: a git `revision`; . is the working tree")
	fs.StringVar(&o.OldBin, "old-bin", o.OldBin, "old version: a prebuilt test `binary`")
	fs.StringVar(&o.NewBin, "new-bin", o.NewBin, "new version: a prebuilt test `binary`")
	fs.StringVar(&c.OldLabel, "old-label", c.OldLabel, "`label` of the old version (default: the revision)")
	fs.StringVar(&c.NewLabel, "new-label", c.NewLabel, "`label` of the new version (default: the revision)")
	fs.StringVar(&o.Resume, "resume", o.Resume, "go on with the interrupted session stored as `run` (give the same versions)")
	fs.Var((*profileFlag)(&o.Profile.Which), "profile", "after the verdicts, profile the changed benchmarks (-profile=all: every one) and name the functions that changed")
	sessionFlags(fs, o)
}

// sessionFlags defines the flags of `mbench ab` that say how a session
// runs and decides, without those that name its versions or resume it:
// the flags of mbench bisect, which runs sessions of versions it chooses.
func sessionFlags(fs *flag.FlagSet, o *ab.Options) {
	c := &o.Config
	fs.StringVar(&c.Bench, "bench", c.Bench, "run only benchmarks matching `regexp`")
	fs.StringVar(&c.Pairing, "pairing", c.Pairing, "how a round pairs the versions: `turns` (two processes at once, taking turns iteration by iteration) or processes (one of each, back to back)")
	fs.DurationVar(&c.Iter, "iter", c.Iter, "target `duration` of one iteration")
	fs.IntVar(&c.MinOps, "min-ops", c.MinOps, "fewest `operations` per iteration, however long one takes")
	fs.IntVar(&c.Iterations, "mi", c.Iterations, "measured `iterations` per process")
	fs.IntVar(&c.Warmup, "wi", c.Warmup, "discarded warm-up `iterations` per process")
	fs.IntVar(&c.MinRounds, "min-rounds", c.MinRounds, "first look: `rounds` before any verdict")
	fs.IntVar(&c.MaxRounds, "max-rounds", c.MaxRounds, "last look: most `rounds` per benchmark")
	fs.DurationVar(&c.Budget, "budget", c.Budget, "end the session when the next round would end after `duration` (0: -budget-per-benchmark applies)")
	fs.DurationVar(&c.BenchmarkBudget, "budget-per-benchmark", c.BenchmarkBudget, "without -budget, the session's limit is this `duration` times the number of benchmarks (0: no limit)")
	fs.DurationVar(&c.Timeout, "timeout", c.Timeout, "end a process that runs longer than `duration`")
	fs.BoolVar(&c.Benchmem, "benchmem", c.Benchmem, "also compare B/op and allocs/op")
	fs.StringVar(&o.Tags, "tags", o.Tags, "build `tags` for go test -c")
	fs.StringVar(&o.GCFlags, "gcflags", o.GCFlags, "`flags` for go test -c -gcflags")
	fs.Float64Var(&c.Compare.Alpha, "alpha", c.Compare.Alpha, "error `rate` of the whole sequential decision")
	fs.Float64Var(&c.Compare.Threshold, "threshold", c.Compare.Threshold, "smallest relative change that matters, as a `fraction`")
	fs.IntVar(&c.Compare.Replicates, "reps", c.Compare.Replicates, "bootstrap `replicates`")
	fs.Uint64Var(&c.Compare.Seed, "seed", c.Compare.Seed, "random `seed` of the order and the bootstrap")
	fs.BoolVar(&o.Verbose, "v", o.Verbose, "print each round as it starts")
	fs.StringVar(&c.Instance, "instance", c.Instance, "`name` of this machine in the stored runs (default: the host name)")
}

// profileFlags defines the flags of `mbench profile` that set o in fs.
func profileFlags(fs *flag.FlagSet, o *ab.Options) {
	c := &o.Config
	fs.StringVar(&o.OldRev, "old", o.OldRev, "old version: a git `revision`")
	fs.StringVar(&o.NewRev, "new", o.NewRev, "new version: a git `revision`; . is the working tree")
	fs.StringVar(&o.OldBin, "old-bin", o.OldBin, "old version: a prebuilt test `binary`")
	fs.StringVar(&o.NewBin, "new-bin", o.NewBin, "new version: a prebuilt test `binary`")
	fs.StringVar(&c.Bench, "bench", c.Bench, "profile only benchmarks matching `regexp`")
	fs.IntVar(&o.Profile.Processes, "procs", o.Profile.Processes, "profiled `processes` of each version")
	fs.IntVar(&o.Profile.Samples, "samples", o.Profile.Samples, "CPU `samples` asked of each profiled process")
	fs.DurationVar(&o.Profile.MaxTime, "max-time", o.Profile.MaxTime, "most `time` of a profiled process")
	fs.IntVar(&o.Profile.Hz, "hz", o.Profile.Hz, "CPU profile `rate` asked of binaries built with the probe")
	fs.Float64Var(&o.Profile.Alpha, "alpha", o.Profile.Alpha, "false discovery `rate` of the functions named")
	fs.DurationVar(&c.Timeout, "timeout", c.Timeout, "end a process that runs longer than `duration`")
	fs.StringVar(&o.Tags, "tags", o.Tags, "build `tags` for go test -c")
	fs.StringVar(&o.GCFlags, "gcflags", o.GCFlags, "`flags` for go test -c -gcflags")
	fs.BoolVar(&o.Verbose, "v", o.Verbose, "print each benchmark as it is profiled")
}

// profileFlag is -profile: alone it selects the changed benchmarks,
// -profile=all every one, -profile=false none.
type profileFlag string

func (f *profileFlag) String() string { return string(*f) }

func (f *profileFlag) IsBoolFlag() bool { return true }

func (f *profileFlag) Set(s string) error {
	switch s {
	case "true", ab.ProfileChanged:
		*f = ab.ProfileChanged
	case ab.ProfileAll:
		*f = ab.ProfileAll
	case "false", "none":
		*f = ab.ProfileNone
	default:
		return fmt.Errorf("want -profile, -profile=all or -profile=changed, not %q", s)
	}
	return nil
}

// duetFlags defines the flags of `mbench duet` that set c and the
// analysis options opts in fs, with their values as the defaults. Where
// to store and how to report are the caller's. The function it returns
// must be called after fs.Parse: it sets what needs parsing (-cpus,
// -metric-re), and its error names the flag.
func duetFlags(fs *flag.FlagSet, c *ab.ParallelConfig, opts *compare.Options) (parsed func() error) {
	var metricRE, cpus string
	fs.StringVar(&c.OldRev, "old", c.OldRev, "old version: a git `revision`")
	fs.StringVar(&c.NewRev, "new", c.NewRev, "new version: a git `revision`; . is the working tree")
	fs.StringVar(&c.OldBin, "old-bin", c.OldBin, "old version: a prebuilt test `binary`")
	fs.StringVar(&c.NewBin, "new-bin", c.NewBin, "new version: a prebuilt test `binary`")
	fs.StringVar(&c.CmdOld, "cmd-old", c.CmdOld, "old version: a `command` (run by sh -c); one run is one iteration")
	fs.StringVar(&c.CmdNew, "cmd-new", c.CmdNew, "new version: a `command` (run by sh -c)")
	fs.StringVar(&metricRE, "metric-re", "", "with -cmd-*, take each iteration's value from the output: the first submatch of `regexp` (default: wall time)")
	fs.StringVar(&c.Unit, "unit", c.Unit, "with -metric-re, the `unit` of the value, e.g. ops/s (default \"value\")")
	fs.BoolVar(&c.AA, "aa", c.AA, "run the old version against itself (A/A control)")
	fs.StringVar(&c.Bench, "bench", c.Bench, "run only benchmarks matching `regexp`")
	fs.IntVar(&c.Runs, "runs", c.Runs, "`runs` (pairs of processes) per benchmark")
	fs.IntVar(&c.Iters, "iters", c.Iters, "measured paired `iterations` per run")
	fs.IntVar(&c.Warmup, "warmup", c.Warmup, "discarded paired `iterations` at the start of each run")
	fs.DurationVar(&c.Iter, "iter", c.Iter, "target `duration` of one iteration")
	fs.DurationVar(&c.Timeout, "timeout", c.Timeout, "end a run that takes longer than `duration`")
	fs.StringVar(&cpus, "cpus", fmt.Sprintf("%d,%d", c.CPUs[0], c.CPUs[1]), "the two `cpus` to run on")
	fs.BoolVar(&c.Filler, "filler", c.Filler, "keep the side that finishes an iteration first busy until the other finishes")
	fs.BoolVar(&c.Probe, "probe", c.Probe, "build with the testing-package probe (barrier and filler); false runs free")
	fs.StringVar(&c.Tags, "tags", c.Tags, "build `tags` for go test -c")
	fs.StringVar(&c.GCFlags, "gcflags", c.GCFlags, "`flags` for go test -c -gcflags")
	fs.BoolVar(&c.Benchmem, "benchmem", c.Benchmem, "also record B/op and allocs/op")
	fs.StringVar(&c.OldLabel, "old-label", c.OldLabel, "`label` of the old side's stored run (default: the revision)")
	fs.StringVar(&c.NewLabel, "new-label", c.NewLabel, "`label` of the new side's stored run (default: the revision)")
	fs.StringVar(&opts.Metric, "metric", opts.Metric, "compare `unit`: sec/op (wall time), cpu-sec/op (the process's CPU time; with the probe), B/op or allocs/op (with -benchmem)")
	fs.Float64Var(&opts.Alpha, "alpha", opts.Alpha, "one minus the confidence `level` of the interval")
	fs.Float64Var(&opts.Threshold, "threshold", opts.Threshold, "smallest relative change that matters, as a `fraction` (not for allocs/op)")
	fs.IntVar(&opts.Replicates, "reps", opts.Replicates, "bootstrap `replicates`")
	fs.Uint64Var(&opts.Seed, "seed", opts.Seed, "random `seed` of the order, the CPU assignment and the bootstrap")
	fs.BoolVar(&c.Verbose, "v", c.Verbose, "print each run as it starts")
	fs.StringVar(&c.Instance, "instance", c.Instance, "`name` of this machine in the stored runs (default: the host name)")
	return func() (err error) {
		if c.CPUs, err = ab.ParseCPUs(cpus); err != nil {
			return fmt.Errorf("-cpus %v", err)
		}
		if metricRE != "" {
			if c.MetricRE, err = regexp.Compile(metricRE); err != nil {
				return fmt.Errorf("-metric-re: %v", err)
			}
		}
		c.Seed = opts.Seed
		return nil
	}
}

// abFlagOf and duetFlagOf name the flags of ab and duet that set the
// fields of ab.Options and ab.ParallelConfig their checks name.
var (
	abFlagOf = map[string]string{
		"OldRev": "old", "OldBin": "old-bin", "NewBin": "new-bin", "Iter": "iter", "Iterations": "mi", "Warmup": "wi",
		"MinOps": "min-ops", "Pairing": "pairing", "MinRounds": "min-rounds", "MaxRounds": "max-rounds",
		"Budget": "budget", "BenchmarkBudget": "budget-per-benchmark", "Timeout": "timeout", "Resume": "resume",
	}
	duetFlagOf = map[string]string{
		"OldRev": "old", "OldBin": "old-bin", "NewBin": "new-bin", "CmdOld": "cmd-old", "CmdNew": "cmd-new", "AA": "aa",
		"Runs": "runs", "Iters": "iters", "Warmup": "warmup", "Iter": "iter", "CPUs": "cpus", "MetricRE": "metric-re",
		"Shard": "shard", "Metric": "metric", "Probe": "probe", "Benchmem": "benchmem",
	}
)

// abFields names the field of ab.Options each flag of ab that the
// parallel mode reads sets (ab.Options.Parallel).
var abFields = map[string]string{
	"mi": "Iterations", "wi": "Warmup", "iter": "Iter", "timeout": "Timeout", "max-rounds": "MaxRounds",
	"alpha": "Compare.Alpha", "threshold": "Compare.Threshold", "reps": "Compare.Replicates", "seed": "Compare.Seed",
	"min-rounds": "MinRounds", "budget": "Budget", "resume": "Resume",
}

// abParallel returns the parallel mode's configuration for o, whose flags
// fs parsed, naming in its error the flag at fault.
func abParallel(fs *flag.FlagSet, o *ab.Options) (ab.ParallelConfig, compare.Options, error) {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[abFields[f.Name]] = true })
	c, opts, err := o.Parallel(func(field string) bool { return given[field] })
	if me := (*ab.ModeError)(nil); errors.As(err, &me) {
		for name, field := range abFields {
			if field == me.Field {
				err = fmt.Errorf("-%s applies to the interleaved mode, not to -parallel", name)
			}
		}
	}
	return c, opts, err
}
