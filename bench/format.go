package bench

import (
	"math"
	"strconv"

	"golang.org/x/perf/benchunit"
)

// The ranges of magnitudes in which FormatValue writes what benchunit.Scale
// does, by the class of the unit. benchunit's largest prefix is T (Ti for
// bytes), its smallest n (none below 1 for bytes), and with its
// up to ten decimals it keeps three significant digits down to about
// 1e-17: past these bounds its numbers grow to hundreds of digits, or
// round to zero. The bounds keep every number within ten characters.
const (
	minDecimal = 1e-12   // 0.00100n
	maxDecimal = 1e15    // 1000.0T
	minBinary  = 1e-3    // 0.00100
	maxBinary  = 1 << 50 // 1024.0Ti
)

// FormatValue formats v, a value in the tidy unit unit, for people, as
// benchstat does: at least three significant digits and an SI prefix (a
// binary one for bytes), "1.201µ", "94.69Ki". Beyond the magnitudes those
// prefixes reach it writes the exponent form with three significant
// digits, "1.00e+308", so that any finite value takes at most ten
// characters and shows its leading digits (benchunit.Scale alone writes
// 1e308 with 309 digits, and 1e-320 as 0.000). NaN is "-".
func FormatValue(v float64, unit string) string {
	if math.IsNaN(v) {
		return "-"
	}
	cls := benchunit.ClassOf(unit)
	lo, hi := minDecimal, maxDecimal
	if cls == benchunit.Binary {
		lo, hi = minBinary, maxBinary
	}
	if a := math.Abs(v); v == 0 || a >= lo && a < hi {
		return benchunit.Scale(v, cls)
	}
	return strconv.FormatFloat(v, 'e', 2, 64)
}
