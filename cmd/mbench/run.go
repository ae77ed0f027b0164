package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/mbench/mbench/ab"
	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/optimize"
	"github.com/mbench/mbench/run"
	"github.com/mbench/mbench/stats"
	"github.com/mbench/mbench/stop"
	"github.com/mbench/mbench/store"
	"golang.org/x/perf/benchunit"
)

// defaultDB is where results are stored unless -db says otherwise.
const defaultDB = ".mbench/mbench.db"

func init() {
	commands = append(commands, &command{
		name:      "run",
		usageLine: "[flags] [packages | label=path.test ...]",
		short:     "run benchmarks until their results are stable",
		long: `
Run builds the test binary of each package (default ./...), discovers its
benchmarks and sub-benchmarks, and measures each in several forks (fresh
processes), interleaving benchmarks in a random order per suite run. It
calibrates the operations per iteration once per benchmark so that every
iteration lasts about -iter, then stops warm-up, and stops adding forks, as
soon as the -criterion says the results are stable (dynamic reconfiguration),
within the bounds -wi-min..-wi-max and -f-min..-f-max.

Arguments are package patterns, as for go test, or prebuilt test binaries
(label=path.test, or any path ending in .test).

Two or more labelled binaries are versions of the code measured side by
side in one run: 'mbench run old=old.test new=new.test' interleaves their
benchmarks in every suite run, gives each measurement its binary's label as
its version (in the database, -json and -o, where 'benchstat -col version'
compares them), and prints one table per version. Labels must differ.

Every iteration is stored as it finishes in the result database (-db), under
a label (-label, default the git commit with -dirty when the tree has
changes); 'mbench runs' lists stored runs and 'mbench compare' compares them
by label. An interrupted run keeps every finished iteration.

The summary on stdout gives, per benchmark, the mean and median, the 99%
confidence interval of the mean (hierarchical bootstrap over forks and
iterations), its relative width (RCIW), B/op and allocs/op with -benchmem,
forks and iterations used, and why it stopped. Warnings about the machine,
the build and implausible results go to stderr.

Criteria: cv (coefficient of variation), rciw (relative width of a bootstrap
confidence interval), kld (Kullback-Leibler similarity of distributions), and
static (always the maximum configuration).

Exit status is 0 when every benchmark ran, 1 when one failed or the run was
interrupted.
`,
		setFlags: setRunFlags,
	})
}

// runFlags holds the flags of mbench run that are not options of run.Suite.
type runFlags struct {
	opts    run.Options
	bench   string
	cpu     string
	cpuset  string
	tags    string
	gcflags string
	db      string
	label   string
	out     string
	jsonOut string
	verbose bool
	levels  string
	plan    string
	rmitMin int
	// criterionSet records an explicit -criterion: with -plan, the plan
	// is then the criterion's upper bound.
	criterionSet bool
	iterSet      bool
}

// DefaultRunOptions are mbench run's defaults, chosen from the evaluation in
// docs/EVALUATION.md.
var defaultRunOptions = func() run.Options {
	o := run.DefaultOptions
	o.Config = stop.Config{WarmupMin: 1, WarmupMax: 10, Measure: 5, ForksMin: 5, ForksMax: 10, IterTime: 50 * time.Millisecond}
	return o
}()

