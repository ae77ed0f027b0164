package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/optimize"
	"github.com/mbench/mbench/shard"
	"github.com/mbench/mbench/stop"
)

// A Store keeps runs and their measurements; *store.Store is one. Append
// must make a measurement durable before it returns.
type Store interface {
	CreateRun(r *bench.Run) (id string, err error)
	Append(id string, ms ...bench.Measurement) error
	SetSettings(id string, kv map[string]string) error
	Finish(id string, end time.Time, status string) error
}

// A Job is a whole `mbench run`: which test binaries to build or take, which
// of their benchmarks to measure and how, and where to keep every
// measurement. Its fields take the command's flags as given; Check says
// which of them is out of range.
//
// A job runs in two steps, so that a caller can show what is about to run
// before it does: Prepare builds, discovers and records the run, and
// Prepared.Run measures.
type Job struct {
	// Options say how each benchmark is measured. Their Sink, if not nil,
	// gets each measurement after the store.
	Options
	// Args are package patterns, built in Build.Dir, and prebuilt test
	// binaries: label=path.test, or a path ending in .test. Two or more
	// labelled binaries are versions of the code measured side by side.
	Args []string
	// Build says how packages are built; its Log gets a line per package.
	Build BuildOptions
	// Bench selects benchmarks, as go test -bench does ("" is all).
	Bench string
	// CPU runs each benchmark at each GOMAXPROCS in the list ("1,2,4");
	// CPUSet pins every process to these CPUs ("0-3"). "" for neither.
	CPU, CPUSet string
	// Levels runs every benchmark in one fixed configuration "S,I,D": S
	// suite runs of I forks of D measurement iterations.
	Levels string
	// Plan, if not nil, gives each benchmark its fixed configuration,
	// or with PlanBound its upper bound under the criterion. PlanFile
	// names it in the run's settings and messages.
	Plan      *optimize.Plan
	PlanFile  string
	PlanBound bool
	// MinPerSuiteRun is the fewest different benchmarks a suite run of a
	// fixed configuration interleaves (StaticOptions.MinPerSuiteRun).
	MinPerSuiteRun int
	// Label names the run; "" is the git commit, with -dirty when the
	// tree has changes.
	Label string
	// Shard, unless it is the whole suite, measures one part of the
	// benchmarks discovered (shard.Take), balanced by the basis
	// shard.FindBasis finds in ShardRuns (nil: none; by hash) or
	// ShardBasis names.
	Shard      shard.Shard
	ShardBasis string
	ShardRuns  shard.Source
	// Store keeps the run; JSON, if not nil, also gets the run and each
	// measurement in mbench's JSON Lines format, flushed as it goes.
	Store Store
	JSON  io.Writer
	// Open, if not nil, is called once the test binaries are built and
	// their benchmarks found, before the shard or the run needs the
	// store: it sets Store and ShardRuns, so that a run whose build
	// fails creates no store.
	Open func(j *Job) error
	// NoiseDir, if not "", is the directory in which mbench doctor
	// -noise keeps this machine's noise (SaveNoise): a run records it
	// with its platform (Platform.NoiseSettings).
	NoiseDir string
}

// DefaultJob holds the defaults of `mbench run`, chosen from the evaluation
// in docs/eval/run.md: short forks of 50ms iterations, 5 to 10 of them.
var DefaultJob = Job{
	Options: func() Options {
		o := DefaultOptions
		o.Config = stop.Config{WarmupMin: 1, WarmupMax: 10, Measure: 5, ForksMin: 5, ForksMax: 10, IterTime: 50 * time.Millisecond}
		return o
	}(),
	Bench:          ".",
	MinPerSuiteRun: 3,
}

// maxCPUs bounds a CPU number, and the length of a CPU list: the size of
// the kernel's CPU set (CPU_SETSIZE), which no pinning can exceed.
const maxCPUs = 1024

