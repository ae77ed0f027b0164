package report

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
)

// A Format is an output format of Write.
type Format string

// The formats Write writes: a self-contained HTML page, the comparison
// tables and verdicts in Markdown (for a pull-request comment), or the
// tables and scaling hints in text.
const (
	HTML     Format = "html"
	Markdown Format = "markdown"
	Text     Format = "text"
)

// Formats lists the formats Write accepts.
var Formats = []Format{HTML, Markdown, Text}

// Write writes r to w in format f.
func (r *Report) Write(w io.Writer, f Format) error {
	switch f {
	case HTML:
		return r.writeHTML(w)
	case Markdown:
		return r.writeMarkdown(w)
	case Text:
		return r.writeText(w)
	}
	return fmt.Errorf("unknown format %q (want one of %v)", f, Formats)
}

// Warnings are the report's notes and the warnings of its comparisons,
// each once, with a warning when the sides ran on different platforms.
func (r *Report) Warnings() []string {
	out := r.notes()
	for _, c := range r.Comparisons {
		for _, w := range c.Warnings {
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// notes are the warnings that are not a comparison's, which the
// comparison's own tables print.
func (r *Report) notes() []string {
	var out []string
	if p := r.Platform; p != nil && len(p.Differs) > 0 {
		out = append(out, fmt.Sprintf("%s were measured on different platforms (they differ in %s): changes may come from the platform, not the code",
			strings.Join(p.Labels, " and "), strings.Join(p.Differs, ", ")))
	}
	return append(out, r.Notes...)
}

// slope formats a log-log slope as a complexity hint: "≈ n^1.02 [0.98, 1.06]".
func slope(param string, iv interval) string {
	s := fmt.Sprintf("≈ %s^%s", cmp.Or(param, "x"), exponent(iv.Center))
	if !math.IsNaN(iv.Lo) && !math.IsNaN(iv.Hi) {
		s += fmt.Sprintf(" [%s, %s]", exponent(iv.Lo), exponent(iv.Hi))
	}
	return s
}

// exponent formats a slope with two decimals, or in exponent form when it
// is too large for that to stay short (parameters that hardly differ).
func exponent(x float64) string {
	if math.Abs(x) < 1e4 {
		return strconv.FormatFloat(x, 'f', 2, 64)
	}
	return strconv.FormatFloat(x, 'e', 2, 64)
}

// writeMarkdown writes the report for a pull-request comment. What comes
// from the inputs (title, labels, names, units, notes) is escaped as
// compare escapes it, so that a comment shows it and nothing more.
func (r *Report) writeMarkdown(w io.Writer) error {
	text := func(s string) string { return compare.EscapeMarkdown(s, false) }
	fmt.Fprintf(w, "## %s\n\n", text(r.Title))
	for _, s := range r.notes() {
		fmt.Fprintf(w, "> %s\n\n", text(s))
	}
	if len(r.Comparisons) > 0 {
		for i, c := range r.Comparisons {
			// A comment shows memory only when it changed.
			if i > 0 && !slices.ContainsFunc(c.Rows, func(row compare.Row) bool { return row.Verdict != compare.NoChange }) {
				fmt.Fprintf(w, "%s\n\n", text(fmt.Sprintf("%s: no change in %d benchmarks.", c.Metric, len(c.Rows))))
				continue
			}
			if err := c.Write(w, compare.Markdown); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
		return nil
	}
	fmt.Fprintf(w, "| benchmark | %s | %s%% CI | n |\n|---|---:|---|---:|\n", compare.EscapeMarkdown(r.Unit, true), compare.Percent(r.Level))
	for _, b := range r.Benchmarks {
		for _, g := range b.Groups {
			fmt.Fprintf(w, "| %s | %s | %s | %d |\n", compare.MarkdownCode(b.Key.String(), true),
				r.scale(g.Center.Center), r.scaledInterval(g.Center.Lo, g.Center.Hi), g.N)
		}
	}
	return nil
}

// writeText writes the report for a terminal, with what comes from the
// inputs escaped (compare.EscapeText).
func (r *Report) writeText(w io.Writer) error {
	text := compare.EscapeText
	fmt.Fprintf(w, "%s\n\n", text(r.Title))
	for _, s := range r.notes() {
		fmt.Fprintf(w, "warning: %s\n", text(s))
	}
	for _, c := range r.Comparisons {
		if err := c.Write(w, compare.Text); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if len(r.Comparisons) == 0 && len(r.Benchmarks) > 0 {
		fmt.Fprintf(w, "%s: mean ± %s%% CI\n", text(r.Unit), compare.Percent(r.Level))
		for _, b := range r.Benchmarks {
			for _, g := range b.Groups {
				fmt.Fprintf(w, "%s\t%s ± %s\t(%s, n=%d)\n", text(b.Key.String()), r.scale(g.Center.Center),
					r.scaledInterval(g.Center.Lo, g.Center.Hi), text(g.Side), g.N)
			}
		}
		fmt.Fprintln(w)
	}
	if len(r.Families) > 0 {
		fmt.Fprintf(w, "scaling (%s against the parameter, slope of the log-log fit):\n", text(r.Unit))
		for _, f := range r.Families {
			for _, l := range f.Lines {
				fmt.Fprintf(w, "\t%s/%s\t%s\t%s\n", text(f.Name), text(f.Param), text(l.Name), text(cmp.Or(l.Hint, slope(f.Param, toInterval(l.Slope.Center, l.Slope.Lo, l.Slope.Hi)))))
			}
		}
		fmt.Fprintln(w)
	}
	for _, s := range r.History {
		for _, c := range s.Changes {
			fmt.Fprintf(w, "history: %s stepped by %s at %s (p=%.3g)\n", text(seriesName(s)), pctChange(c.Ratio-1), text(c.Label), c.P)
		}
	}
	return nil
}

func (r *Report) scale(v float64) string {
	return bench.FormatValue(v, r.Unit)
}

func (r *Report) scaledInterval(lo, hi float64) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return "-"
	}
	return "[" + r.scale(lo) + ", " + r.scale(hi) + "]"
}

func pctChange(f float64) string { return compare.FormatChange(f) }

func toInterval(c, lo, hi float64) interval { return interval{Center: c, Lo: lo, Hi: hi} }

func seriesName(s *series) string {
	if s.Pkg == "" {
		return s.Name
	}
	return s.Pkg + "." + s.Name
}

// seriesKey is the key of a series' benchmark, as far as figures name it.
func seriesKey(s *series) bench.Key { return bench.Key{Package: s.Pkg, Name: s.Name} }

// svg renders a figure for inclusion in the page, without the style sheet
// that the page holds once for all figures. Package plot escapes the text
// it draws, so its output is trusted as HTML.
func svg(f figure) (template.HTML, error) {
	var b bytes.Buffer
	if err := f.WriteInlineSVG(&b); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil
}