func setRunFlags(fs *flag.FlagSet) func(*env, []string) error {
	f := &runFlags{opts: defaultRunOptions}
	o := &f.opts
	fs.StringVar(&f.bench, "bench", ".", "run only benchmarks matching `regexp` (per / level, as go test)")
	fs.DurationVar(&o.Config.IterTime, "iter", o.Config.IterTime, "target `duration` of one iteration")
	fs.IntVar(&o.Config.WarmupMin, "wi-min", o.Config.WarmupMin, "fewest warm-up `iterations` per fork")
	fs.IntVar(&o.Config.WarmupMax, "wi-max", o.Config.WarmupMax, "most warm-up `iterations` per fork")
	fs.IntVar(&o.Config.Measure, "mi", o.Config.Measure, "measurement `iterations` per fork")
	fs.IntVar(&o.Config.ForksMin, "f-min", o.Config.ForksMin, "fewest `forks` per benchmark")
	fs.IntVar(&o.Config.ForksMax, "f-max", o.Config.ForksMax, "most `forks` per benchmark")
	fs.StringVar(&o.Criterion, "criterion", o.Criterion, "stoppage `criterion`: "+strings.Join(stop.Names, ", "))
	fs.IntVar(&o.CriterionOptions.Window, "window", o.CriterionOptions.Window, "criterion's sliding window, in `iterations`")
	fs.Float64Var(&o.CriterionOptions.CVThreshold, "cv-threshold", o.CriterionOptions.CVThreshold, "cv criterion's `threshold`")
	fs.Float64Var(&o.CriterionOptions.RCIWThreshold, "rciw-threshold", o.CriterionOptions.RCIWThreshold, "rciw criterion's `threshold`")
	fs.Float64Var(&o.CriterionOptions.KLDThreshold, "kld-threshold", o.CriterionOptions.KLDThreshold, "kld criterion's `threshold` (a probability)")
	fs.Uint64Var(&o.Seed, "seed", o.Seed, "random `seed` of the benchmark order and the bootstraps")
	fs.StringVar(&f.cpuset, "cpuset", "", "pin forks to these `cpus`, e.g. 1 or 0-3")
	fs.StringVar(&f.cpu, "cpu", "", "run each benchmark at each GOMAXPROCS in `list`, e.g. 1,2,4")
	fs.DurationVar(&o.ForkTimeout, "timeout", o.ForkTimeout, "end a fork that runs longer than `duration`")
	fs.BoolVar(&o.Benchmem, "benchmem", false, "report B/op and allocs/op")
	fs.StringVar(&f.tags, "tags", "", "build `tags` for go test -c")
	fs.StringVar(&f.gcflags, "gcflags", "", "`flags` for go test -c -gcflags")
	fs.StringVar(&f.db, "db", defaultDB, "result database `path`")
	fs.StringVar(&f.label, "label", "", "`name` of this run (default: the git commit, -dirty if the tree has changes)")
	fs.StringVar(&f.out, "o", "", "also write the measurement iterations to `file` in the Go benchmark format")
	fs.StringVar(&f.jsonOut, "json", "", "also stream every iteration to `file` in mbench's JSON Lines format")
	fs.BoolVar(&f.verbose, "v", false, "print each fork as it starts")
	fs.StringVar(&f.levels, "levels", "", "run every benchmark in a fixed `S,I,D` configuration: S suite runs × I forks × D iterations (input for mbench optimize)")
	fs.StringVar(&f.plan, "plan", "", "run each benchmark in its configuration from plan `file` (written by mbench optimize)")
	fs.IntVar(&f.rmitMin, "rmit-min", 3, "with -levels or -plan, interleave at least `n` different benchmarks in each suite run")
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
	o := &f.opts
	if err := o.Config.Validate(); err != nil {
		return usagef("%v", err)
	}
	if !contains(stop.Names, o.Criterion) {
		return usagef("-criterion %q: want one of %s", o.Criterion, strings.Join(stop.Names, ", "))
	}
	if err := checkLabels(args); err != nil {
		return err
	}
	var levels run.Levels
	switch {
	case f.levels != "" && f.plan != "":
		return usagef("-levels and -plan: give one")
	case f.levels != "":
		l, err := bench.ParseLevels(f.levels)
		if err != nil {
			return usagef("-levels %q: %v", f.levels, err)
		}
		levels = l
	}
	if f.rmitMin < 1 {
		return usagef("-rmit-min %d: want at least 1", f.rmitMin)
	}
	var plan *optimize.Plan
	if f.plan != "" {
		p, err := optimize.ReadPlanFile(f.plan)
		if err != nil {
			return err
		}
		if f.iterSet && o.Config.IterTime != p.IterTime {
			return usagef("-iter %v: the plan %s counts iterations of %v; drop -iter", o.Config.IterTime, f.plan, p.IterTime)
		}
		o.Config.IterTime = p.IterTime
		plan = p
	}
	var pin []int
	if f.cpuset != "" {
		cpus, err := run.ParseCPUList(f.cpuset)
		if err != nil {
			return usagef("-cpuset: %v", err)
		}
		pin = cpus
	}
	var cpuList []int
	if f.cpu != "" {
		list, err := run.ParseCPUList(f.cpu)
		if err != nil {
			return usagef("-cpu: %v", err)
		}
		cpuList = list
	}

	ctx, stopSignals := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stopSignals()

	wd, _ := os.Getwd()
	platform := e.platform(ctx, wd)

	bins, err := binaries(ctx, e, f, wd, args)
	if err != nil {
		return err
	}
	versions := versionsOf(bins)
	for _, b := range bins {
		if versions != nil && b.Label == "" {
			e.warnf("%s has no label: its benchmarks are measured without a version, apart from the versions %s", b.Path, strings.Join(versions, ", "))
		}
	}
	var targets []run.Target
	for i := range bins {
		for _, w := range run.BinaryWarnings(bins[i].Path, bins[i].Flags) {
			e.warnf("%s", w)
		}
		ts, err := run.Discover(ctx, &bins[i], f.bench, cpuList, pin, o.ForkTimeout)
		if err != nil {
			return err
		}
		if versions != nil {
			for j := range ts {
				ts[j].Version = bins[i].Label
			}
		}
		targets = append(targets, ts...)
	}
	if len(targets) == 0 {
		return fmt.Errorf("no benchmarks match -bench %q in %d test binaries", f.bench, len(bins))
	}

	label := f.label
	if label == "" {
		label = platform.DefaultLabel()
	}
	if label == "" {
		label = "run"
	}
	meta := &bench.Run{
		Label: label, Commit: platform.Commit, Dirty: platform.Dirty, Toolchain: platform.Go,
		GOOS: platform.OS, GOARCH: platform.Arch, Host: platform.Host, CPU: platform.CPU,
		Start: time.Now(), Settings: settingsOf(o),
	}
	if f.cpuset != "" {
		meta.Settings["cpuset"] = f.cpuset
	}
	if f.cpu != "" {
		meta.Settings["cpu"] = f.cpu
	}
	if plan != nil {
		meta.Settings["plan"] = f.plan
		meta.Settings["iter"] = plan.IterTime.String()
		if !f.criterionSet {
			staticSettings(meta.Settings, "plan", o.Config.WarmupMin)
		}
	}
	if f.levels != "" {
		meta.Settings["levels"] = fmt.Sprintf("%d,%d,%d", levels.SuiteRuns, levels.Forks, levels.Iterations)
		staticSettings(meta.Settings, "levels", o.Config.WarmupMin)
	}
	db, err := openDB(f.db)
	if err != nil {
		return err
	}
	defer db.Close()
	id, err := db.CreateRun(meta)
	if err != nil {
		return err
	}
	sink := &runSink{db: db, id: id}
	if f.jsonOut != "" {
		jf, err := os.Create(f.jsonOut)
		if err != nil {
			return err
		}
		defer jf.Close()
		sink.json = bench.NewJSONWriter(jf)
		if err := sink.json.WriteRun(meta); err != nil {
			return err
		}
	}
	o.Sink = sink
	progress := newProgress(e.stderr, f.verbose)
	o.Progress = progress.update

	fmt.Fprint(e.stdout, platform.Header())
	runName := "label " + label
	if versions != nil {
		runName += ", versions " + strings.Join(versions, ", ")
	}
	switch {
	case plan != nil && f.criterionSet:
		fmt.Fprintf(e.stdout, "run: %s (%s), %d benchmarks, plan %s as the upper bound of criterion %s, iteration %v, warm-up %d-%d\n\n",
			id, runName, len(targets), f.plan, o.Criterion, o.Config.IterTime, o.Config.WarmupMin, o.Config.WarmupMax)
	case plan != nil:
		fmt.Fprintf(e.stdout, "run: %s (%s), %d benchmarks, plan %s (full run %v), iteration %v, warm-up %d per fork\n\n",
			id, runName, len(targets), f.plan, plan.Levels, o.Config.IterTime, o.Config.WarmupMin)
	case f.levels != "":
		fmt.Fprintf(e.stdout, "run: %s (%s), %d benchmarks, levels %v (suite runs × forks × iterations), iteration %v, warm-up %d per fork\n\n",
			id, runName, len(targets), levels, o.Config.IterTime, o.Config.WarmupMin)
	default:
		fmt.Fprintf(e.stdout, "run: %s (%s), %d benchmarks, criterion %s, iteration %v, warm-up %d-%d, %d measured per fork, forks %d-%d\n\n",
			id, runName, len(targets), o.Criterion, o.Config.IterTime, o.Config.WarmupMin, o.Config.WarmupMax, o.Config.Measure, o.Config.ForksMin, o.Config.ForksMax)
	}

	var results []*run.Result
	var runErr error
	switch {
	case plan != nil && f.criterionSet:
		po := *o
		po.TargetConfig = func(t *run.Target) (stop.Config, bool) {
			l := planLevels(e, plan, f.plan, t)
			c := o.Config
			c.Measure, c.ForksMax = l.Iterations, l.SuiteRuns*l.Forks
			c.ForksMin = min(c.ForksMin, c.ForksMax)
			return c, true
		}
		results, runErr = run.Suite(ctx, targets, po)
	case plan != nil:
		so := run.StaticOptions{Options: *o, Warmup: o.Config.WarmupMin, MinPerSuiteRun: f.rmitMin,
			Levels: func(t *run.Target) (run.Levels, bool) { return planLevels(e, plan, f.plan, t), true }}
		results, runErr = run.StaticSuite(ctx, targets, so)
	case f.levels != "":
		so := run.StaticOptions{Options: *o, Warmup: o.Config.WarmupMin, MinPerSuiteRun: f.rmitMin,
			Levels: func(*run.Target) (run.Levels, bool) { return levels, true }}
		results, runErr = run.StaticSuite(ctx, targets, so)
	default:
		results, runErr = run.Suite(ctx, targets, *o)
	}
	progress.done()
	status := "complete"
	switch {
	case errors.Is(runErr, run.ErrInterrupted):
		status = "interrupted"
	case runErr != nil:
		status = "failed"
	}
	meta.End = time.Now()
	reports := make(map[string]string)
	for _, r := range results {
		if r.Report.Forks > 0 {
			reports["stop/"+targetName(r.Target)] = r.Report.Reason
		}
	}
	if err := db.SetSettings(id, reports); err != nil {
		e.warnf("recording stop reasons: %v", err)
	}
	if err := db.Finish(id, meta.End, status); err != nil {
		e.warnf("recording the end of run %s: %v", id, err)
	}
	if sink.json != nil {
		if err := sink.json.Flush(); err != nil {
			e.warnf("writing %s: %v", f.jsonOut, err)
		}
	}

	failed := writeSummary(e, results, o, meta.End.Sub(meta.Start))
	if f.out != "" {
		if err := writeBenchfmt(f.out, meta, results); err != nil {
			return err
		}
	}
	fmt.Fprintf(e.stderr, "mbench: %d measurements stored in %s as run %s (label %s)\n", sink.n, f.db, id, label)
	switch {
	case runErr != nil && status == "interrupted":
		return fmt.Errorf("interrupted; every finished iteration is kept in run %s", id)
	case runErr != nil:
		return runErr
	case failed > 0:
		return fmt.Errorf("%d of %d benchmarks failed", failed, len(results))
	}
	return nil
}

