package bench

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// prefixes are the factors of the prefixes benchunit.Scale writes, binary
// ones first: "Ki" must not be read as "i" after "K".
var prefixes = []struct {
	prefix string
	factor float64
}{
	{"Ti", 1 << 40}, {"Gi", 1 << 30}, {"Mi", 1 << 20}, {"Ki", 1 << 10},
	{"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"k", 1e3}, {"m", 1e-3}, {"µ", 1e-6}, {"n", 1e-9},
}

// parseFormatted inverts FormatValue.
func parseFormatted(s string) (float64, error) {
	factor := 1.0
	for _, p := range prefixes {
		if rest, ok := strings.CutSuffix(s, p.prefix); ok {
			s, factor = rest, p.factor
			break
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	return v * factor, err
}

// TestFormatValueBounded formats values of every magnitude a float64 has,
// from the smallest denormal to the largest finite number, in a time, a
// byte and a custom unit: each takes at most ten characters and reads back
// within half a percent (three significant digits). Before, 1e308 sec/op
// took 309 characters and 1e-320 printed as 0.000.
func TestFormatValueBounded(t *testing.T) {
	var values []float64
	for e := -324; e <= 308; e++ {
		for _, m := range []float64{1, 1.234, 5, 9.99949} {
			v := m * math.Pow(10, float64(e))
			if v != 0 && !math.IsInf(v, 0) {
				values = append(values, v, -v)
			}
		}
	}
	values = append(values, math.MaxFloat64, math.SmallestNonzeroFloat64, 1<<50, 1<<50-1)
	for _, unit := range []string{"sec/op", "B/op", "allocs/op", "widgets/op"} {
		for _, v := range values {
			s := FormatValue(v, unit)
			if n := utf8.RuneCountInString(s); n > 10 {
				t.Errorf("FormatValue(%g, %s) = %q, %d characters", v, unit, s, n)
			}
			got, err := parseFormatted(s)
			if math.Abs(v) == math.MaxFloat64 {
				// Three digits round it past the largest float64.
				got, err = parseFormatted(strings.Replace(s, "1.80e", "1.79e", 1))
			}
			// Denormals have fewer significant bits than three digits need.
			tol := 5e-3 * math.Abs(v)
			if math.Abs(v) < 1e-305 {
				tol = 1e-2 * math.Abs(v)
			}
			if err != nil || math.Abs(got-v) > tol {
				t.Errorf("FormatValue(%g, %s) = %q, which reads as %g (%v)", v, unit, s, got, err)
			}
		}
	}
	for _, tc := range []struct {
		v    float64
		unit string
		want string
	}{
		{1.201e-6, "sec/op", "1.201µ"},
		{94.69e-6, "sec/op", "94.69µ"},
		{0, "sec/op", "0"},
		{0, "B/op", "0"},
		{1016, "B/op", "1016"},
		{1023, "B/op", "1023"},
		{1016.5, "B/op", "1016.5"},
		{100, "allocs/op", "100"},
		{999, "allocs/op", "999"},
		{1000, "allocs/op", "1.000k"},
		{100.4, "allocs/op", "100.4"},
		{math.Exp(math.Log(256)), "B/op", "256"}, // 255.99999999999997
		{255.9, "B/op", "255.9"},
		{100, "widgets/op", "100.0"},
		{1e308, "sec/op", "1.00e+308"},
		{1e-320, "sec/op", "1.00e-320"},
		{96960, "B/op", "94.69Ki"},
		{0.0001, "B/op", "1.00e-04"},
		{math.NaN(), "sec/op", "-"},
	} {
		if got := FormatValue(tc.v, tc.unit); got != tc.want {
			t.Errorf("FormatValue(%g, %s) = %q, want %q", tc.v, tc.unit, got, tc.want)
		}
	}
}
