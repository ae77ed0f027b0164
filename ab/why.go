package ab

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/profdiff"
	"github.com/mbench/mbench/stats"
)

// whyFuncs is how many named functions a benchmark's line lists.
const whyFuncs = 5

// Write writes a session's comparisons (compare.WriteAll) and, when
// benchmarks were profiled, why they changed: in text and markdown a
// short block per benchmark after the tables, in JSON an object
// {"results": [comparisons], "profiles": [every function's change]}
// instead of the array of comparisons alone. CSV holds the comparisons
// only.
func Write(w io.Writer, f compare.Format, results []*compare.Result, whys []*Why) error {
	if len(whys) == 0 || f == compare.CSV {
		return compare.WriteAll(w, f, results)
	}
	if f == compare.JSON {
		var buf bytes.Buffer
		if err := compare.WriteAll(&buf, f, results); err != nil {
			return err
		}
		return writeWhyJSON(w, json.RawMessage(bytes.TrimSpace(buf.Bytes())), whys)
	}
	if err := compare.WriteAll(w, f, results); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return WriteWhy(w, f, whys)
}

// WriteWhy writes why each profiled benchmark changed, in text, markdown
// or JSON (an array of the profiles' tables).
func WriteWhy(w io.Writer, f compare.Format, whys []*Why) error {
	switch f {
	case compare.JSON:
		return writeWhyJSON(w, nil, whys)
	case compare.Markdown:
		fmt.Fprintf(w, "### why: the profiles of %s\n\n", benchmarks(len(whys)))
		for _, y := range whys {
			// Numbers and words of mbench's own go as they are; names
			// and messages from the profiles and processes are escaped.
			fmt.Fprintf(w, "- %s\n", y.line(func(s string) string { return compare.MarkdownCode(s, false) }, func(s string) string { return compare.EscapeMarkdown(s, false) }))
			for _, l := range y.details(func(s string) string { return compare.MarkdownCode(s, false) }) {
				if rest, ok := strings.CutPrefix(l, "warning: "); ok {
					l = "warning: " + compare.EscapeMarkdown(rest, false)
				}
				fmt.Fprintf(w, "  - %s\n", l)
			}
			if cmd := y.Pprof(); cmd != "" {
				fmt.Fprintf(w, "  - %s\n", compare.MarkdownCode(cmd, false))
			}
		}
		return nil
	case compare.Text:
		fmt.Fprintf(w, "why: the profiles of %s\n", benchmarks(len(whys)))
		for _, y := range whys {
			fmt.Fprintf(w, "%s\n", y.line(compare.EscapeText, compare.EscapeText))
			for _, l := range y.details(compare.EscapeText) {
				fmt.Fprintf(w, "    %s\n", compare.EscapeText(l))
			}
			if cmd := y.Pprof(); cmd != "" {
				fmt.Fprintf(w, "    %s\n", compare.EscapeText(cmd))
			}
		}
		return nil
	}
	return fmt.Errorf("profiles cannot be written as %q", f)
}

// line is the benchmark's change and the functions at fault: "Decode-2
// +19.3% = encoding/json.(*decodeState).object +11.2 pts [9.8, 12.5],
// runtime.mallocgc +6.0 pts [4.1, 7.9]".
// The benchmark's name and the error are escaped by text, the functions'
// names by code.
func (y *Why) line(code, text func(string) string) string {
	head := text(strings.TrimPrefix(y.Key.FullName(), "Benchmark"))
	switch {
	case y.Time != nil:
		head += " " + compare.FormatChange(y.Time.Change())
	case y.CPU != nil:
		head += " " + compare.FormatChange(y.CPU.Total.Delta.Center/y.CPU.Total.Old)
	}
	if y.CPU == nil {
		return head + ": not profiled: " + text(oneLine(y.Err))
	}
	return head + " = " + named(y.CPU, code)
}

