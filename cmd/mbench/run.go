package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/mbench/mbench/optimize"
	"github.com/mbench/mbench/run"
	"github.com/mbench/mbench/shard"
	"github.com/mbench/mbench/stop"
	"github.com/mbench/mbench/store"
)

func init() {
	commands = append(commands, &command{
		name:      "run",
		usageLine: "[flags] [packages | label=path.test ...]",
		short:     "run benchmarks until their results are stable",
		long:      helpText("run"),
		setFlags:  setRunFlags,
	})
}

// runFlags holds the flags of mbench run that are not fields of run.Job.
type runFlags struct {
	job      run.Job
	db       string
	out      string
	jsonOut  string
	verbose  bool
	quiet    *bool
	planFile string
	// criterionSet records an explicit -criterion: with -plan, the plan
	// is then the criterion's upper bound.
	criterionSet bool
	iterSet      bool
	shard        string
}

func setRunFlags(fs *flag.FlagSet) func(*env, []string) error {
	f := &runFlags{job: run.DefaultJob}
	j, o := &f.job, &f.job.Options
	fs.StringVar(&j.Bench, "bench", j.Bench, "run only benchmarks matching `regexp` (per / level, as go test)")
	fs.DurationVar(&o.Config.IterTime, "iter", o.Config.IterTime, "target `duration` of one iteration")
	fs.IntVar(&o.Config.WarmupMin, "wi-min", o.Config.WarmupMin, "fewest warm-up `iterations` per fork")
	fs.IntVar(&o.Config.WarmupMax, "wi-max", o.Config.WarmupMax, "most warm-up `iterations` per fork")
	fs.IntVar(&o.Config.Measure, "mi", o.Config.Measure, "measurement `iterations` per fork")
	fs.IntVar(&o.MinOps, "min-ops", o.MinOps, "fewest `operations` per iteration, however long one takes")
	fs.IntVar(&o.Config.ForksMin, "f-min", o.Config.ForksMin, "fewest `forks` per benchmark")
	fs.IntVar(&o.Config.ForksMax, "f-max", o.Config.ForksMax, "most `forks` per benchmark")
	fs.StringVar(&o.Criterion, "criterion", o.Criterion, "stoppage `criterion`: "+strings.Join(stop.Names, ", "))
	fs.IntVar(&o.CriterionOptions.Window, "window", o.CriterionOptions.Window, "criterion's sliding window, in `iterations`")
	fs.Float64Var(&o.CriterionOptions.CVThreshold, "cv-threshold", o.CriterionOptions.CVThreshold, "cv criterion's `threshold`")
	fs.Float64Var(&o.CriterionOptions.RCIWThreshold, "rciw-threshold", o.CriterionOptions.RCIWThreshold, "rciw criterion's `threshold`")
	fs.Float64Var(&o.CriterionOptions.KLDThreshold, "kld-threshold", o.CriterionOptions.KLDThreshold, "kld criterion's `threshold` (a probability)")
	fs.Uint64Var(&o.Seed, "seed", o.Seed, "random `seed` of the benchmark order and the bootstraps")
	fs.StringVar(&j.CPUSet, "cpuset", "", "pin forks to these `cpus`, e.g. 1 or 0-3")
	fs.StringVar(&j.CPU, "cpu", "", "run each benchmark at each GOMAXPROCS in `list`, e.g. 1,2,4")
	fs.DurationVar(&o.ForkTimeout, "timeout", o.ForkTimeout, "end a fork that runs longer than `duration`")
	fs.BoolVar(&o.Benchmem, "benchmem", false, "report B/op and allocs/op")
	fs.StringVar(&j.Build.Tags, "tags", "", "build `tags` for go test -c")
	fs.StringVar(&j.Build.GCFlags, "gcflags", "", "`flags` for go test -c -gcflags")
	fs.StringVar(&f.db, "db", defaultDB, "result database `path`")
	fs.StringVar(&j.Label, "label", "", "`name` of this run (default: the git commit, -dirty if the tree has changes)")
	fs.StringVar(&o.Instance, "instance", "", "`name` of this machine in the stored run (default: the host name)")
	fs.StringVar(&f.out, "o", "", "also write the measurement iterations to `file` in the Go benchmark format")
	fs.StringVar(&f.jsonOut, "json", "", "also stream every iteration to `file` in mbench's JSON Lines format")
	fs.BoolVar(&f.verbose, "v", false, "print each fork as it starts")
	f.quiet = quietFlag(fs)
	fs.StringVar(&j.Levels, "levels", "", "run every benchmark in a fixed `S,I,D` configuration: S suite runs × I forks × D iterations (input for mbench optimize)")
	fs.StringVar(&f.planFile, "plan", "", "run each benchmark in its configuration from plan `file` (written by mbench optimize)")
	shardFlags(fs, &f.shard, &j.ShardBasis)
	fs.IntVar(&j.MinPerSuiteRun, "rmit-min", j.MinPerSuiteRun, "with -levels or -plan, interleave at least `n` different benchmarks in each suite run")
	return func(e *env, args []string) error {
		fs.Visit(func(fl *flag.Flag) {
			switch fl.Name {
			case "criterion":
				f.criterionSet = true
			case "iter":
				f.iterSet = true
			}
		})
		return runCmd(e, f, args)
	}
}