// binaries builds the packages named by args, or takes the prebuilt test
// binaries among them.
func binaries(ctx context.Context, e *env, f *runFlags, wd string, args []string) ([]run.Binary, error) {
	var patterns []string
	var bins []run.Binary
	for _, a := range args {
		label, path, hasLabel := strings.Cut(a, "=")
		if !hasLabel {
			label, path = "", a
		}
		if hasLabel || strings.HasSuffix(path, ".test") {
			v, err := ab.Prebuilt(path)
			if err != nil {
				return nil, err
			}
			v.Binaries[0].Label = label
			bins = append(bins, v.Binaries...)
			continue
		}
		patterns = append(patterns, a)
	}
	if len(patterns) == 0 && len(bins) > 0 {
		return bins, nil
	}
	built, err := run.Build(ctx, run.BuildOptions{Dir: wd, Tags: f.tags, GCFlags: f.gcflags, Log: prefixWriter{e.stderr}}, patterns)
	if err != nil {
		return nil, err
	}
	return append(bins, built...), nil
}

// prefixWriter prefixes "mbench: " to what it is given, one line at a time.
type prefixWriter struct{ w io.Writer }

func (p prefixWriter) Write(b []byte) (int, error) {
	fmt.Fprintf(p.w, "mbench: %s", b)
	return len(b), nil
}

