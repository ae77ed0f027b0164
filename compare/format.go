package compare

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/mbench/mbench/bench"
)

// A Format is an output format of a comparison.
type Format string

const (
	Text     Format = "text"
	Markdown Format = "markdown"
	JSON     Format = "json"
	CSV      Format = "csv"
)

// Formats lists the formats Write accepts.
var Formats = []Format{Text, Markdown, JSON, CSV}

// Write writes r to w in the given format. Text and Markdown are for people
// and may change; JSON and CSV are stable and documented in docs/formats.md.
func (r *Result) Write(w io.Writer, f Format) error {
	switch f {
	case Text:
		return r.writeText(w)
	case Markdown:
		return r.writeMarkdown(w)
	case JSON:
		return r.writeJSON(w)
	case CSV:
		return r.writeCSV(w)
	}
	return fmt.Errorf("unknown format %q", f)
}

func (r *Result) betterWord() string {
	switch r.Better {
	case -1:
		return "lower is better"
	case +1:
		return "higher is better"
	}
	return "direction of improvement unknown"
}

// Header returns the two lines that head a table of r: what is compared
// at which confidence level and threshold, and what the figures of a row
// are, so that old, new and change read as one story (see Centers).
func (r *Result) Header() (title, figures string) {
	title = fmt.Sprintf("%s (%s): %s vs %s; %s%% CI of new/old; %s",
		r.Metric, r.betterWord(), r.NewLabel, r.OldLabel, Percent(r.Level), r.thresholdWords())
	return title, r.how() + ": old, new = " + r.centersWords() + "; change = new/old - 1"
}

// how says how the two sides were measured.
func (r *Result) how() string {
	switch {
	case r.Turns:
		return "interleaved in turns"
	case r.Interleaved:
		return "interleaved, a process of each per round"
	case r.Paired:
		return "duet"
	}
	return "unpaired"
}

// centersWords says what Side.Center is.
func (r *Result) centersWords() string {
	switch r.Centers {
	case CentersTurns:
		return "geomean over rounds of each round's median pair by ratio"
	case CentersRounds:
		return "geomean over rounds of each process's mean"
	case CentersDuet:
		return "geomean over runs of each run's paired iterations"
	}
	return r.Centers + " of all iterations"
}

// Percent writes a confidence level such as 0.99375 as a percentage for
// people: "99.375", rounded to three decimals, without trailing zeros.
func Percent(level float64) string {
	return strconv.FormatFloat(math.Round(level*1e5)/1e3, 'f', -1, 64)
}

// thresholdWords says what the threshold does to the verdicts.
func (r *Result) thresholdWords() string {
	switch {
	case r.Threshold == 0 && r.Metric == "allocs/op":
		return "exact counts: any change shown is reported"
	case r.Threshold == 0:
		return "any change shown is reported"
	}
	return "no change: the interval within ±" + pct(r.Threshold, false)
}

// verdictWord is the verdict as the text and markdown tables show it: an
// inconclusive verdict carries the change the data could have shown.
func (r *Result) verdictWord(row *Row) string {
	w := r.Word(row.Verdict)
	if row.Verdict == Inconclusive && !math.IsNaN(row.Resolution) {
		w += " (±" + pct(row.Resolution, false) + ")"
	}
	return w
}

// scale formats v in the metric's unit, as benchstat does, within a
// bounded width (bench.FormatValue).
func (r *Result) scale(v float64) string {
	return bench.FormatValue(v, r.Metric)
}

// maxPercent is the largest magnitude pct writes with two decimals,
// "999999.99%"; a larger one is in exponent form, "1.00e+08%", so that no
// change takes more than eleven characters.
const maxPercent = 1e6

