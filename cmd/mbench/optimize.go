package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/optimize"
	"golang.org/x/perf/benchunit"
)

func init() {
	commands = append(commands, &command{
		name:      "optimize",
		usageLine: "[flags] RUN | -replay [-plan FILE] RUN...",
		short:     "derive a minimal repetition plan per benchmark from one full run",
		long: `
Optimize takes one full run made with 'mbench run -levels S,I,D' (S suite
runs × I forks per suite run × D iterations per fork) and, for each
benchmark, simulates every smaller configuration from prefixes of its data:
the first s suite runs, the first i forks of each, the first d iterations of
each fork (µOpTime, Japke et al. 2025). It keeps the cheapest configuration
whose stability metric is at most -threshold (ties: the lower metric), or the
full one, flagged, when none is. The plan is written to -o, for
'mbench run -plan'.

The table gives per benchmark the chosen configuration, its metric, and its
change rate |r_plan - r_full| / r_full, where r is the mean (the median for
the rmad and rciw-median metrics); and, for comparison, the change rates of
the paper's two baselines: the minimum configuration (1 suite run, 3 forks,
1 iteration) and a random one. The totals give the time of the full run and
of the plan (measurement iterations × iteration time) and the fraction of
benchmarks within 1%, 3% and 5% of the full result.

Only configurations with at least -min-forks processes (suite runs × forks,
default 3, as the paper's published code counts) are considered: one
process cannot show how much results vary between processes, and on
go-toml plans of fewer processes missed more real changes. -min-forks 1
follows the paper's text (at least three measurements of any kind).

Metrics: cv (coefficient of variation), rmad (relative median absolute
deviation), rciw-mean (relative width of the percentile-bootstrap interval of
the mean), rciw-t (bootstrap-t interval of the mean), rciw-median (percentile
interval of the median); intervals at -level with -reps replicates.

With -replay, the arguments are full runs of successive versions of the
suite (oldest first). For each pair of consecutive versions and each
benchmark, a change is detected when the two versions' -level intervals of
the mean do not overlap and the change is at least -min-change, once with
all measurements (the full configuration, taken as the truth) and once with
the plan's prefix; the report counts true and false positives and negatives
and their rates (Japke et al. 2025 RQ4). Without -plan the plan is made from the
first run.

RUN is a stored run (label, id, id prefix or "latest") or a JSON Lines
result file of mbench run.
`,
		setFlags: setOptimizeFlags,
	})
}

