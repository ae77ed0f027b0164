package compare

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
)

// verdictResult is a result of metric with one row per verdict given,
// and a geometric mean of the rows' ratio when there is more than one.
func verdictResult(metric string, better int, verdicts ...Verdict) *Result {
	r := &Result{Metric: metric, Better: better, OldLabel: "old", NewLabel: "new", Level: 0.99, Threshold: 0.03}
	for i, v := range verdicts {
		r.Rows = append(r.Rows, Row{Key: bench.Key{Package: "p", Name: string(rune('A' + i))}, Verdict: v,
			Old: Side{Center: 1, N: 5}, New: Side{Center: 1.1, N: 5}, Ratio: stats.Interval{Center: 1.1, Lo: 1.05, Hi: 1.15},
			Resolution: math.NaN()})
	}
	if len(verdicts) > 1 {
		r.Geomean.Old, r.Geomean.New, r.Geomean.Ratio, r.Geomean.N = 1, 1.115, 1.115, len(verdicts)
	}
	return r
}

func TestSummary(t *testing.T) {
	for _, c := range []struct {
		r    *Result
		want string
	}{
		{verdictResult("sec/op", -1, Worse, NoChange, NoChange, NoChange, NoChange, NoChange, Inconclusive),
			"1 slower, 0 faster, 5 no change, 1 inconclusive; geomean +11.50%"},
		{verdictResult("sec/op", -1, Better, TooFew),
			"0 slower, 1 faster, 0 no change, 1 inconclusive; geomean +11.50%"},
		{verdictResult("allocs/op", -1, Worse),
			"1 more, 0 less, 0 no change, 0 inconclusive"},
		{verdictResult("widgets/op", 0, Higher, Higher, Lower),
			"2 more, 1 less, 0 no change, 0 inconclusive; geomean +11.50%"},
		{verdictResult("sec/op", -1),
			"0 slower, 0 faster, 0 no change, 0 inconclusive"},
	} {
		if got := c.r.SummaryLine(); got != c.want {
			t.Errorf("%s: SummaryLine() = %q, want %q", c.r.Metric, got, c.want)
		}
	}
	s := verdictResult("sec/op", -1, Worse, Better, Better, NoChange, TooFew, Inconclusive).Summary()
	if s.Worse != 1 || s.Better != 2 || s.NoChange != 1 || s.Inconclusive != 2 || s.Higher+s.Lower != 0 || math.Abs(s.Geomean-0.115) > 1e-12 {
		t.Errorf("Summary() = %+v", s)
	}
}

// TestSummaryWritten checks that the text form ends with the summary
// line, the markdown form heads with it, and the JSON form counts the
// verdicts.
func TestSummaryWritten(t *testing.T) {
	r := verdictResult("sec/op", -1, Worse, NoChange, Inconclusive)
	var text, md, js bytes.Buffer
	if err := r.Write(&text, Text); err != nil {
		t.Fatal(err)
	}
	if want := "\nsec/op: 1 slower, 0 faster, 1 no change, 1 inconclusive; geomean +11.50%\n"; !strings.HasSuffix(text.String(), want) {
		t.Errorf("text does not end with %q:\n%s", want, &text)
	}
	if err := r.Write(&md, Markdown); err != nil {
		t.Fatal(err)
	}
	if want := "### sec/op: 1 slower, 0 faster, 1 no change, 1 inconclusive; geomean +11.50%\n"; !strings.HasPrefix(md.String(), want) {
		t.Errorf("markdown does not start with %q:\n%s", want, &md)
	}
	if err := r.Write(&js, JSON); err != nil {
		t.Fatal(err)
	}
	var doc struct{ Summary map[string]int }
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"worse": 1, "better": 0, "no_change": 1, "inconclusive": 1}; !maps.Equal(doc.Summary, want) {
		t.Errorf("JSON summary %v, want %v", doc.Summary, want)
	}
}

// TestColoured checks that verdicts are coloured on a writer that asks
// for colour, in the table and the summary line, and on no other; and
// that the colour leaves the columns where they were.
func TestColoured(t *testing.T) {
	r := verdictResult("sec/op", -1, Worse, Better, NoChange, Inconclusive)
	var plain, coloured bytes.Buffer
	if err := WriteAll(&plain, Text, []*Result{r}); err != nil {
		t.Fatal(err)
	}
	if err := WriteAll(Coloured(&coloured), Text, []*Result{r}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "\x1b") {
		t.Errorf("plain text has escape codes:\n%q", &plain)
	}
	for _, want := range []string{"\x1b[31mslower\x1b[0m", "\x1b[32mfaster\x1b[0m", "\x1b[33minconclusive\x1b[0m", "\x1b[31m1 slower\x1b[0m"} {
		if !strings.Contains(coloured.String(), want) {
			t.Errorf("coloured text lacks %q:\n%q", want, &coloured)
		}
	}
	if strings.Contains(coloured.String(), "\x1b[31m0") || strings.Contains(coloured.String(), "m no change") {
		t.Errorf("coloured text colours a count of 0 or no change:\n%q", &coloured)
	}
	// Without the codes, the coloured text is the plain text, up to the
	// padding after the last column.
	strip := func(s string) string {
		for _, c := range []string{"\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[0m"} {
			s = strings.ReplaceAll(s, c, "")
		}
		var lines []string
		for _, l := range strings.Split(s, "\n") {
			lines = append(lines, strings.TrimRight(l, " "))
		}
		return strings.Join(lines, "\n")
	}
	if strip(coloured.String()) != strip(plain.String()) {
		t.Errorf("colour moved the text:\nplain\n%s\ncoloured\n%s", &plain, strip(coloured.String()))
	}
	for _, f := range []Format{JSON, CSV, Markdown} {
		var b bytes.Buffer
		if err := WriteAll(Coloured(&b), f, []*Result{r}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "\x1b") {
			t.Errorf("%s has escape codes", f)
		}
	}
}