// Check reports the job's first setting that is out of range, naming its
// flag.
func (j *Job) Check() error {
	if err := j.Config.Validate(); err != nil {
		return err
	}
	// In a run of several labelled binaries the labels are the versions
	// measured, which must tell the binaries' measurements apart.
	seen := make(map[string]bool)
	for _, a := range j.Args {
		if label, _, ok := strings.Cut(a, "="); ok && label != "" {
			if seen[label] {
				return fmt.Errorf("label %q names two test binaries; give each its own", label)
			}
			seen[label] = true
		}
	}
	if err := CheckPattern(j.Bench); err != nil {
		return err
	}
	if !slices.Contains(stop.Names, j.Criterion) {
		return fmt.Errorf("Criterion %q: want one of %s", j.Criterion, strings.Join(stop.Names, ", "))
	}
	if _, err := stop.New(j.Criterion, j.CriterionOptions); err != nil {
		return err
	}
	// Every threshold, not only the criterion's: a NaN given for another
	// is a mistake too, and must not pass silently.
	co := &j.CriterionOptions
	for _, t := range []struct {
		name string
		v    float64
	}{{"CVThreshold", co.CVThreshold}, {"RCIWThreshold", co.RCIWThreshold}, {"KLDThreshold", co.KLDThreshold}} {
		if math.IsNaN(t.v) || math.IsInf(t.v, 0) || t.v <= 0 {
			return fmt.Errorf("%s %v: want a positive number", t.name, t.v)
		}
	}
	switch {
	case j.ForkTimeout < 0:
		return fmt.Errorf("ForkTimeout %v: want a positive duration, or 0 for none", j.ForkTimeout)
	case j.MinPerSuiteRun < 1:
		return fmt.Errorf("MinPerSuiteRun %d: want at least 1", j.MinPerSuiteRun)
	case j.MinOps < 1:
		return fmt.Errorf("MinOps %d: want at least one operation per iteration", j.MinOps)
	case j.Levels != "" && j.Plan != nil:
		return errors.New("Levels and Plan: give one")
	}
	if err := shard.Validate(j.Shard, j.ShardBasis); err != nil {
		return err
	}
	if j.Levels != "" {
		if _, err := bench.ParseLevels(j.Levels); err != nil {
			return fmt.Errorf("Levels %q: %v", j.Levels, err)
		}
	}
	if _, err := cpuList("-cpuset", j.CPUSet, 0); err != nil {
		return err
	}
	_, err := cpuList("-cpu", j.CPU, 1)
	return err
}

// cpuList parses a list of CPU numbers or GOMAXPROCS values, each at least
// least and below maxCPUs; "" is none.
func cpuList(flag, s string, least int) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	list, err := ParseCPUList(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", flag, err)
	}
	for _, c := range list {
		if c < least {
			return nil, fmt.Errorf("%s %s: %d is below %d", flag, s, c, least)
		}
	}
	return list, nil
}

// Prepared is a job ready to run: built, discovered, and recorded in the
// store as a run that has started.
type Prepared struct {
	Job      Job
	ID       string     // the run's id in the store
	Meta     *bench.Run // the run's description, as stored
	Platform Platform
	Targets  []Target
	// Shard is the part of the suite Targets are, nil for all of it.
	Shard *shard.Plan
	// Versions are the labels of the versions measured side by side,
	// nil for a run of one version.
	Versions []string
	// Warnings are problems with the machine, the test binaries and the
	// plan that make the results less reliable; the run goes on.
	Warnings []string

	levels map[*Target]bench.Levels // with Levels or Plan
	sink   *storeSink
}