func setOptimizeFlags(fs *flag.FlagSet) func(*env, []string) error {
	opts := optimize.DefaultOptions
	metric := fs.String("metric", opts.Metric.String(), "stability `metric`: "+strings.Join(optimize.MetricNames, ", "))
	fs.Float64Var(&opts.Threshold, "threshold", opts.Threshold, "largest metric value that counts as stable, a `fraction`")
	fs.Float64Var(&opts.Bootstrap.Level, "level", opts.Bootstrap.Level, "confidence `level` of the intervals")
	fs.IntVar(&opts.Bootstrap.Replicates, "reps", opts.Bootstrap.Replicates, "bootstrap `replicates`")
	fs.Uint64Var(&opts.Seed, "seed", opts.Seed, "random `seed` of the bootstraps and the random baseline")
	opts.MinForks = 3 // the authors' code, and what docs/EVALUATION.md found more accurate on go-toml
	fs.IntVar(&opts.MinForks, "min-forks", opts.MinForks, "consider only configurations with at least `n` processes (suite runs × forks); 1 follows the paper's text")
	unit := fs.String("unit", "sec/op", "the `unit` optimised for")
	out := fs.String("o", "mbench-plan.json", "write the plan to `file`")
	format := fs.String("format", "text", "output `format`: text or json")
	db := fs.String("db", defaultDB, "result database `path` in which inputs that are not files are looked up")
	replay := fs.Bool("replay", false, "replay change detection over full runs of successive versions")
	planFile := fs.String("plan", "", "with -replay, the plan `file` to replay (default: optimise the first run)")
	minChange := fs.Float64("min-change", optimize.DefaultReplayOptions.MinChange, "with -replay, smallest relative change detected, a `fraction`")
	return func(e *env, args []string) error {
		m, err := optimize.ParseMetric(*metric)
		if err != nil {
			return usagef("-metric: %v", err)
		}
		opts.Metric = m
		switch {
		case opts.Threshold <= 0:
			return usagef("-threshold %v: want a positive fraction, e.g. 0.01", opts.Threshold)
		case opts.Bootstrap.Level <= 0 || opts.Bootstrap.Level >= 1:
			return usagef("-level %v: want a number between 0 and 1, e.g. 0.99", opts.Bootstrap.Level)
		case opts.MinForks < 0:
			return usagef("-min-forks %d: want a non-negative count", opts.MinForks)
		case opts.Bootstrap.Replicates < 100:
			return usagef("-reps %d: want at least 100", opts.Bootstrap.Replicates)
		case *format != "text" && *format != "json":
			return usagef("-format %q: want text or json", *format)
		case !*replay && len(args) != 1:
			return usagef("want one full run; got %d arguments", len(args))
		case *replay && len(args) < 2:
			return usagef("-replay wants full runs of at least two versions; got %d", len(args))
		case *planFile != "" && !*replay:
			return usagef("-plan applies to -replay")
		}
		_, tidy := benchunit.Tidy(1, *unit)
		runs, err := loadInputs(e, *db, args)
		if err != nil {
			return err
		}
		versions := make([]optimize.Version, len(runs))
		for i, r := range runs {
			bs, err := collectRun(e, r, args[i], tidy)
			if err != nil {
				return err
			}
			versions[i] = optimize.Version{Label: labelOf(r, args[i]), Benchmarks: bs}
			if i == 0 {
				if opts.IterTime, err = iterTimeOf(r); err != nil {
					e.warnf("%s: %v; times are reported in iterations of unknown length", args[i], err)
				}
			}
		}
		if !*replay {
			rep, err := optimize.Optimize(versions[0].Benchmarks, opts)
			if err != nil {
				return err
			}
			if err := writePlanFile(*out, optimize.NewPlan(rep)); err != nil {
				return err
			}
			if *format == "json" {
				return writeJSON(e, optimizeJSON(rep))
			}
			writeOptimizeReport(e, rep, tidy)
			fmt.Fprintf(e.stderr, "mbench: plan for %d benchmarks written to %s\n", len(rep.Results), *out)
			return nil
		}
		var plan *optimize.Plan
		if *planFile != "" {
			if plan, err = optimize.ReadPlanFile(*planFile); err != nil {
				return err
			}
		} else {
			rep, err := optimize.Optimize(versions[0].Benchmarks, opts)
			if err != nil {
				return err
			}
			plan = optimize.NewPlan(rep)
		}
		ro := optimize.DefaultReplayOptions
		ro.MinChange, ro.Seed = *minChange, opts.Seed
		ro.Bootstrap = opts.Bootstrap
		rr, warnings, err := optimize.Replay(versions, plan, ro)
		for _, w := range warnings {
			e.warnf("%v", w)
		}
		if err != nil {
			return err
		}
		if *format == "json" {
			return writeJSON(e, replayJSON(rr))
		}
		writeReplayReport(e, rr)
		return nil
	}
}

// collectRun lays out a full run's measurements by its levels.
func collectRun(e *env, r *bench.Run, name, unit string) ([]*optimize.Benchmark, error) {
	var full optimize.Levels
	if s := r.Settings["levels"]; s != "" {
		l, err := bench.ParseLevels(s)
		if err != nil {
			return nil, fmt.Errorf("%s: levels setting %q: %v", name, s, err)
		}
		full = l
	} else {
		e.warnf("%s: not a run of mbench run -levels; levels are inferred from the coordinates", name)
	}
	bs, warnings, err := optimize.Collect(r.Measurements, unit, full)
	for _, w := range warnings {
		e.warnf("%s: %v", name, w)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(bs) == 0 {
		return nil, fmt.Errorf("%s: no benchmark with complete %s measurements", name, unit)
	}
	return bs, nil
}

func labelOf(r *bench.Run, arg string) string {
	if r.Label != "" {
		return r.Label
	}
	return arg
}

// iterTimeOf is the iteration time a run was made with.
func iterTimeOf(r *bench.Run) (time.Duration, error) {
	s, ok := r.Settings["iter"]
	if !ok {
		return 0, fmt.Errorf("no iteration time recorded")
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("iteration time %q: %v", s, err)
	}
	return d, nil
}

// writePlanFile writes p to path: through a temporary file renamed into
// place, so that a failed write leaves no half a plan, unless path is not a
// regular file (a device such as /dev/null, or a pipe), which is written
// directly.
func writePlanFile(path string, p *optimize.Plan) error {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		if err := optimize.WritePlan(f, p); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := optimize.WritePlan(f, p); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

func writeOptimizeReport(e *env, rep *optimize.Report, unit string) {
	o := rep.Options
	fmt.Fprintf(e.stdout, "full configuration %v (suite runs × forks × iterations) of %v; metric %s, threshold %s\n\n",
		rep.Levels, o.IterTime, o.Metric, pctStr(o.Threshold))
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "benchmark\tfull\tplan\tmetric\ttime full\ttime plan\tchange\tminimum\trandom\t\n")
	cls := benchunit.ClassOf(unit)
	for _, r := range rep.Results {
		flag := ""
		if !r.Plan.Stable {
			flag = "not stable"
		}
		fmt.Fprintf(tw, "%s\t%s\t%v\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Key, benchunit.Scale(r.Full.Result, cls), r.Plan.Levels,
			pctStr(r.Plan.Metric), iterTime(r.Full.Levels.Total(), o.IterTime), iterTime(r.Plan.Levels.Total(), o.IterTime),
			pctStr(r.Plan.Change), pctStr(r.Minimum.Change), pctStr(r.Random.Change), flag)
	}
	tw.Flush()
	fmt.Fprintln(e.stdout)
	tw = tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "suite\ttime\tsaved\tstable\twithin 1%%\twithin 3%%\twithin 5%%\n")
	fmt.Fprintf(tw, "full\t%s\t-\t-\t100%%\t100%%\t100%%\n", iterTime(rep.FullIterations, o.IterTime))
	n := len(rep.Results)
	for _, s := range []struct {
		name string
		sum  optimize.Summary
	}{{"plan", rep.Plan}, {"minimum", rep.Minimum}, {"random", rep.Random}} {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d/%d\t%s\t%s\t%s\n", s.name, iterTime(s.sum.Iterations, o.IterTime), pctStr(s.sum.Saving),
			s.sum.Stable, n, pctStr(s.sum.Within1), pctStr(s.sum.Within3), pctStr(s.sum.Within5))
	}
	tw.Flush()
}

