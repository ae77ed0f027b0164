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
//
// Zero is "0", and a whole number of a unit that counts (B/op,
// allocs/op) below the first prefix is written as go test writes it,
// "1016" and "100", not "1016.0" and "100.0": those units are whole
// numbers per iteration, and a mean that is one says exactly that.
func FormatValue(v float64, unit string) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case v == 0:
		return "0"
	}
	cls := benchunit.ClassOf(unit)
	prefix := 1000.0 // the first prefix, k
	if cls == benchunit.Binary {
		prefix = 1024 // Ki
	}
	if r := math.Round(v); counts(unit) && math.Abs(v-r) <= wholeTolerance*math.Abs(v) && math.Abs(r) < prefix {
		return strconv.FormatFloat(r, 'f', 0, 64)
	}
	lo, hi := minDecimal, maxDecimal
	if cls == benchunit.Binary {
		lo, hi = minBinary, maxBinary
	}
	if a := math.Abs(v); a >= lo && a < hi {
		return benchunit.Scale(v, cls)
	}
	return strconv.FormatFloat(v, 'e', 2, 64)
}

// wholeTolerance is how far, relative to it, a value of a unit that
// counts may be from a whole number and still be written as one: a
// geometric mean of equal whole numbers, exp(mean(log x)), comes back a
// few units in the last place off.
const wholeTolerance = 1e-9

// counts reports whether values of unit count things, whole numbers per
// iteration: bytes or allocations per op.
func counts(unit string) bool {
	return unit == "B/op" || unit == "allocs/op"
}