// pct formats a fraction as a percentage; signed adds "+" to positive
// values. An infinite change, from 0 to something, is "∞".
func pct(f float64, signed bool) string {
	var s string
	switch p := 100 * f; {
	case math.IsNaN(f):
		return "-"
	case math.IsInf(f, -1):
		return "-∞"
	case math.IsInf(f, 1):
		s = "∞"
	case math.Abs(p) < maxPercent:
		s = strconv.FormatFloat(p, 'f', 2, 64) + "%"
	default:
		// 100*f can overflow float64 where f does not.
		s = new(big.Float).Mul(big.NewFloat(f), big.NewFloat(100)).Text('e', 2) + "%"
	}
	if signed && f >= 0 && !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

// FormatChange formats a relative change f (new/old - 1) as the tables of
// a comparison do: a signed percentage with two decimals, "+10.53%", in
// exponent form beyond ±999999.99%, "∞" for a change from 0 and "-" for
// none.
func FormatChange(f float64) string { return pct(f, true) }

func (row *Row) interval() string {
	if math.IsNaN(row.Ratio.Lo) {
		return "-"
	}
	return "[" + pct(row.Ratio.Lo-1, true) + ", " + pct(row.Ratio.Hi-1, true) + "]"
}

func (s Side) count() string {
	if s.Instances > 1 {
		perInst := (s.Forks + s.Instances - 1) / s.Instances
		return fmt.Sprintf("%d×%d×%d", s.Instances, perInst, (s.N+s.Forks-1)/s.Forks)
	}
	if s.Forks > 1 {
		return fmt.Sprintf("%d×%d", s.Forks, (s.N+s.Forks-1)/s.Forks)
	}
	return strconv.Itoa(s.N)
}

// names returns how each row's benchmark is shown: without its package
// when all rows share one package (which the header then names).
func (r *Result) names() (pkg string, name func(bench.Key) string) {
	shared := true
	if len(r.Rows) > 0 {
		pkg = r.Rows[0].Key.Package
	}
	for _, row := range r.Rows {
		if row.Key.Package != pkg {
			shared = false
		}
	}
	if !shared {
		return "", bench.Key.String
	}
	return pkg, func(k bench.Key) string { return strings.TrimPrefix(k.FullName(), "Benchmark") }
}

// Name returns how the tables show the benchmark k: without its package
// when every row shares one (which a "pkg:" line then names).
func (r *Result) Name(k bench.Key) string {
	_, name := r.names()
	return name(k)
}

func (r *Result) writeText(w io.Writer) error {
	title, figures := r.Header()
	fmt.Fprintf(w, "%s\n%s\n", EscapeText(title), EscapeText(figures))
	pkg, name := r.names()
	if pkg != "" {
		fmt.Fprintf(w, "pkg: %s\n", EscapeText(pkg))
	}
	fmt.Fprintln(w)
	colour := coloured(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "benchmark\t%s\tn\t%s\tn\tchange\t%s%% CI\tverdict\t\n", EscapeText(r.OldLabel), EscapeText(r.NewLabel), Percent(r.Level))
	for i := range r.Rows {
		row := &r.Rows[i]
		// The verdict is the last column: the colour's codes widen only
		// the padding after it, which shows nothing.
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", EscapeText(name(row.Key)),
			r.scale(row.Old.Center), row.Old.count(), r.scale(row.New.Center), row.New.count(),
			pct(row.Change(), true), row.interval(), paint(r.verdictWord(row), row.Verdict, colour))
	}
	if r.Geomean.N > 1 {
		fmt.Fprintf(tw, "geomean\t%s\t\t%s\t\t%s\t\t\t\n", r.scale(r.Geomean.Old), r.scale(r.Geomean.New), pct(r.Geomean.Ratio-1, true))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	r.writeNotes(w, "", EscapeText)
	fmt.Fprintf(w, "\n%s: ", EscapeText(r.Metric))
	r.writeSummary(w, colour)
	fmt.Fprintln(w)
	return nil
}

// writeNotes writes the meaning of an inconclusive verdict when there is
// one, row notes, one-sided benchmarks and warnings, each line escaped by
// escape and prefixed by prefix.
func (r *Result) writeNotes(w io.Writer, prefix string, escape func(string) string) {
	var lines []string
	if r.count(Inconclusive) > 0 {
		reach := "reaches past ±" + pct(r.Threshold, false) + " but does not show a change beyond it"
		if r.Threshold == 0 {
			reach = "includes no change but is not exactly 1"
		}
		lines = append(lines, "inconclusive (±x%): the interval "+reach+
			"; the data resolve only changes of about ±x% (more forks or iterations narrow the interval)")
	}
	for _, row := range r.Rows {
		if row.Note != "" {
			lines = append(lines, fmt.Sprintf("%s: %s", row.Key, row.Note))
		}
	}
	for _, k := range r.OnlyOld {
		lines = append(lines, fmt.Sprintf("%s: only in %s", k, r.OldLabel))
	}
	for _, k := range r.OnlyNew {
		lines = append(lines, fmt.Sprintf("%s: only in %s", k, r.NewLabel))
	}
	for _, warn := range r.Warnings {
		lines = append(lines, "warning: "+warn)
	}
	if len(lines) > 0 {
		fmt.Fprintln(w)
	}
	for _, l := range lines {
		fmt.Fprintf(w, "%s%s\n", prefix, escape(l))
	}
}

// count returns the bench.Number of rows with verdict v.
func (r *Result) count(v Verdict) int {
	n := 0
	for _, row := range r.Rows {
		if row.Verdict == v {
			n++
		}
	}
	return n
}

func (r *Result) writeMarkdown(w io.Writer) error {
	text := func(s string) string { return EscapeMarkdown(s, false) }
	fmt.Fprintf(w, "### %s: %s\n\n", text(r.Metric), r.SummaryLine())
	title, figures := r.Header()
	fmt.Fprintf(w, "%s\n\n%s\n\n", text(title), text(figures))
	pkg, name := r.names()
	if pkg != "" {
		fmt.Fprintf(w, "pkg: %s\n\n", MarkdownCode(pkg, false))
	}
	fmt.Fprintf(w, "| benchmark | %s | %s | change | %s%% CI | verdict |\n", EscapeMarkdown(r.OldLabel, true), EscapeMarkdown(r.NewLabel, true), Percent(r.Level))
	fmt.Fprintf(w, "|---|---:|---:|---:|---|---|\n")
	for i := range r.Rows {
		row := &r.Rows[i]
		v := r.verdictWord(row)
		if row.Verdict == Worse {
			v = "**" + v + "**"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", MarkdownCode(name(row.Key), true), r.scale(row.Old.Center), r.scale(row.New.Center),
			pct(row.Change(), true), row.interval(), v)
	}
	if r.Geomean.N > 1 {
		fmt.Fprintf(w, "| geomean | %s | %s | %s | | |\n", r.scale(r.Geomean.Old), r.scale(r.Geomean.New), pct(r.Geomean.Ratio-1, true))
	}
	r.writeNotes(w, "> ", text)
	return nil
}

// jsonResult is the stable JSON form of a Result (docs/formats.md).
type jsonResult struct {
	Old       string       `json:"old"`
	New       string       `json:"new"`
	Metric    string       `json:"metric"`
	Better    int          `json:"better"`
	Stat      string       `json:"stat"`
	Centers   string       `json:"centers"`
	Level     bench.Number `json:"level"`
	Threshold bench.Number `json:"threshold"`
	Rows      []jsonRow    `json:"rows"`
	OnlyOld   []jsonKey    `json:"only_old"`
	OnlyNew   []jsonKey    `json:"only_new"`
	Geomean   *jsonGeo     `json:"geomean,omitempty"`
	Summary   jsonSummary  `json:"summary"`
	Warnings  []string     `json:"warnings"`
}

// jsonSummary counts the rows by verdict (Summary); higher and lower
// appear only for a metric whose better direction is unknown.
type jsonSummary struct {
	Worse        int `json:"worse"`
	Better       int `json:"better"`
	NoChange     int `json:"no_change"`
	Inconclusive int `json:"inconclusive"`
	Higher       int `json:"higher,omitempty"`
	Lower        int `json:"lower,omitempty"`
}

type jsonKey struct {
	Package string `json:"pkg"`
	Name    string `json:"name"`
	Procs   int    `json:"procs"`
}

type jsonSide struct {
	Center    bench.Number `json:"center"`
	N         int          `json:"n"`
	Forks     int          `json:"forks"`
	Instances int          `json:"instances,omitempty"` // only when more than one
}

// sideJSON is s in the JSON form.
func sideJSON(s Side) jsonSide {
	j := jsonSide{Center: bench.Number(s.Center), N: s.N, Forks: s.Forks}
	if s.Instances > 1 {
		j.Instances = s.Instances
	}
	return j
}

type jsonRow struct {
	jsonKey
	Old        jsonSide     `json:"old"`
	New        jsonSide     `json:"new"`
	Ratio      bench.Number `json:"ratio"`
	Lo         bench.Number `json:"lo"`
	Hi         bench.Number `json:"hi"`
	Method     string       `json:"method"`
	Verdict    string       `json:"verdict"`
	Resolution bench.Number `json:"resolution"`
	Note       string       `json:"note,omitempty"`
}

type jsonGeo struct {
	Old   bench.Number `json:"old"`
	New   bench.Number `json:"new"`
	Ratio bench.Number `json:"ratio"`
	N     int          `json:"n"`
}

func keysJSON(keys []bench.Key) []jsonKey {
	out := make([]jsonKey, 0, len(keys))
	for _, k := range keys {
		out = append(out, jsonKey{k.Package, k.Name, k.Procs})
	}
	return out
}

func (r *Result) writeJSON(w io.Writer) error {
	jr := jsonResult{
		Old: r.OldLabel, New: r.NewLabel, Metric: r.Metric, Better: r.Better, Stat: r.Stat.String(), Centers: r.Centers,
		Level: bench.Number(r.Level), Threshold: bench.Number(r.Threshold),
		OnlyOld: keysJSON(r.OnlyOld), OnlyNew: keysJSON(r.OnlyNew), Warnings: r.Warnings,
		Rows: make([]jsonRow, 0, len(r.Rows)),
	}
	if jr.Warnings == nil {
		jr.Warnings = []string{}
	}
	for _, row := range r.Rows {
		jr.Rows = append(jr.Rows, jsonRow{
			jsonKey: jsonKey{row.Key.Package, row.Key.Name, row.Key.Procs},
			Old:     sideJSON(row.Old),
			New:     sideJSON(row.New),
			Ratio:   bench.Number(row.Ratio.Center), Lo: bench.Number(row.Ratio.Lo), Hi: bench.Number(row.Ratio.Hi),
			Method: row.Method, Verdict: r.Word(row.Verdict), Resolution: bench.Number(row.Resolution),
			Note: row.Note,
		})
	}
	sum := r.Summary()
	jr.Summary = jsonSummary{sum.Worse, sum.Better, sum.NoChange, sum.Inconclusive, sum.Higher, sum.Lower}
	if r.Geomean.N > 1 {
		jr.Geomean = &jsonGeo{bench.Number(r.Geomean.Old), bench.Number(r.Geomean.New), bench.Number(r.Geomean.Ratio), r.Geomean.N}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(jr)
}

// csvHeader is the first line of the CSV format. A bench.Number that is not
// finite is an empty field, and the row's note says why (the old centre is
// 0, so the change is not a ratio; there is no interval).
var csvHeader = []string{"pkg", "name", "procs", "metric", "old", "old_n", "old_forks", "new", "new_n", "new_forks",
	"ratio", "lo", "hi", "method", "verdict", "resolution", "note", "level"}

func (r *Result) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(csvHeader)
	f := func(v float64) string {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	for _, row := range r.Rows {
		cw.Write([]string{csvCell(row.Key.Package), csvCell(row.Key.Name), strconv.Itoa(row.Key.Procs), csvCell(r.Metric),
			f(row.Old.Center), strconv.Itoa(row.Old.N), strconv.Itoa(row.Old.Forks),
			f(row.New.Center), strconv.Itoa(row.New.N), strconv.Itoa(row.New.Forks),
			f(row.Ratio.Center), f(row.Ratio.Lo), f(row.Ratio.Hi), row.Method, r.Word(row.Verdict), f(row.Resolution), csvCell(row.Note),
			f(r.Level)})
	}
	cw.Flush()
	return cw.Error()
}