func writeReplayReport(e *env, rr *optimize.ReplayReport) {
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "versions\tbenchmarks\tchanged (full)\tchanged (plan)\tTP\tFP\tFN\tTN\tFPR\tFNR\n")
	row := func(name string, n int, c optimize.Counts, full, plan int) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\n", name, n, full, plan, c.TP, c.FP, c.FN, c.TN, pctStr(c.FPR()), pctStr(c.FNR()))
	}
	var total, tFull, tPlan int
	for _, p := range rr.Pairs {
		full, plan := 0, 0
		for _, c := range p.Comparisons {
			if c.Full.Direction != optimize.Unchanged {
				full++
			}
			if c.Plan.Direction != optimize.Unchanged {
				plan++
			}
		}
		total, tFull, tPlan = total+len(p.Comparisons), tFull+full, tPlan+plan
		row(p.Old+" → "+p.New, len(p.Comparisons), p.Counts, full, plan)
	}
	row("all", total, rr.Counts, tFull, tPlan)
	tw.Flush()
	for _, p := range rr.Pairs {
		for _, c := range p.Comparisons {
			if c.Outcome() == optimize.TrueNegative {
				continue
			}
			fmt.Fprintf(e.stdout, "%s → %s %s: full %s, plan %v %s (%s)\n", p.Old, p.New, c.Key,
				changeWord(c.Full), c.Levels, changeWord(c.Plan), outcomeWord(c.Outcome()))
		}
	}
}

func changeWord(d optimize.Detection) string {
	switch d.Direction {
	case optimize.Slower:
		return fmt.Sprintf("slower %+.1f%%", 100*d.Change)
	case optimize.Faster:
		return fmt.Sprintf("faster %+.1f%%", 100*d.Change)
	}
	return fmt.Sprintf("no change (%+.1f%%)", 100*d.Change)
}

func outcomeWord(o optimize.Outcome) string {
	switch o {
	case optimize.TruePositive:
		return "true positive"
	case optimize.FalsePositive:
		return "false positive"
	case optimize.FalseNegative:
		return "false negative"
	}
	return "true negative"
}

func pctStr(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(100*v, 'f', 2, 64) + "%"
}

// iterTime formats n iterations of d each, or the count when d is unknown.
func iterTime(n int, d time.Duration) string {
	if d <= 0 {
		return fmt.Sprintf("%d iters", n)
	}
	return (time.Duration(n) * d).Round(time.Millisecond).String()
}

func writeJSON(e *env, v any) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// num is a float64 that is null in JSON when it is NaN or infinite.
type num float64

func (n num) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(n))
}

type jsonLevels struct {
	S int `json:"s"`
	I int `json:"i"`
	D int `json:"d"`
}

func levelsJSON(l optimize.Levels) jsonLevels { return jsonLevels{l.SuiteRuns, l.Forks, l.Iterations} }

type jsonChoice struct {
	Levels jsonLevels `json:"levels"`
	Metric num        `json:"metric"`
	Stable bool       `json:"stable"`
	Result num        `json:"result"`
	Change num        `json:"change"`
}

func choiceJSON(c optimize.Choice) jsonChoice {
	return jsonChoice{levelsJSON(c.Levels), num(c.Metric), c.Stable, num(c.Result), num(c.Change)}
}

