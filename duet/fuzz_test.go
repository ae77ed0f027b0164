package duet

import (
	"math"
	"regexp"
	"strconv"
	"testing"
)

// FuzzMetricValue fuzzes reading the number a command prints: what it
// accepts is finite, and it never panics.
func FuzzMetricValue(f *testing.F) {
	for _, seed := range []struct{ re, out string }{
		{`score: ([0-9.]+)`, "score: 12.5\n"},
		{`score: ([0-9.]+)`, "score: 1\nscore: 2\n"},
		{`score: (\S+)`, "score: NaN\n"},
		{`score: (\S+)`, "score: +Inf\n"},
		{`score: (\S+)`, "score: 1e400\n"},
		{`(x)?y`, "y"},
		{`score`, "score"},
	} {
		f.Add(seed.re, seed.out)
	}
	f.Fuzz(func(t *testing.T, expr, out string) {
		re, err := regexp.Compile(expr)
		if err != nil || re.NumSubexp() < 1 {
			return
		}
		v, err := metricValue(re, out)
		if err != nil {
			return
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("metricValue(%q, %q) = %v, accepted", expr, out, v)
		}
		ms := re.FindAllStringSubmatch(out, -1)
		if want, _ := strconv.ParseFloat(ms[len(ms)-1][1], 64); v != want {
			t.Fatalf("metricValue(%q, %q) = %v, want the last match, %v", expr, out, v, want)
		}
	})
}