// runSink stores each measurement durably and streams it to -json.
type runSink struct {
	db   *store.Store
	id   string
	json *bench.JSONWriter
	n    int
}

func (s *runSink) Append(m *bench.Measurement) error {
	if err := s.db.Append(s.id, *m); err != nil {
		return err
	}
	s.n++
	if s.json != nil {
		if err := s.json.WriteMeasurement(m); err != nil {
			return err
		}
		return s.json.Flush()
	}
	return nil
}

func settingsOf(o *run.Options) map[string]string {
	c := o.Config
	return map[string]string{
		"criterion": o.Criterion, "iter": c.IterTime.String(),
		"wi-min": fmt.Sprint(c.WarmupMin), "wi-max": fmt.Sprint(c.WarmupMax), "mi": fmt.Sprint(c.Measure),
		"f-min": fmt.Sprint(c.ForksMin), "f-max": fmt.Sprint(c.ForksMax), "seed": fmt.Sprint(o.Seed),
		"window": fmt.Sprint(o.CriterionOptions.Window), "benchmem": fmt.Sprint(o.Benchmem),
	}
}

// writeSummary prints the per-benchmark table, one per version when the run
// measured several, and returns how many benchmarks failed.
func writeSummary(e *env, results []*run.Result, o *run.Options, wall time.Duration) int {
	// Name benchmarks without their package when all share one, which
	// the header then names, as go test does.
	pkg := ""
	if len(results) > 0 {
		pkg = results[0].Target.Key.Package
	}
	for _, r := range results {
		if r.Target.Key.Package != pkg {
			pkg = ""
			break
		}
	}
	name := func(k bench.Key) string {
		if pkg != "" {
			return strings.TrimPrefix(k.FullName(), "Benchmark")
		}
		return k.String()
	}
	if pkg != "" {
		fmt.Fprintf(e.stdout, "pkg: %s\n", pkg)
	}
	// Results are in target order, so each version's are together; a
	// table per version, headed like the configuration line that
	// separates the versions in the Go benchmark format, keeps the rows
	// of the same benchmark in two versions apart.
	var groups [][]*run.Result
	for i, r := range results {
		if i == 0 || r.Target.Version != results[i-1].Target.Version {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], r)
	}
	failed := 0
	var checkTime, benchTime time.Duration
	var stops []string
	boot := stats.Bootstrap{Level: 0.99, Replicates: 10000}
	for gi, group := range groups {
		if v := group[0].Target.Version; v != "" || len(groups) > 1 {
			if gi > 0 {
				fmt.Fprintln(e.stdout)
			}
			fmt.Fprintf(e.stdout, "version: %s\n", v)
		}
		tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "benchmark\tmean\tmedian\t99%% CI\tRCIW\tB/op\tallocs/op\tforks\twarm-up\titers\tcheck\tstop\n")
		for _, r := range group {
			checkTime += r.Report.CheckTime
			benchTime += r.Time
			warm := 0
			for _, w := range r.Report.Warmup {
				warm += w
			}
			code := stopCode(r)
			stops = append(stops, code)
			if r.Failed() {
				failed++
				fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t-\t-\t%d\t%d\t-\t-\t%s\n", name(r.Target.Key), r.Report.Forks, warm, code)
				continue
			}
			s := run.Summarize(r, o.Metric, boot, o.Seed)
			if s.Iterations == 0 {
				fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t-\t-\t0\t0\t0\t-\t%s\n", name(r.Target.Key), code)
				continue
			}
			cls := benchunit.ClassOf(o.Metric)
			ci, rciw := "-", "-"
			if !isNaN(s.CI.Lo) {
				ci = "[" + benchunit.Scale(s.CI.Lo, cls) + ", " + benchunit.Scale(s.CI.Hi, cls) + "]"
				rciw = fmt.Sprintf("%.2f%%", 100*s.CI.RelWidth())
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%v\t%s\n", name(r.Target.Key),
				benchunit.Scale(s.Mean, cls), benchunit.Scale(s.Median, cls), ci, rciw,
				scaleOrDash(s.BytesPerOp, benchunit.Binary), scaleOrDash(s.AllocsPerOp, benchunit.Decimal),
				s.Forks, warm, s.Iterations, r.Report.CheckTime.Round(time.Microsecond), code)
		}
		tw.Flush()
	}
	writeStopLegend(e.stdout, stops, o)
	fmt.Fprintf(e.stdout, "\nwall time %v; criterion checks took %v (%.3f%% of benchmark time)\n",
		wall.Round(time.Millisecond), checkTime.Round(time.Microsecond), 100*checkTime.Seconds()/max(benchTime.Seconds(), 1e-9))
	var notes noteGroups
	for _, r := range results {
		ns := run.ResultWarnings(r, o.Metric)
		if !r.Failed() {
			// A failed benchmark stopped for its failure, reported below.
			ns = append(r.Report.Warnings(), ns...)
		}
		for _, n := range ns {
			label := name(r.Target.Key)
			if v := r.Target.Version; v != "" {
				label += " (" + v + ")"
			}
			notes.add(n, label)
		}
	}
	notes.write(e)
	for _, r := range results {
		for _, fe := range r.Failures {
			e.warnf("%s failed: %v\n%s", targetName(r.Target), fe.Err, indent(fe.Output))
		}
	}
	return failed
}

