package bench

import (
	"fmt"
	"math"
	"strings"

	"golang.org/x/perf/benchunit"
)

// MaxSecPerOp is the largest time per operation CheckValue accepts, in
// seconds: about 11.6 days. No benchmark iteration of any run takes that
// long for one operation; a larger value is a unit or a writer gone wrong,
// and would print as a number hundreds of digits long.
const MaxSecPerOp = 1e6

// CheckValue reports why v cannot be a value of its tidy unit, or nil
// when it can. Values that cannot be are
//   - NaN and infinities, in any unit;
//   - negative amounts of what cannot be negative: time (sec, and units
//     whose quantity ends in "-sec", such as cpu-sec), bytes (B) and
//     allocations (allocs), per anything (sec/op, B/op, allocs/op, B/s);
//   - zero sec/op: an operation takes some time, and a ratio to zero has
//     no meaning;
//   - a time per op (sec/op, cpu-sec/op) over MaxSecPerOp, and bytes or
//     allocations per op over 2⁶³, more than the testing package counts.
//
// Other units (custom metrics of b.ReportMetric) may take any finite value.
// The error shows the value as the input wrote it (OrigValue, OrigUnit)
// when it has that. The readers skip a line with a value CheckValue
// rejects, with a warning naming its file and line (docs/formats.md).
func CheckValue(v Value) error {
	shown := fmt.Sprintf("%v %s", v.Value, v.Unit)
	if v.OrigUnit != "" {
		shown = fmt.Sprintf("%v %s", v.OrigValue, v.OrigUnit)
	}
	if math.IsNaN(v.Value) || math.IsInf(v.Value, 0) {
		return fmt.Errorf("%s: not a finite number", shown)
	}
	// A unit that is not tidy (ns/op in JSON Lines written by hand) is
	// judged as its tidy form.
	_, unit := benchunit.Tidy(1, v.Unit)
	quantity, per, _ := strings.Cut(unit, "/")
	time := quantity == "sec" || strings.HasSuffix(quantity, "-sec")
	switch {
	case v.Value < 0 && (time || quantity == "B" || quantity == "allocs"):
		return fmt.Errorf("%s: negative, and %s cannot be", shown, unit)
	case v.Value == 0 && unit == "sec/op":
		return fmt.Errorf("%s: an operation takes some time", shown)
	case time && per == "op" && v.Value*unitFactor(v.Unit) > MaxSecPerOp:
		return fmt.Errorf("%s: more than %g seconds per operation", shown, float64(MaxSecPerOp))
	case (quantity == "B" || quantity == "allocs") && per == "op" && v.Value*unitFactor(v.Unit) > math.MaxInt64:
		// The testing package counts them per op in an int64.
		return fmt.Errorf("%s: more than 2⁶³ per operation", shown)
	}
	return nil
}

// CheckValues reports the first value of m that CheckValue rejects, or
// nil.
func (m *Measurement) CheckValues() error {
	for _, v := range m.Values {
		if err := CheckValue(v); err != nil {
			return err
		}
	}
	return nil
}

// unitFactor is what a value in unit is multiplied by in its tidy unit.
func unitFactor(unit string) float64 {
	f, _ := benchunit.Tidy(1, unit)
	return f
}
