package effects

// The table. Functions such as strconv.Itoa or strings.Repeat have no
// effect either, but call functions too large to inline (formatBits, the
// copy loop), so the call survives: they are not Plain.

// funcs holds the functions of the standard library the table knows, by
// package path and name ("unicode/utf8.RuneCount").
var funcs = map[string]Func{}

// readOnlyTypes are types of the standard library whose methods only
// read their receiver and arguments, by package path and name.
var readOnlyTypes = map[string]bool{
	"regexp.Regexp": true, "time.Duration": true, "time.Location": true, "time.Time": true,
}

// builtins holds the builtins the table knows; new, make, close and
// recover are not among them.
var builtins = map[string]Func{}

func init() {
	add := func(f Func, pkg string, names ...string) {
		for _, name := range names {
			funcs[pkg+"."+name] = f
		}
	}
	reads := Func{Effect: ReadsOnly}
	add(reads, "bytes", "Compare", "Contains", "Count", "Equal", "EqualFold", "HasPrefix", "HasSuffix",
		"Index", "IndexByte", "LastIndex")
	add(reads, "errors", "New")
	add(reads, "fmt", "Errorf", "Sprint", "Sprintf", "Sprintln")
	add(reads, "slices", "BinarySearch", "BinarySearchFunc", "Compare", "Contains", "Equal", "Index",
		"IsSorted", "IsSortedFunc", "Max", "Min")
	add(reads, "sort", "Float64sAreSorted", "IntsAreSorted", "IsSorted", "SearchFloat64s", "SearchInts",
		"SearchStrings", "SliceIsSorted", "StringsAreSorted")
	add(reads, "strconv", "Quote")
	add(reads, "unicode/utf8", "DecodeLastRune", "DecodeRune", "FullRune", "RuneCount", "Valid")

	sorts := Func{Effect: ChangesFirst, Sorts: true}
	add(sorts, "sort", "Float64s", "Ints", "Slice", "SliceStable", "Sort", "Stable", "Strings")
	add(sorts, "slices", "Sort", "SortFunc", "SortStableFunc")
	add(Func{Effect: ChangesFirst}, "slices", "Reverse")

	// Compiler intrinsics, whose dead result is deleted like any
	// arithmetic, and one-line functions of intrinsics.
	inlined := func(intrinsic, foldable bool) Func {
		return Func{Effect: ReadsOnly, Plain: &Plain{Intrinsic: intrinsic, Foldable: foldable, Ops: 2}}
	}
	add(inlined(true, true), "math", "Sqrt", "Floor", "Ceil", "Trunc", "RoundToEven")
	add(inlined(false, true), "math", "Abs", "Copysign", "Signbit", "IsNaN", "IsInf")
	// Bit casts move a register: no instruction to fold.
	add(Func{Effect: ReadsOnly, Plain: &Plain{Foldable: true}}, "math",
		"Float64bits", "Float64frombits", "Float32bits", "Float32frombits")
	add(inlined(true, true), "math/bits",
		"OnesCount", "OnesCount8", "OnesCount16", "OnesCount32", "OnesCount64",
		"Len", "Len8", "Len16", "Len32", "Len64",
		"TrailingZeros", "TrailingZeros8", "TrailingZeros16", "TrailingZeros32", "TrailingZeros64")
	add(inlined(false, true), "math/bits",
		"LeadingZeros", "LeadingZeros8", "LeadingZeros16", "LeadingZeros32", "LeadingZeros64")
	add(inlined(true, false), "math/bits",
		"ReverseBytes", "ReverseBytes16", "ReverseBytes32", "ReverseBytes64",
		"RotateLeft", "RotateLeft8", "RotateLeft16", "RotateLeft32", "RotateLeft64",
		"Add64", "Sub64", "Mul64")

	// Builtins: plain arithmetic or loads; reading (print, println,
	// panic, whose call the benchmark never takes); changing their first
	// argument.
	for _, name := range []string{"len", "cap", "min", "max", "real", "imag", "complex", "ssa:wrapnilchk"} {
		builtins[name] = Func{Effect: ReadsOnly, Plain: &Plain{Intrinsic: true}}
	}
	for _, name := range []string{"print", "println", "panic"} {
		builtins[name] = Func{Effect: ReadsOnly}
	}
	for _, name := range []string{"append", "copy", "delete", "clear"} {
		builtins[name] = Func{Effect: ChangesFirst}
	}
}