// targetName names a target in messages: its key, with its version when it
// has one, since two versions of a benchmark share the key.
func targetName(t *run.Target) string {
	if t.Version == "" {
		return t.Key.String()
	}
	return t.Key.String() + " (" + t.Version + ")"
}

// checkLabels rejects a label given to two test binaries: in a run of
// several labelled binaries the labels are the versions measured, which
// must tell the binaries' measurements apart.
func checkLabels(args []string) error {
	seen := make(map[string]bool)
	for _, a := range args {
		label, _, ok := strings.Cut(a, "=")
		if !ok || label == "" {
			continue
		}
		if seen[label] {
			return usagef("label %q names two test binaries; give each its own", label)
		}
		seen[label] = true
	}
	return nil
}

// versionsOf returns the labels of the labelled test binaries among bins,
// in order, when there are at least two: the versions a run measures side
// by side. A run with one labelled binary or none measures one version and
// gets nil; its measurements have no version.
func versionsOf(bins []run.Binary) []string {
	var labels []string
	for _, b := range bins {
		if b.Label != "" {
			labels = append(labels, b.Label)
		}
	}
	if len(labels) < 2 {
		return nil
	}
	return labels
}

// Stop codes, the summary's short account of why a benchmark stopped; the
// legend below the table explains the ones it uses, and the full reason of
// each benchmark is stored with the run (settings stop/<benchmark>).
const (
	stopStable  = "stable"  // the criterion found the forks stable
	stopMax     = "max"     // -f-max reached first
	stopFixed   = "fixed"   // a fixed configuration: -criterion static, -levels, -plan
	stopPartial = "partial" // the run ended before the benchmark did
	stopFailed  = "FAILED"  // a fork failed
	stopNone    = "none"    // no fork produced a measurement
	stopLevels  = "levels " // prefix of a fixed configuration's own levels (-levels, -plan)
)