// Prepare checks the job, builds its packages or takes its test binaries,
// discovers their benchmarks and creates the run in the store.
func Prepare(ctx context.Context, job Job) (*Prepared, error) {
	if err := job.Check(); err != nil {
		return nil, err
	}
	p := &Prepared{Job: job}
	j := &p.Job
	if j.Plan != nil {
		// The plan counts iterations of its length.
		j.Config.IterTime = j.Plan.IterTime
	}
	p.Platform = Detect(ctx, j.Build.Dir)
	p.Warnings = PlatformWarnings(p.Platform)
	if j.NoiseDir != "" {
		// A noise file that cannot be read costs the run its record of
		// the noise, not the run.
		var err error
		if p.Platform.Noise, err = LoadNoise(j.NoiseDir); err != nil {
			p.warnf("%v", err)
		}
	}
	bins, err := j.binaries(ctx)
	if err != nil {
		return nil, err
	}
	p.Versions = versionsOf(bins)
	for _, b := range bins {
		if p.Versions != nil && b.Label == "" {
			p.warnf("%s has no label: its benchmarks are measured without a version, apart from the versions %s", b.Path, strings.Join(p.Versions, ", "))
		}
	}
	pin, _ := cpuList("-cpuset", j.CPUSet, 0)
	procs, _ := cpuList("-cpu", j.CPU, 1)
	for i := range bins {
		p.Warnings = append(p.Warnings, BinaryWarnings(bins[i].Path, bins[i].Flags)...)
		ts, err := Discover(ctx, &bins[i], j.Bench, procs, pin, j.ForkTimeout)
		if err != nil {
			return nil, err
		}
		for k := range ts {
			if p.Versions != nil {
				ts[k].Version = bins[i].Label
			}
		}
		p.Targets = append(p.Targets, ts...)
	}
	if len(p.Targets) == 0 {
		return nil, fmt.Errorf("no benchmarks match -bench %q in %d test binaries", j.Bench, len(bins))
	}
	if j.Label == "" {
		j.Label = p.Platform.DefaultLabel()
	}
	if j.Label == "" {
		j.Label = "run"
	}
	if j.Open != nil {
		if err := j.Open(j); err != nil {
			return nil, err
		}
	}
	if err := p.shard(); err != nil {
		return nil, err
	}
	p.resolveLevels()
	pf := &p.Platform
	p.Meta = &bench.Run{
		Label: j.Label, Commit: pf.Commit, Dirty: pf.Dirty, Platform: pf.Bench(j.Instance),
		Start: time.Now(), Settings: j.settings(), Benchmarks: keysOf(p.Targets),
	}
	maps.Copy(p.Meta.Settings, pf.NoiseSettings(p.Meta.Start))
	if p.Shard != nil {
		maps.Copy(p.Meta.Settings, p.Shard.Settings())
	}
	if len(p.Versions) > 0 {
		// The order the versions were given in, which compare.Split
		// takes as old, then new: the order in which they were first
		// measured is random.
		order, _ := json.Marshal(p.Versions)
		p.Meta.Settings[bench.SettingVersions] = string(order)
	}
	if p.ID, err = j.Store.CreateRun(p.Meta); err != nil {
		return nil, err
	}
	p.sink = &storeSink{store: j.Store, id: p.ID, next: j.Sink}
	if j.JSON != nil {
		p.sink.json = bench.NewJSONWriter(j.JSON)
		if err := p.sink.json.WriteRun(p.Meta); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// keysOf returns the keys of targets in their order, the order in which
// discovery found them, each once (versions of a benchmark share its key).
func keysOf(targets []Target) []bench.Key {
	var keys []bench.Key
	for _, t := range targets {
		if !slices.Contains(keys, t.Key) {
			keys = append(keys, t.Key)
		}
	}
	return keys
}

func (p *Prepared) warnf(format string, args ...any) {
	p.Warnings = append(p.Warnings, fmt.Sprintf(format, args...))
}

// binaries builds the packages among the job's arguments and takes the
// prebuilt test binaries.
func (j *Job) binaries(ctx context.Context) ([]Binary, error) {
	var patterns []string
	var bins []Binary
	for _, a := range j.Args {
		label, path, hasLabel := strings.Cut(a, "=")
		if !hasLabel {
			label, path = "", a
		}
		if !hasLabel && !strings.HasSuffix(path, ".test") {
			patterns = append(patterns, a)
			continue
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, err
		}
		if st, err := os.Stat(abs); err != nil || st.IsDir() {
			return nil, fmt.Errorf("test binary %s: not a file", path)
		}
		bins = append(bins, Binary{Path: abs, Dir: filepath.Dir(abs), Label: label})
	}
	if len(patterns) == 0 && len(bins) > 0 {
		return bins, nil
	}
	built, err := Build(ctx, j.Build, patterns)
	if err != nil {
		return nil, err
	}
	return append(bins, built...), nil
}

// versionsOf returns the labels of the labelled test binaries among bins,
// in order, when there are at least two: the versions a run measures side
// by side. A run with one labelled binary or none measures one version and
// gets nil; its measurements have no version.
func versionsOf(bins []Binary) []string {
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

// resolveLevels gives each target its fixed configuration, from -levels or
// from the plan: its own, found by key or, when the plan was made at
// another GOMAXPROCS, by package and name alone; the plan's full
// configuration, with a warning, for a benchmark the plan does not know.
func (p *Prepared) resolveLevels() {
	j := &p.Job
	if j.Levels == "" && j.Plan == nil {
		return
	}
	p.levels = make(map[*Target]bench.Levels)
	if j.Plan != nil && j.Plan.InstanceNote() != "" {
		p.warnf("%s: %s", j.PlanFile, j.Plan.InstanceNote())
	}
	for i := range p.Targets {
		t := &p.Targets[i]
		if j.Plan == nil {
			p.levels[t], _ = bench.ParseLevels(j.Levels)
			continue
		}
		if pb, ok := j.Plan.Lookup(t.Key); ok {
			p.levels[t] = pb.Levels
			continue
		}
		var found []optimize.PlanBenchmark
		for _, pb := range j.Plan.Benchmarks {
			if pb.Key.Package == t.Key.Package && pb.Key.Name == t.Key.Name {
				found = append(found, pb)
			}
		}
		if len(found) == 1 {
			p.levels[t] = found[0].Levels
			continue
		}
		p.warnf("%s: not in the plan %s; running the full configuration %v (run mbench optimize again)", t.Key, j.PlanFile, j.Plan.Levels)
		p.levels[t] = j.Plan.Levels
	}
}

// settings are the job's settings as the run records them. A fixed
// configuration (-levels, -plan) replaces the criterion's bounds.
func (j *Job) settings() map[string]string {
	c := j.Config
	s := map[string]string{
		bench.SettingCriterion: j.Criterion, bench.SettingIter: c.IterTime.String(),
		bench.SettingWarmupMin: fmt.Sprint(c.WarmupMin), bench.SettingWarmupMax: fmt.Sprint(c.WarmupMax),
		bench.SettingMeasure:  fmt.Sprint(c.Measure),
		bench.SettingForksMin: fmt.Sprint(c.ForksMin), bench.SettingForksMax: fmt.Sprint(c.ForksMax),
		bench.SettingSeed: fmt.Sprint(j.Seed), bench.SettingWindow: fmt.Sprint(j.CriterionOptions.Window),
		bench.SettingBenchmem: fmt.Sprint(j.Benchmem), bench.SettingMinOps: fmt.Sprint(j.MinOps),
	}
	for k, v := range map[string]string{bench.SettingCPUSet: j.CPUSet, bench.SettingCPU: j.CPU, bench.SettingPlan: j.PlanFile} {
		if v != "" {
			s[k] = v
		}
	}
	fixed := ""
	switch {
	case j.Plan != nil:
		if !j.PlanBound {
			fixed = "plan"
		}
	case j.Levels != "":
		l, _ := bench.ParseLevels(j.Levels)
		s[bench.SettingLevels] = fmt.Sprintf("%d,%d,%d", l.SuiteRuns, l.Forks, l.Iterations)
		fixed = "levels"
	}
	if fixed != "" {
		// A fixed configuration's forks warm up for wi iterations, or
		// up to wi-max while their per-op figures are not steady.
		s[bench.SettingCriterion], s[bench.SettingWarmupFixed] = fixed, fmt.Sprint(c.WarmupMin)
		for _, k := range []string{bench.SettingWarmupMin, bench.SettingMeasure, bench.SettingForksMin, bench.SettingForksMax, bench.SettingWindow} {
			delete(s, k)
		}
	}
	return s
}

// Header describes the run in a line: its id, label and versions, how many
// benchmarks, and the configuration they run in.
func (p *Prepared) Header() string {
	j, c := &p.Job, p.Job.Config
	name := "label " + j.Label
	if p.Versions != nil {
		name += ", versions " + strings.Join(p.Versions, ", ")
	}
	head := fmt.Sprintf("run: %s (%s), %d benchmarks, ", p.ID, name, len(p.Targets))
	switch {
	case j.Plan != nil && j.PlanBound:
		return head + fmt.Sprintf("plan %s as the most forks, fewer once the results settle (-criterion %s); iterations of %v, %d-%d warm-up per fork",
			j.PlanFile, j.Criterion, c.IterTime, c.WarmupMin, c.WarmupMax)
	case j.Plan != nil:
		return head + fmt.Sprintf("plan %s (full run %v), iterations of %v, %s", j.PlanFile, j.Plan.Levels, c.IterTime, fixedWarmup(c))
	case j.Levels != "":
		l, _ := bench.ParseLevels(j.Levels)
		return head + fmt.Sprintf("levels %v (suite runs × forks × iterations), iterations of %v, %s", l, c.IterTime, fixedWarmup(c))
	}
	forks := fmt.Sprintf("%d to %d forks, until the results settle (-criterion %s)", c.ForksMin, c.ForksMax, j.Criterion)
	if j.Criterion == (stop.Static{}).Name() {
		forks = fmt.Sprintf("%d forks (-criterion static)", c.ForksMax)
	}
	return head + fmt.Sprintf("iterations of %v, %d-%d warm-up and %d measured per fork; %s",
		c.IterTime, c.WarmupMin, c.WarmupMax, c.Measure, forks)
}

// fixedWarmup describes the warm-up of a fixed configuration's forks (see
// StaticOptions.Warmup).
func fixedWarmup(c stop.Config) string {
	if c.WarmupMin == 0 {
		return "no warm-up"
	}
	return fmt.Sprintf("warm-up %d-%d per fork", c.WarmupMin, max(c.WarmupMin, c.WarmupMax))
}

// An Outcome is how a run ended.
type Outcome struct {
	Meta    *bench.Run // with its end time
	Results []*Result
	// Status is the run's status in the store: complete, interrupted or
	// failed.
	Status string
	// Stored counts the measurements stored.
	Stored int
	// Warnings are problems recording the end of the run; the
	// measurements are stored.
	Warnings []string
}

// Run measures the prepared job's benchmarks, storing every measurement as
// it is taken, and records how the run ended, with each benchmark's stop
// reason (bench.StopSetting) and the warm-up of its forks and why each
// ended (bench.WarmupSetting, stop.Report.WarmupSummary). A cancelled
// ctx ends the run with ErrInterrupted; the outcome then holds the results
// so far, all stored.
func (p *Prepared) Run(ctx context.Context) (*Outcome, error) {
	j := &p.Job
	o := j.Options
	o.Sink = p.sink
	var results []*Result
	var err error
	switch {
	case j.Plan != nil && j.PlanBound:
		o.TargetConfig = func(t *Target) (stop.Config, bool) {
			l, c := p.levels[t], o.Config
			c.Measure, c.ForksMax = l.Iterations, l.SuiteRuns*l.Forks
			c.ForksMin = min(c.ForksMin, c.ForksMax)
			return c, true
		}
		results, err = Suite(ctx, p.Targets, o)
	case p.levels != nil:
		results, err = StaticSuite(ctx, p.Targets, StaticOptions{Options: o, Warmup: o.Config.WarmupMin, MinPerSuiteRun: j.MinPerSuiteRun,
			Levels: func(t *Target) (bench.Levels, bool) { return p.levels[t], true }})
	default:
		results, err = Suite(ctx, p.Targets, o)
	}
	out := &Outcome{Results: results, Status: "complete", Stored: p.sink.n}
	switch {
	case errors.Is(err, ErrInterrupted):
		out.Status = "interrupted"
	case err != nil || slices.ContainsFunc(results, (*Result).Failed):
		// A run in which a benchmark failed is not complete, even though
		// every other benchmark's measurements are there.
		out.Status = "failed"
	}
	meta := *p.Meta
	meta.End = time.Now()
	out.Meta = &meta
	reasons := make(map[string]string)
	for _, r := range results {
		if r.Report.Forks > 0 {
			t := r.Target
			reasons[bench.StopSetting(t.Key, t.Version)] = r.Report.Reason
			reasons[bench.WarmupSetting(t.Key, t.Version)] = r.Report.WarmupSummary()
		}
	}
	if serr := j.Store.SetSettings(p.ID, reasons); serr != nil {
		out.Warnings = append(out.Warnings, fmt.Sprintf("recording stop reasons: %v", serr))
	}
	if ferr := j.Store.Finish(p.ID, meta.End, out.Status); ferr != nil {
		out.Warnings = append(out.Warnings, fmt.Sprintf("recording the end of run %s: %v", p.ID, ferr))
	}
	if p.sink.json != nil {
		if jerr := p.sink.json.Flush(); jerr != nil {
			out.Warnings = append(out.Warnings, fmt.Sprintf("writing the JSON stream: %v", jerr))
		}
	}
	return out, err
}

// WriteBenchfmt writes the run's measurement iterations to path in the Go
// benchmark format.
func (o *Outcome) WriteBenchfmt(path string) error {
	out := *o.Meta
	out.Measurements = nil
	for _, r := range o.Results {
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

// storeSink stores each measurement durably, then streams it to the JSON
// writer and hands it to the next sink.
type storeSink struct {
	store Store
	id    string
	json  *bench.JSONWriter
	next  Sink
	n     int
}

func (s *storeSink) Append(m *bench.Measurement) error {
	if err := s.store.Append(s.id, *m); err != nil {
		return err
	}
	s.n++
	if s.json != nil {
		if err := s.json.WriteMeasurement(m); err != nil {
			return err
		}
		if err := s.json.Flush(); err != nil {
			return err
		}
	}
	if s.next != nil {
		return s.next.Append(m)
	}
	return nil
}

// TargetName names a target in messages: its key, with its version when it
// has one, since two versions of a benchmark share the key.
func TargetName(t *Target) string {
	if t.Version == "" {
		return t.Key.String()
	}
	return t.Key.String() + " (" + t.Version + ")"
}