type jsonSummary struct {
	Iterations int     `json:"iterations"`
	Seconds    float64 `json:"seconds"`
	Saving     num     `json:"saving"`
	Stable     int     `json:"stable"`
	Within1    num     `json:"within1"`
	Within3    num     `json:"within3"`
	Within5    num     `json:"within5"`
}

func summaryJSON(s optimize.Summary) jsonSummary {
	return jsonSummary{s.Iterations, s.Time.Seconds(), num(s.Saving), s.Stable, num(s.Within1), num(s.Within3), num(s.Within5)}
}

// optimizeJSON is the documented JSON form of a report (docs/formats.md).
func optimizeJSON(rep *optimize.Report) any {
	type row struct {
		Package string     `json:"pkg"`
		Name    string     `json:"name"`
		Procs   int        `json:"procs"`
		Full    jsonChoice `json:"full"`
		Plan    jsonChoice `json:"plan"`
		Minimum jsonChoice `json:"minimum"`
		Random  jsonChoice `json:"random"`
	}
	out := struct {
		Metric     string      `json:"metric"`
		Threshold  float64     `json:"threshold"`
		IterTime   string      `json:"iter_time"`
		Levels     jsonLevels  `json:"levels"`
		Benchmarks []row       `json:"benchmarks"`
		Full       jsonSummary `json:"full"`
		Plan       jsonSummary `json:"plan"`
		Minimum    jsonSummary `json:"minimum"`
		Random     jsonSummary `json:"random"`
	}{
		Metric: rep.Options.Metric.String(), Threshold: rep.Options.Threshold, IterTime: rep.Options.IterTime.String(),
		Levels: levelsJSON(rep.Levels), Plan: summaryJSON(rep.Plan), Minimum: summaryJSON(rep.Minimum), Random: summaryJSON(rep.Random),
		Full: jsonSummary{Iterations: rep.FullIterations, Seconds: rep.FullTime.Seconds(), Stable: -1, Within1: 1, Within3: 1, Within5: 1},
	}
	for _, r := range rep.Results {
		out.Benchmarks = append(out.Benchmarks, row{r.Key.Package, r.Key.Name, r.Key.Procs,
			choiceJSON(r.Full), choiceJSON(r.Plan), choiceJSON(r.Minimum), choiceJSON(r.Random)})
	}
	return out
}

// replayJSON is the documented JSON form of a replay (docs/formats.md).
func replayJSON(rr *optimize.ReplayReport) any {
	type detection struct {
		Change    num    `json:"change"`
		Direction string `json:"direction"`
	}
	type comparison struct {
		Package string     `json:"pkg"`
		Name    string     `json:"name"`
		Procs   int        `json:"procs"`
		Levels  jsonLevels `json:"levels"`
		Full    detection  `json:"full"`
		Plan    detection  `json:"plan"`
		Outcome string     `json:"outcome"`
	}
	type counts struct {
		TP       int `json:"tp"`
		FP       int `json:"fp"`
		FN       int `json:"fn"`
		TN       int `json:"tn"`
		Reversed int `json:"reversed"`
		FPR      num `json:"fpr"`
		FNR      num `json:"fnr"`
	}
	countsOf := func(c optimize.Counts) counts {
		return counts{c.TP, c.FP, c.FN, c.TN, c.Reversed, num(c.FPR()), num(c.FNR())}
	}
	dir := func(d optimize.Detection) detection {
		w := map[optimize.Direction]string{optimize.Slower: "slower", optimize.Faster: "faster"}[d.Direction]
		if w == "" {
			w = "unchanged"
		}
		return detection{num(d.Change), w}
	}
	type pair struct {
		Old         string       `json:"old"`
		New         string       `json:"new"`
		Comparisons []comparison `json:"comparisons"`
		Counts      counts       `json:"counts"`
	}
	out := struct {
		MinChange float64 `json:"min_change"`
		Level     float64 `json:"level"`
		Pairs     []pair  `json:"pairs"`
		Counts    counts  `json:"counts"`
	}{MinChange: rr.Options.MinChange, Level: rr.Options.Bootstrap.Level, Counts: countsOf(rr.Counts)}
	for _, p := range rr.Pairs {
		jp := pair{Old: p.Old, New: p.New, Counts: countsOf(p.Counts)}
		for _, c := range p.Comparisons {
			jp.Comparisons = append(jp.Comparisons, comparison{c.Key.Package, c.Key.Name, c.Key.Procs, levelsJSON(c.Levels),
				dir(c.Full), dir(c.Plan), strings.ReplaceAll(outcomeWord(c.Outcome()), " ", "-")})
		}
		out.Pairs = append(out.Pairs, jp)
	}
	return out
}
