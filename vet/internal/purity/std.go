package purity

import "go/types"

// The standard library is not analysed; these are the standard functions
// known to be pure and inlinable, keyed by package path and name and
// matched against the *types.Func a call resolves to. Each is either a
// compiler intrinsic (cmd/compile/internal/ssagen/intrinsics.go), whose
// dead result is deleted like any arithmetic, or a one-line function of
// intrinsics. Foldable entries have constant-folding rules in
// cmd/compile/internal/ssa/_gen/generic.rules: (Sqrt (Const64F [c])),
// (Floor ...), (Ceil ...), (Trunc ...), (RoundToEven ...),
// (PopCount64 (Const64 [c])), (BitLen64 ...), (Ctz64 ...), and "Pass
// constants through math.Float{32,64}bits and math.Float{32,64}frombits"
// together with the float comparison rules (Eq64F, Less64F ...).
//
// Functions such as strconv.Itoa or strings.Repeat are pure but call
// functions too large to inline (formatBits, the copy loop), so the call
// survives; they are deliberately absent.
var stdlib = map[[2]string]*Summary{}

func init() {
	const (
		intrinsic = 4 // a call node and its arguments
		oneLine   = 8 // a one-line function of intrinsics
	)
	add := func(pkg string, foldable bool, cost int, names ...string) {
		for _, name := range names {
			stdlib[[2]string{pkg, name}] = &Summary{Foldable: foldable, Cost: cost, Ops: 2}
		}
	}
	add("math", true, intrinsic, "Sqrt", "Floor", "Ceil", "Trunc", "RoundToEven")
	add("math", true, oneLine, "Abs", "Copysign", "Signbit", "IsNaN", "IsInf",
		"Float64bits", "Float64frombits", "Float32bits", "Float32frombits")
	add("math/bits", true, intrinsic,
		"OnesCount", "OnesCount8", "OnesCount16", "OnesCount32", "OnesCount64",
		"Len", "Len8", "Len16", "Len32", "Len64",
		"TrailingZeros", "TrailingZeros8", "TrailingZeros16", "TrailingZeros32", "TrailingZeros64")
	add("math/bits", true, oneLine,
		"LeadingZeros", "LeadingZeros8", "LeadingZeros16", "LeadingZeros32", "LeadingZeros64")
	add("math/bits", false, intrinsic,
		"ReverseBytes", "ReverseBytes16", "ReverseBytes32", "ReverseBytes64",
		"RotateLeft", "RotateLeft8", "RotateLeft16", "RotateLeft32", "RotateLeft64",
		"Add64", "Sub64", "Mul64")
	// Bit casts move a register: no instruction to fold.
	for _, name := range []string{"Float64bits", "Float64frombits", "Float32bits", "Float32frombits"} {
		stdlib[[2]string{"math", name}].Ops = 0
	}
}

// std returns the table entry for fn, or nil.
func std(fn *types.Func) *Summary {
	if fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return nil
	}
	return stdlib[[2]string{fn.Pkg().Path(), fn.Name()}]
}
