package run

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
	"golang.org/x/perf/benchunit"
)

// WriteSummary writes the per-benchmark table of results to w, one per
// version when the run measured several, with the legend of its stop codes
// and the time the criterion checks took; it passes the results' notes and
// failures, one line each, to warnf, and returns how many benchmarks failed.
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
	boot := stats.Bootstrap{Level: 0.99, Replicates: 10000}
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
			fmt.Fprintf(tw, "benchmark\tmean\tmedian\t99%% CI\tRCIW\tB/op\tallocs/op\tforks\twarm-up\titers\tcheck\tstop\n")
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
			fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t-\t-\t%d\t%d\t-\t-\t%s\n", name(r.Target.Key), r.Report.Forks, warm, code)
		case s.Iterations == 0:
			fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t-\t-\t0\t0\t0\t-\t%s\n", name(r.Target.Key), code)
		default:
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
	}
	if tw != nil {
		tw.Flush()
	}
	for i, l := range StopLegend(codes, o) {
		head := "      "
		if i == 0 {
			head = "\nstop: "
		}
		fmt.Fprintf(w, "%s%-7s %s\n", head, l.Code, l.Text)
	}
	fmt.Fprintf(w, "\nwall time %v; criterion checks took %v (%.3f%% of benchmark time)\n",
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
