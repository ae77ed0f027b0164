package run

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/stats"
)

// WriteSummary writes the per-benchmark table of results to w, one per
// version when the run measured several, with a legend of its columns and
// of why each benchmark stopped, and the time deciding when to stop took;
// it passes the results' notes and failures, one line each, to warnf, and
// returns how many benchmarks failed. Every value is written by
// bench.FormatValue, and every word a reader may not know is explained
// once, below the table.
func WriteSummary(w io.Writer, warnf func(format string, args ...any), results []*Result, o *Options, wall time.Duration) int {
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
		fmt.Fprintf(w, "pkg: %s\n", pkg)
	}
	failed := 0
	var checkTime, benchTime time.Duration
	var codes []string
	boot := stats.Bootstrap{Level: summaryLevel, Replicates: 10000}
	level := compare.Percent(summaryLevel) + "%"
	multi := slices.ContainsFunc(results, func(r *Result) bool { return r.Target.Version != results[0].Target.Version })
	var tw *tabwriter.Writer
	for i, r := range results {
		// Results are in target order, so each version's are together; a
		// table per version, headed like the configuration line that
		// separates the versions in the Go benchmark format, keeps the
		// rows of the same benchmark in two versions apart.
		if v := r.Target.Version; i == 0 || v != results[i-1].Target.Version {
			if tw != nil {
				tw.Flush()
				fmt.Fprintln(w)
			}
			if v != "" || multi {
				fmt.Fprintf(w, "version: %s\n", v)
			}
			tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			fmt.Fprintf(tw, "benchmark\tmean\tmedian\t%s CI\t±\tB/op\tallocs/op\tforks\twarm-up\tmeasured\tstopped\n", level)
		}
		checkTime += r.Report.CheckTime
		benchTime += r.Time
		warm := 0
		for _, w := range r.Report.Warmup {
			warm += w
		}
		code := StopCode(r)
		codes = append(codes, code)
		s := Summarize(r, o.Metric, boot, o.Seed)
		switch {
		case r.Failed():
			failed++
			fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t-\t-\t%d\t%d\t-\t%s\n", name(r.Target.Key), r.Report.Forks, warm, code)
		case s.Iterations == 0:
			fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t-\t-\t0\t0\t0\t%s\n", name(r.Target.Key), code)
		default:
			ci, half := "-", "-"
			if !isNaN(s.CI.Lo) {
				ci = "[" + bench.FormatValue(s.CI.Lo, o.Metric) + ", " + bench.FormatValue(s.CI.Hi, o.Metric) + "]"
				half = fmt.Sprintf("±%.2f%%", 50*s.CI.RelWidth())
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\n", name(r.Target.Key),
				bench.FormatValue(s.Mean, o.Metric), bench.FormatValue(s.Median, o.Metric), ci, half,
				bench.FormatValue(s.BytesPerOp, "B/op"), bench.FormatValue(s.AllocsPerOp, "allocs/op"),
				s.Forks, warm, s.Iterations, code)
		}
	}
	if tw != nil {
		tw.Flush()
	}
	fmt.Fprintf(w, "\n%s CI: holds the mean with %s confidence (bootstrap over forks, then iterations); ±: half its width, in %% of the mean\n",
		level, level)
	fmt.Fprintln(w, "forks: processes run; warm-up, measured: iterations discarded and kept, over all forks")
	for i, l := range StopLegend(codes, o) {
		head := "         "
		if i == 0 {
			head = "stopped: "
		}
		fmt.Fprintf(w, "%s%-10s  %s\n", head, l.Code, l.Text)
	}
	fmt.Fprintf(w, "\nwall time %v; deciding when to stop took %v (%.3f%% of the time benchmarks ran)\n",
		wall.Round(time.Millisecond), checkTime.Round(time.Microsecond), 100*checkTime.Seconds()/max(benchTime.Seconds(), 1e-9))
	notes := Notes(results, o.Metric, func(r *Result) string {
		if v := r.Target.Version; v != "" {
			return name(r.Target.Key) + " (" + v + ")"
		}
		return name(r.Target.Key)
	})
	for _, n := range notes {
		warnf("%s", n)
	}
	for _, r := range results {
		for _, fe := range r.Failures {
			warnf("%s failed: %v\n%s", TargetName(r.Target), fe.Err, indent(fe.Output))
		}
	}
	return failed
}

// summaryLevel is the confidence level of the run table's intervals.
const summaryLevel = 0.99

func isNaN(v float64) bool { return v != v }

func indent(s string) string {
	if s == "" {
		return ""
	}
	return "\t" + strings.ReplaceAll(s, "\n", "\n\t")
}