// named lists d's named functions with their points, their names escaped
// by code, or says none stands out.
func named(d *profdiff.Diff, code func(string) string) string {
	rows := d.Named()
	if len(rows) == 0 {
		return fmt.Sprintf("no function's change stands out of the variation between processes (profile %s)", pts(d, d.Total.Delta))
	}
	var parts []string
	for i, r := range rows {
		if i == whyFuncs {
			parts = append(parts, fmt.Sprintf("%d more", len(rows)-i))
			break
		}
		s := code(r.Func) + " " + pts(d, r.Flat.Delta)
		if r.Only != "" {
			s += " (only in " + r.Only + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// pts formats a change as points of the old total with its interval:
// "+11.2 pts [9.8, 12.5]", or in the unit for allocation counts.
func pts(d *profdiff.Diff, iv stats.Interval) string {
	if d.Unit == "allocs/op" {
		return fmt.Sprintf("%+.3g allocs/op [%.3g, %.3g]", iv.Center, iv.Lo, iv.Hi)
	}
	return fmt.Sprintf("%+.1f pts [%.1f, %.1f]", d.Pts(iv.Center), d.Pts(iv.Lo), d.Pts(iv.Hi))
}

// details are the lines under a benchmark's line: the profile's totals,
// the allocation diffs (functions' names escaped by code), the warnings.
func (y *Why) details(code func(string) string) []string {
	var out []string
	if d := y.CPU; d != nil {
		out = append(out, fmt.Sprintf("CPU profile: %s → %s, %s; %d+%d processes of %d operations, %.0f samples each; intervals at %s%%",
			perOp(d.Total.Old, d.Unit), perOp(d.Total.New, d.Unit), pts(d, d.Total.Delta), d.OldProcesses, d.NewProcesses, y.Ops, d.Samples, compare.Percent(d.Level)))
	}
	for _, d := range []*profdiff.Diff{y.Bytes, y.Allocs} {
		if d != nil {
			out = append(out, fmt.Sprintf("%s %s → %s = %s", d.Unit, perOp(d.Total.Old, d.Unit), perOp(d.Total.New, d.Unit), named(d, code)))
		}
	}
	if y.CPU != nil && y.Err != nil {
		out = append(out, "warning: "+oneLine(y.Err))
	}
	for _, d := range []*profdiff.Diff{y.CPU, y.Bytes} {
		if d != nil {
			for _, warn := range d.Warnings {
				out = append(out, "warning: "+warn)
			}
		}
	}
	return out
}

// benchmarks returns "1 benchmark" or "n benchmarks".
func benchmarks(n int) string {
	if n == 1 {
		return "1 benchmark"
	}
	return fmt.Sprintf("%d benchmarks", n)
}

func oneLine(err error) string {
	if err == nil {
		return ""
	}
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}

// perOp formats a value per operation in its unit: ns/op scaled to a
// readable unit of time.
func perOp(v float64, unit string) string {
	if unit != "ns/op" {
		return fmt.Sprintf("%.4g %s", v, unit)
	}
	switch a := math.Abs(v); {
	case a >= 1e9:
		return fmt.Sprintf("%.3gs/op", v/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%.3gms/op", v/1e6)
	case a >= 1e3:
		return fmt.Sprintf("%.3gµs/op", v/1e3)
	}
	return fmt.Sprintf("%.3gns/op", v)
}

// JSON of the profiles: every function's change, per operation.
type (
	jsonWhy struct {
		Package   string    `json:"package,omitempty"`
		Benchmark string    `json:"benchmark"`
		Procs     int       `json:"procs,omitempty"`
		Ops       int       `json:"ops,omitempty"`
		CPU       *jsonDiff `json:"cpu,omitempty"`
		Bytes     *jsonDiff `json:"bytes,omitempty"`
		Allocs    *jsonDiff `json:"allocs,omitempty"`
		Files     []string  `json:"files,omitempty"`
		Pprof     string    `json:"pprof,omitempty"`
		Error     string    `json:"error,omitempty"`
		Seconds   float64   `json:"profiling_seconds"`
	}
	jsonDiff struct {
		Unit         string     `json:"unit"`
		OldProcesses int        `json:"old_processes"`
		NewProcesses int        `json:"new_processes"`
		Level        float64    `json:"level"`
		Tested       int        `json:"functions_tested"`
		Samples      float64    `json:"samples_per_process"`
		Total        jsonChange `json:"total"`
		Functions    []jsonFunc `json:"functions"`
		Warnings     []string   `json:"warnings,omitempty"`
	}
	jsonFunc struct {
		Func string     `json:"func"`
		Only string     `json:"only,omitempty"`
		Flat jsonChange `json:"flat"`
		Cum  jsonChange `json:"cum"`
	}
	jsonChange struct {
		Old   float64  `json:"old"`
		New   float64  `json:"new"`
		Delta float64  `json:"delta"`
		Lo    *float64 `json:"lo"`
		Hi    *float64 `json:"hi"`
		Pts   float64  `json:"pts"`
		Named bool     `json:"named"`
	}
)

func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func changeJSON(d *profdiff.Diff, c profdiff.Change) jsonChange {
	return jsonChange{Old: c.Old, New: c.New, Delta: c.Delta.Center, Lo: finite(c.Delta.Lo), Hi: finite(c.Delta.Hi), Pts: d.Pts(c.Delta.Center), Named: c.Named}
}

func diffJSON(d *profdiff.Diff) *jsonDiff {
	if d == nil {
		return nil
	}
	j := &jsonDiff{Unit: d.Unit, OldProcesses: d.OldProcesses, NewProcesses: d.NewProcesses, Level: d.Level, Tested: d.Tested, Samples: d.Samples,
		Total: changeJSON(d, d.Total), Warnings: d.Warnings, Functions: []jsonFunc{}}
	for _, r := range d.Rows {
		j.Functions = append(j.Functions, jsonFunc{Func: r.Func, Only: r.Only, Flat: changeJSON(d, r.Flat), Cum: changeJSON(d, r.Cum)})
	}
	return j
}

func writeWhyJSON(w io.Writer, results json.RawMessage, whys []*Why) error {
	profiles := []jsonWhy{}
	for _, y := range whys {
		j := jsonWhy{Package: y.Key.Package, Benchmark: y.Key.FullName(), Procs: y.Key.Procs, Ops: y.Ops,
			CPU: diffJSON(y.CPU), Bytes: diffJSON(y.Bytes), Allocs: diffJSON(y.Allocs),
			Files: y.Files, Pprof: y.Pprof(), Seconds: y.Elapsed.Seconds()}
		if y.Err != nil {
			j.Error = y.Err.Error()
		}
		profiles = append(profiles, j)
	}
	enc := json.NewEncoder(w)
	if results == nil {
		return enc.Encode(profiles)
	}
	return enc.Encode(struct {
		Results  json.RawMessage `json:"results"`
		Profiles []jsonWhy       `json:"profiles"`
	}{results, profiles})
}
