package compare

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
)

// extremeResult is a comparison whose numbers span every magnitude a
// float64 has, as a hand-written or corrupted input can give.
func extremeResult() *Result {
	res := &Result{OldLabel: "old", NewLabel: "new", Metric: "sec/op", Stat: stats.StatMean, Level: 0.99, Threshold: 0.03, Better: -1}
	for i, c := range []struct{ old, new float64 }{
		{1e308, 1e-320}, {1e-320, 1e308}, {5e-7, 1e300}, {math.MaxFloat64, math.SmallestNonzeroFloat64}, {5e-7, 5.1e-7},
	} {
		ratio := c.new / c.old
		res.Rows = append(res.Rows, Row{
			Key: bench.Key{Package: "p", Name: "X" + strings.Repeat("x", i), Procs: 2},
			Old: Side{Center: c.old, N: 10, Forks: 1}, New: Side{Center: c.new, N: 10, Forks: 1},
			Ratio:  stats.Interval{Center: ratio, Lo: ratio * 0.5, Hi: ratio * 2},
			Method: "block", Verdict: Inconclusive, Resolution: ratio,
		})
	}
	res.Geomean.Old, res.Geomean.New, res.Geomean.Ratio, res.Geomean.N = 1e300, 1e-300, 1e-600, 5
	return res
}

// TestExtremeValuesStayInTheTable writes a comparison of values from
// 1e-320 to 1e308 in text and markdown: no line may be much wider than
// that of ordinary values, and every number shows its leading digits.
// Before, 1e308 sec/op printed with 309 digits, a 353-column table, and
// 1e-320 as 0.000.
func TestExtremeValuesStayInTheTable(t *testing.T) {
	res := extremeResult()
	for _, f := range []Format{Text, Markdown} {
		var buf bytes.Buffer
		if err := res.Write(&buf, f); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "|") || strings.HasPrefix(line, "X") || strings.HasPrefix(line, "geomean") {
				// benchmark, two values and counts, a change, an
				// interval of two changes, a verdict with one.
				if n := utf8.RuneCountInString(line); n > 140 {
					t.Errorf("%s: a line of %d characters:\n%s", f, n, line)
				}
			}
		}
		for _, want := range []string{"1.00e+308", "1.00e-320", "1.80e+308", "4.94e-324", "+2.00e+308%", "-100.00%"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in\n%s", f, want, out)
			}
		}
		if strings.Contains(out, "0.000 ") || strings.Contains(out, "| 0.000 |") {
			t.Errorf("%s: a value other than 0 prints as 0.000:\n%s", f, out)
		}
	}
}

func TestFormatChange(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{0.1053, "+10.53%"}, {-0.1063, "-10.63%"}, {0, "+0.00%"}, {math.Copysign(0, -1), "-0.00%"},
		{9999.9999, "+999999.99%"}, {1e4, "+1.00e+06%"}, {1e306, "+1.00e+308%"}, {1e307, "+1.00e+309%"}, {-1, "-100.00%"},
		{math.Inf(1), "+∞"}, {math.NaN(), "-"},
	} {
		if got := FormatChange(tc.f); got != tc.want {
			t.Errorf("FormatChange(%g) = %q, want %q", tc.f, got, tc.want)
		}
	}
}
