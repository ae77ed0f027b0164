package gen

import (
	"fmt"
	"io"
	"strings"
)

// WriteSummary writes a line per segment, "file:line NAME: outcome", and
// a last line with the counts per reason. File names are relative to dir
// ("" is the current directory) when they are under it.
func (r *Result) WriteSummary(w io.Writer, dir string) error {
	for _, s := range r.Segments {
		var outcome string
		switch {
		case s.Reason == Accepted && s.Sets == 0:
			outcome = "accepted, no input sets recorded"
		case s.Reason == Accepted:
			outcome = fmt.Sprintf("generated, %s", plural(s.Sets, "input set"))
		case s.Reason == NotReached:
			outcome = string(s.Reason)
		case s.Detail != "":
			outcome = fmt.Sprintf("rejected: %s (%s)", s.Reason, s.Detail)
		default:
			outcome = fmt.Sprintf("rejected: %s", s.Reason)
		}
		if _, err := fmt.Fprintf(w, "%s:%d %s: %s\n", relTo(dir, s.Pos.Filename), s.Pos.Line, s.Name, outcome); err != nil {
			return err
		}
	}
	var parts []string
	for _, c := range r.Counts() {
		parts = append(parts, fmt.Sprintf("%d %s", c.N, c.Label()))
	}
	if len(parts) == 0 {
		parts = []string{"no marked segments"}
	}
	if _, err := fmt.Fprintf(w, "%s: %s\n", plural(len(r.Segments), "segment"), strings.Join(parts, ", ")); err != nil {
		return err
	}
	return r.writeExcluded(w, dir)
}

// maxExcluded is how many excluded markers the summary lists.
const maxExcluded = 10

// writeExcluded writes a line naming the markers that the build
// constraints hid, if any.
func (r *Result) writeExcluded(w io.Writer, dir string) error {
	n := len(r.Excluded)
	if n == 0 {
		return nil
	}
	var where []string
	for _, pos := range r.Excluded[:min(n, maxExcluded)] {
		where = append(where, relTo(dir, pos))
	}
	if n > maxExcluded {
		where = append(where, fmt.Sprintf("... (%d more)", n-maxExcluded))
	}
	files, them := "files", "them"
	if n == 1 {
		files, them = "a file", "it"
	}
	_, err := fmt.Fprintf(w, "%s in %s excluded by build constraints: %s; give -tags to include %s\n",
		plural(n, "marker"), files, strings.Join(where, ", "), them)
	return err
}

// StaleError returns nil when no file is stale, and otherwise an error
// listing the stale files, relative to dir, for -check.
func (r *Result) StaleError(dir string) error {
	if len(r.Stale) == 0 {
		return nil
	}
	files := make([]string, len(r.Stale))
	for i, f := range r.Stale {
		files[i] = relTo(dir, f)
	}
	return fmt.Errorf("%d stale %s (run mbench gen):\n\t%s", len(files), noun(len(files), "file"), strings.Join(files, "\n\t"))
}

// plural returns "1 thing" or "n things".
func plural(n int, thing string) string {
	return fmt.Sprintf("%d %s", n, noun(n, thing))
}

func noun(n int, thing string) string {
	if n == 1 {
		return thing
	}
	return thing + "s"
}
