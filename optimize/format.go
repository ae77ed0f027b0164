package optimize

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/mbench/mbench/bench"
)

// A Format is an output format of a Report or a ReplayReport.
type Format string

const (
	Text Format = "text"
	JSON Format = "json"
)

// Formats lists the formats the Write methods accept.
var Formats = []Format{Text, JSON}

// Write writes r to w in the given format. Text is for people and may
// change; JSON is stable and documented in docs/formats.md ("mbench
// optimize -format json").
func (r *Report) Write(w io.Writer, f Format) error {
	return write(w, f, r.writeText, r.json)
}

// Write writes r to w in the given format. Text is for people and may
// change; JSON is stable and documented in docs/formats.md ("mbench
// optimize -replay -format json").
func (r *ReplayReport) Write(w io.Writer, f Format) error {
	return write(w, f, r.writeText, r.json)
}

// write writes in format f: text with text, JSON as the value form gives.
func write(w io.Writer, f Format, text func(io.Writer) error, form func() any) error {
	switch f {
	case Text:
		return text(w)
	case JSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(form())
	}
	return fmt.Errorf("unknown format %q", f)
}

func (r *Report) writeText(w io.Writer) error {
	o := r.Options
	if r.Instances > 1 {
		fmt.Fprintf(w, "full configuration %d×%v (instances × suite runs × forks × iterations) of %v; metric %s, threshold %s\n\n",
			r.Instances, r.Levels, o.IterTime, o.Metric, pct(o.Threshold))
	} else {
		fmt.Fprintf(w, "full configuration %v (suite runs × forks × iterations) of %v; metric %s, threshold %s\n\n",
			r.Levels, o.IterTime, o.Metric, pct(o.Threshold))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "benchmark\tfull\tplan\tmetric\ttime full\ttime plan\tchange\tminimum\trandom\t\n")
	for _, res := range r.Results {
		flag := ""
		if !res.Plan.Stable {
			flag = "not stable"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", res.Key, bench.FormatValue(res.Full.Result, r.Unit), r.config(res.Plan),
			pct(res.Plan.Metric), iterTime(res.Full.cost(), o.IterTime), iterTime(res.Plan.cost(), o.IterTime),
			pct(res.Plan.Change), pct(res.Minimum.Change), pct(res.Random.Change), flag)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "suite\ttime\tsaved\tstable\twithin 1%%\twithin 3%%\twithin 5%%\n")
	fmt.Fprintf(tw, "full\t%s\t-\t-\t100%%\t100%%\t100%%\n", iterTime(r.FullIterations, o.IterTime))
	n := len(r.Results)
	for _, s := range []struct {
		name string
		sum  Summary
	}{{"plan", r.Plan}, {"minimum", r.Minimum}, {"random", r.Random}} {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d/%d\t%s\t%s\t%s\n", s.name, iterTime(s.sum.Iterations, o.IterTime), pct(s.sum.Saving),
			s.sum.Stable, n, pct(s.sum.Within1), pct(s.sum.Within3), pct(s.sum.Within5))
	}
	return tw.Flush()
}

func (r *ReplayReport) writeText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "versions\tbenchmarks\tchanged (full)\tchanged (plan)\tTP\tFP\tFN\tTN\tFPR\tFNR\n")
	row := func(name string, n int, c Counts, full, plan int) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\n", name, n, full, plan, c.TP, c.FP, c.FN, c.TN, pct(c.FPR()), pct(c.FNR()))
	}
	var total, tFull, tPlan int
	for _, p := range r.Pairs {
		full, plan := 0, 0
		for _, c := range p.Comparisons {
			if c.Full.Direction != Unchanged {
				full++
			}
			if c.Plan.Direction != Unchanged {
				plan++
			}
		}
		total, tFull, tPlan = total+len(p.Comparisons), tFull+full, tPlan+plan
		row(p.Old+" → "+p.New, len(p.Comparisons), p.Counts, full, plan)
	}
	row("all", total, r.Counts, tFull, tPlan)
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, p := range r.Pairs {
		for _, c := range p.Comparisons {
			if c.Outcome() == TrueNegative {
				continue
			}
			plan := c.Levels.String()
			if c.Instances > 1 {
				plan = fmt.Sprintf("%d×%v", c.Instances, c.Levels)
			}
			fmt.Fprintf(w, "%s → %s %s: full %s, plan %s %s (%s)\n", p.Old, p.New, c.Key,
				changeWord(c.Full), plan, changeWord(c.Plan), c.Outcome().word())
		}
	}
	return nil
}

// config writes a choice's configuration: "S,I,D", and "N×S,I,D" with its
// instances when the report has several.
func (r *Report) config(c Choice) string {
	if r.Instances > 1 {
		return fmt.Sprintf("%d×%v", max(1, c.Instances), c.Levels)
	}
	return c.Levels.String()
}

// changeWord says what a detection found, with its change.
func changeWord(d Detection) string {
	if d.Direction == Unchanged {
		return fmt.Sprintf("no change (%+.1f%%)", 100*d.Change)
	}
	return fmt.Sprintf("%s %+.1f%%", d.Direction, 100*d.Change)
}

// word spells out the outcome: "true positive", ….
func (o Outcome) word() string {
	return [...]string{"true negative", "true positive", "false positive", "false negative"}[o]
}

// pct formats a fraction as a percentage, NaN as "-".
func pct(v float64) string {
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
