package history

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/mbench/mbench/bench"
)

// Formats are the formats Write knows.
var Formats = []string{"text", "json", "csv"}

// Write writes series in format: text (a table per benchmark, for people),
// json (an array with an object per benchmark) or csv (a row per point).
func Write(w io.Writer, format string, series []*Series) error {
	switch format {
	case "text":
		return writeText(w, series)
	case "json":
		return writeJSON(w, series)
	case "csv":
		return writeCSV(w, series)
	}
	return fmt.Errorf("history: unknown format %q (want text, json or csv)", format)
}

func writeText(w io.Writer, series []*Series) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, s := range series {
		if i > 0 {
			fmt.Fprintln(tw)
		}
		name := s.Name
		if s.Pkg != "" {
			name = s.Pkg + "." + s.Name
		}
		fmt.Fprintf(tw, "%s (%s)\n", name, s.Unit)
		fmt.Fprintf(tw, "run\tlabel\tcenter\t%.0f%% CI\tchange\n", level*100)
		changes := make(map[int]Change)
		for _, c := range s.Changes {
			changes[c.Index] = c
		}
		for p, pt := range s.Points {
			ci := "-"
			if !math.IsNaN(pt.Lo) {
				ci = fmt.Sprintf("[%s, %s]", bench.FormatValue(pt.Lo, s.Unit), bench.FormatValue(pt.Hi, s.Unit))
			}
			change := ""
			if c, ok := changes[p]; ok {
				change = fmt.Sprintf("%s [%s, %s] p=%.2g", pct(c.Ratio), pct(c.Lo), pct(c.Hi), c.P)
			}
			if pt.Mark != "" {
				change = strings.TrimSpace(change + " <- " + pt.Mark)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", pt.Run, pt.Label, bench.FormatValue(pt.Center, s.Unit), ci, change)
		}
		fmt.Fprintln(tw, Summary(s))
	}
	return tw.Flush()
}

// Summary says in a line what s shows: how many changes in how many
// runs, or, when the runs are too few for a step to show, that and how
// many are needed, never "no change" for runs that cannot tell.
func Summary(s *Series) string {
	n := len(s.Points)
	var line string
	switch {
	case n == 1:
		return "one run: a change needs runs before and after it"
	case s.TooFew():
		return TooFewRuns(n, s.MinRuns)
	case len(s.Changes) == 0:
		line = fmt.Sprintf("no change in %d runs", n)
	default:
		line = fmt.Sprintf("%s in %d runs", plural(len(s.Changes), "change", "changes"), n)
	}
	if k := s.Unseen(); k > 0 {
		line += fmt.Sprintf("; a step in the last %s would not show yet (it needs %d runs after it)",
			plural(k, "run", "runs"), s.MinRuns)
	}
	return line
}

// plural returns "1 run" or "n runs".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// pct writes a ratio as a signed relative change, "+25.0%".
func pct(r float64) string {
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return "?"
	}
	return fmt.Sprintf("%+.1f%%", (r-1)*100)
}

type jsonSeries struct {
	Pkg     string       `json:"pkg"`
	Name    string       `json:"name"`
	Unit    string       `json:"unit"`
	Points  []jsonPoint  `json:"points"`
	Changes []jsonChange `json:"changes"`
	// MinRuns tells readers whether an empty Changes can be read as no
	// change: a step shows only with MinRuns points on each side.
	MinRuns int `json:"min_runs"`
}

type jsonPoint struct {
	Run    string       `json:"run"`
	Label  string       `json:"label"`
	Time   string       `json:"time,omitempty"`
	Center bench.Number `json:"center"`
	Lo     bench.Number `json:"lo"`
	Hi     bench.Number `json:"hi"`
	Mark   string       `json:"mark,omitempty"`
}

type jsonChange struct {
	Run   string       `json:"run"`
	Label string       `json:"label"`
	Index int          `json:"index"`
	Ratio bench.Number `json:"ratio"`
	Lo    bench.Number `json:"lo"`
	Hi    bench.Number `json:"hi"`
	P     bench.Number `json:"p"`
}

func writeJSON(w io.Writer, series []*Series) error {
	out := make([]jsonSeries, 0, len(series))
	for _, s := range series {
		js := jsonSeries{Pkg: s.Pkg, Name: s.Name, Unit: s.Unit, Points: []jsonPoint{}, Changes: []jsonChange{}, MinRuns: s.MinRuns}
		for _, p := range s.Points {
			jp := jsonPoint{Run: p.Run, Label: p.Label, Center: bench.Number(p.Center), Lo: bench.Number(p.Lo), Hi: bench.Number(p.Hi), Mark: p.Mark}
			if !p.Time.IsZero() {
				jp.Time = p.Time.UTC().Format("2006-01-02T15:04:05.999999999Z07:00")
			}
			js.Points = append(js.Points, jp)
		}
		for _, c := range s.Changes {
			js.Changes = append(js.Changes, jsonChange{Run: c.Run, Label: c.Label, Index: c.Index,
				Ratio: bench.Number(c.Ratio), Lo: bench.Number(c.Lo), Hi: bench.Number(c.Hi), P: bench.Number(c.P)})
		}
		out = append(out, js)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// csvHeader is the first line of the CSV format: a row per point; the
// change columns are filled on the point of the first run after a step. A
// number that is not finite is an empty field.
var csvHeader = []string{"pkg", "name", "unit", "run", "label", "center", "lo", "hi", "change_ratio", "change_lo", "change_hi", "change_p"}

func writeCSV(w io.Writer, series []*Series) error {
	cw := csv.NewWriter(w)
	cw.Write(csvHeader)
	f := func(v float64) string {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	for _, s := range series {
		changes := make(map[int]Change)
		for _, c := range s.Changes {
			changes[c.Index] = c
		}
		for i, p := range s.Points {
			row := []string{s.Pkg, s.Name, s.Unit, p.Run, p.Label, f(p.Center), f(p.Lo), f(p.Hi), "", "", "", ""}
			if c, ok := changes[i]; ok {
				row[8], row[9], row[10], row[11] = f(c.Ratio), f(c.Lo), f(c.Hi), f(c.P)
			}
			cw.Write(row)
		}
	}
	cw.Flush()
	return cw.Error()
}