func stopCode(r *run.Result) string {
	rep := r.Report
	switch {
	case r.Failed():
		return stopFailed
	case rep.Forks == 0 || rep.Measured == 0:
		return stopNone
	case rep.Criterion == stop.Static{}.Name() && strings.HasPrefix(rep.Reason, stopLevels):
		return rep.Reason // short, and it differs per benchmark under -plan
	case rep.Criterion == stop.Static{}.Name():
		return stopFixed
	case !rep.Done:
		return stopPartial
	case rep.Stable:
		return stopStable
	}
	return stopMax
}

// writeStopLegend explains, below the table, each stop code it shows, in a
// fixed order.
func writeStopLegend(w io.Writer, codes []string, o *run.Options) {
	legend := []struct{ code, text string }{
		{stopStable, fmt.Sprintf("%s found the forks stable before -f-max %d", o.Criterion, o.Config.ForksMax)},
		{stopMax, fmt.Sprintf("-f-max reached before %s found the forks stable", o.Criterion)},
		{stopFixed, "every fork of a fixed configuration ran (-criterion static, -levels, -plan)"},
		{stopPartial, "the run ended before the benchmark did"},
		{stopFailed, "a fork failed; its error is below"},
		{stopNone, "no fork produced a measurement"},
	}
	for _, c := range codes {
		if strings.HasPrefix(c, stopLevels) {
			legend = append(legend, struct{ code, text string }{stopLevels + "S,I,D",
				"every fork of a fixed configuration ran: S suite runs × I forks × D iterations"})
			codes = append(codes, stopLevels+"S,I,D")
			break
		}
	}
	first := true
	for _, l := range legend {
		if !contains(codes, l.code) {
			continue
		}
		head := "      "
		if first {
			head, first = "\nstop: ", false
		}
		fmt.Fprintf(w, "%s%-7s %s\n", head, l.code, l.text)
	}
}