func runCmd(e *env, f *runFlags, args []string) error {
	j := &f.job
	j.Args = args
	var err error
	if j.Shard, err = parseShard(f.shard); err != nil {
		return err
	}
	if err := j.Check(); err != nil {
		return usagef("%v", namingFlags(err, runFlagOf))
	}
	if f.planFile != "" {
		if j.Levels != "" {
			return usagef("-levels and -plan: give one")
		}
		p, err := optimize.ReadPlanFile(f.planFile)
		if err != nil {
			return err
		}
		if f.iterSet && j.Config.IterTime != p.IterTime {
			return usagef("-iter %v: the plan %s counts iterations of %v; drop -iter", j.Config.IterTime, f.planFile, p.IterTime)
		}
		j.Plan, j.PlanFile, j.PlanBound = p, f.planFile, f.criterionSet
	}
	outs, err := openRunOutputs(f, j)
	if err != nil {
		return err
	}
	defer outs.abort()
	ctx, stopSignals := interruptContext(e.stderr)
	defer stopSignals()
	status := e.status(*f.quiet)
	defer status.Done()
	j.Build.Dir, _ = os.Getwd()
	j.Build.Log = prefixWriter{e.stderr}
	var db *store.Store
	defer func() {
		if db != nil {
			db.Close()
		}
	}()
	open := func(j *run.Job) (err error) {
		if db, err = openDB(f.db); err != nil {
			return err
		}
		j.Store, j.ShardRuns = db, db
		return checkRefs(db, storedRef{"-shard-basis", j.ShardBasis, true})
	}
	// The store opens before the build when that creates nothing (a
	// PostgreSQL store, a file that exists), so that a server out of
	// reach or a reference to nothing fails first; a new file waits for
	// the build, so that a build that fails leaves nothing behind.
	if _, err := os.Stat(f.db); err == nil || store.Dir(f.db) == "" {
		if err := open(j); err != nil {
			return err
		}
	} else {
		j.Open = open
	}
	j.NoiseDir = noiseDir(f.db)
	j.Progress = func(p run.Progress) {
		if status.Set(p.String()); f.verbose {
			fmt.Fprintf(e.stderr, "mbench: suite run %d: %s\n", p.SuiteRun, p)
		}
	}
	status.Set("building the test binaries and finding their benchmarks")
	prep, err := run.Prepare(ctx, *j)
	status.Clear()
	if err != nil {
		return err
	}
	for _, w := range prep.Warnings {
		e.warnf("%s", w)
	}
	fmt.Fprintf(e.stdout, "%s%s\n", prep.Platform.Header(), prep.Header())
	if prep.Shard != nil {
		fmt.Fprintf(e.stdout, "%s\n", prep.Shard)
	}
	fmt.Fprintln(e.stdout)
	out, runErr := prep.Run(ctx)
	status.Done()
	for _, w := range out.Warnings {
		e.warnf("%s", w)
	}
	failed := run.WriteSummary(e.stdout, e.warnf, out.Results, &prep.Job.Options, out.Meta.End.Sub(out.Meta.Start))
	if err := outs.finish(out); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "mbench: %d measurements stored in %s as run %s (label %s)\n", out.Stored, db.Name(), prep.ID, prep.Job.Label)
	switch {
	case errors.Is(runErr, run.ErrInterrupted):
		return fmt.Errorf("interrupted; every finished iteration is kept in run %s", prep.ID)
	case errors.Is(runErr, store.ErrConnectionLost):
		return fmt.Errorf("%w\nevery iteration before it is kept in run %s; run again when the server is back (or into a file with -db, then mbench store copy)", runErr, prep.ID)
	case runErr != nil:
		return runErr
	case failed > 0:
		return fmt.Errorf("%d of %d benchmarks failed", failed, len(out.Results))
	}
	return nil
}

// shardFlags binds -shard and -shard-basis, which run and ab share.
func shardFlags(fs *flag.FlagSet, shard, basis *string) {
	fs.StringVar(shard, "shard", "", "measure only part `i/n` of the benchmarks (1 ≤ i ≤ n), for one of n machines or CI jobs")
	fs.StringVar(basis, "shard-basis", "", "with -shard, balance the shards by the times in `run` (id or label) or results file (default: the newest complete run of the suite under another label)")
}

// parseShard parses the value of -shard; "" is the whole suite.
func parseShard(s string) (shard.Shard, error) {
	if s == "" {
		return shard.Shard{}, nil
	}
	sh, err := shard.Parse(s)
	if err != nil {
		return sh, usagef("-shard %v", err)
	}
	return sh, nil
}

// runFlagOf names the flag of mbench run that sets each field of run.Job
// that Job.Check names in its errors.
var runFlagOf = map[string]string{
	"WarmupMin": "wi-min", "WarmupMax": "wi-max", "Measure": "mi", "ForksMin": "f-min", "ForksMax": "f-max",
	"IterTime": "iter", "Criterion": "criterion", "Window": "window", "CVThreshold": "cv-threshold",
	"RCIWThreshold": "rciw-threshold", "KLDThreshold": "kld-threshold", "ForkTimeout": "timeout",
	"MinPerSuiteRun": "rmit-min", "MinOps": "min-ops", "Levels": "levels", "Plan": "plan",
}

// namingFlags returns err with the fields it names spelled as the flags
// flagOf says set them.
func namingFlags(err error, flagOf map[string]string) error {
	if err == nil {
		return nil
	}
	return errors.New(fieldName.ReplaceAllStringFunc(err.Error(), func(w string) string {
		if f, ok := flagOf[w]; ok {
			return "-" + f
		}
		return w
	}))
}

var fieldName = regexp.MustCompile(`\b[A-Z][A-Za-z]*\b`)