// noteGroups collects warnings about benchmarks so that each distinct one
// is printed once, naming the benchmarks it applies to, rather than once per
// benchmark: a warning repeated for every line of the table teaches users
// to skip warnings.
type noteGroups struct {
	order []string
	by    map[string]*noteGroup
}

type noteGroup struct {
	problem, advice string
	names           []string // benchmark names, each with its note's detail
}

func (g *noteGroups) add(n stop.Note, name string) {
	key := n.Problem + "\x00" + n.Advice
	if g.by == nil {
		g.by = make(map[string]*noteGroup)
	}
	grp, ok := g.by[key]
	if !ok {
		grp = &noteGroup{problem: n.Problem, advice: n.Advice}
		g.by[key] = grp
		g.order = append(g.order, key)
	}
	if n.Detail != "" {
		name += " (" + n.Detail + ")"
	}
	grp.names = append(grp.names, name)
}

// write prints each group as "problem in N benchmarks: a, b; advice", or
// "name: problem; advice" for a single benchmark.
func (g *noteGroups) write(e *env) {
	for _, key := range g.order {
		n := g.by[key]
		line := n.names[0] + ": " + n.problem
		if len(n.names) > 1 {
			line = fmt.Sprintf("%s in %d benchmarks: %s", n.problem, len(n.names), strings.Join(n.names, ", "))
		}
		e.warnf("%s; %s", line, n.advice)
	}
}

func writeBenchfmt(path string, meta *bench.Run, results []*run.Result) error {
	out := *meta
	out.Measurements = nil
	for _, r := range results {
		out.Measurements = append(out.Measurements, r.Measurements...)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := bench.WriteBenchfmt(f, &out, bench.BenchfmtOptions{}); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func scaleOrDash(v float64, cls benchunit.Class) string {
	if isNaN(v) {
		return "-"
	}
	return benchunit.Scale(v, cls)
}

func isNaN(v float64) bool { return v != v }

func indent(s string) string {
	if s == "" {
		return ""
	}
	return "\t" + strings.ReplaceAll(s, "\n", "\n\t")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// planLevels is a target's configuration in plan: its own, found by key or,
// when the plan was made at another GOMAXPROCS, by package and name alone;
// the plan's full configuration, with a warning, for a benchmark the plan
// does not know.
func planLevels(e *env, plan *optimize.Plan, file string, t *run.Target) run.Levels {
	if pb, ok := plan.Lookup(t.Key); ok {
		return pb.Levels
	}
	var found []optimize.PlanBenchmark
	for _, pb := range plan.Benchmarks {
		if pb.Key.Package == t.Key.Package && pb.Key.Name == t.Key.Name {
			found = append(found, pb)
		}
	}
	if len(found) == 1 {
		return found[0].Levels
	}
	e.warnf("%s: not in the plan %s; running the full configuration %v (run mbench optimize again)", t.Key, file, plan.Levels)
	return plan.Levels
}

// staticSettings records a fixed configuration (-levels, -plan) in a run's
// settings in place of the criterion's bounds.
func staticSettings(settings map[string]string, criterion string, warmup int) {
	settings["criterion"] = criterion
	settings["wi"] = fmt.Sprint(warmup)
	for _, k := range []string{"wi-min", "wi-max", "mi", "f-min", "f-max", "window"} {
		delete(settings, k)
	}
}

// openDB opens the result database at path, creating its directory.
func openDB(path string) (*store.Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return nil, err
	}
	return store.Open(path)
}
