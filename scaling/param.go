package scaling

import (
	"math"
	"strconv"
	"strings"
)

// ParseParam parses one part of a sub-benchmark name (the text between two
// slashes) as a numeric problem-size parameter. It accepts
//
//	n=1000  size=64  len=4KiB   a name, "=", and a number
//	Size1024  N100  Periodic16  letters and a number glued together
//	10Valid  1kValid  5x1       a number and a word glued together
//	1024  1kB  32KiB  4M  1e6   a number alone (name "")
//
// where a number is a decimal literal as strconv.ParseFloat reads it without
// sign, hexadecimal, "Inf" or "NaN" (1000, 0.5, 1e6, 2.5e-3), or a power
// b^e of two integers (2^10), followed by at most one multiplier prefix and
// an optional "B" for bytes:
//
//	k M G T P          SI prefixes, powers of 1000 (1kB = 1000 bytes)
//	Ki Mi Gi Ti Pi     IEC prefixes, powers of 1024 (1KiB = 1024 bytes)
//	K                  1024, the JEDEC kilo ("4K", as the bytes and strings
//	                   packages of the standard library name their sizes)
//
// Names are taken literally: "1kB" is 1000 even where a benchmark means 1024,
// as hash/crc32's does; within one family such a mislabel shifts the
// affected points by log(1.024), too little to change a complexity class.
// A parameter name starts with a letter or "_" and continues with letters,
// digits, "_", "-" or "."; anything else before "=" is not a name.
//
// The glued forms are how much Go code names sizes (slices' "Size1024",
// go-toml's "1kValid"); the name is then the word ("Size", "Valid"). They
// also read "sha256" as sha = 256, but a part only matters when at least
// three benchmarks differ in it alone (see Find), which words like that
// rarely do. A name with other characters before the digits ("utf-8",
// "x_1") is not a parameter. After a number, a multiplier letter followed
// by a lower-case letter starts the word instead ("1Mars" is 1 Mars), the
// CamelCase boundary; so "3ms" is 3 "ms", and a family of durations
// 1ms, 10ms, 100ms scales in milliseconds.
//
// Only positive finite values are parameters, since a problem size must
// lie on a logarithmic axis: "n=0" and "align=0" are not parameters.
func ParseParam(s string) (name string, x float64, ok bool) {
	if i := strings.IndexByte(s, '='); i >= 0 {
		name, s = s[:i], s[i+1:]
		if !isName(name) {
			return "", 0, false
		}
	} else if i := strings.IndexAny(s, "0123456789"); i > 0 && isLetters(s[:i]) {
		name, s = s[:i], s[i:]
	} else if _, whole := parseNumber(s); !whole {
		n := numberEnd(s)
		name, s = s[n:], s[:n]
	}
	x, ok = parseNumber(s)
	if !ok || !(x > 0) || math.IsInf(x, 0) {
		return "", 0, false
	}
	return name, x, true
}

// numberEnd returns the length of the longest prefix of s that is a number
// (with multiplier and "B") followed by a suffix name, or len(s) when
// there is none. A suffix name starts with a letter and goes on with
// letters and digits ("10Valid", "1kValid", "5x1"). A letter of the
// number (a multiplier or "B") followed by a lower-case letter is taken as
// the start of the name instead ("1Mars" is 1 Mars, not 1M ars; "1kBytes"
// is 1k Bytes), the CamelCase boundary.
func numberEnd(s string) int {
	for i := len(s) - 1; i > 0; i-- {
		suffix := s[i:]
		if !isLetters(suffix[:1]) || !isAlnum(suffix) || isExponent(suffix) {
			continue
		}
		if _, ok := parseNumber(s[:i]); !ok {
			continue
		}
		if 'a' <= suffix[0] && suffix[0] <= 'z' && isLetters(s[i-1:i]) {
			continue
		}
		return i
	}
	return len(s)
}

// isExponent reports whether s is "e" or "E" and digits, the rest of a
// number such as 1e400 that is out of range, not a name.
func isExponent(s string) bool {
	return (s[0] == 'e' || s[0] == 'E') && (len(s) == 1 || isDigits(s[1:]))
}

// isAlnum reports whether s is a run of ASCII letters and digits.
func isAlnum(s string) bool {
	for _, c := range s {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// isLetters reports whether s is a non-empty run of ASCII letters.
func isLetters(s string) bool {
	for _, c := range s {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return s != ""
}

// isName reports whether s is a parameter name (see ParseParam).
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// multipliers are the prefixes ParseParam accepts after a number, longest
// first so that "Ki" is not read as "K" followed by "i".
var multipliers = []struct {
	prefix string
	factor float64
}{
	{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"Ti", 1 << 40}, {"Pi", 1 << 50},
	{"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15},
	{"K", 1 << 10},
}

// parseNumber parses the value part of a parameter: a number, an optional
// multiplier prefix and an optional "B".
func parseNumber(s string) (float64, bool) {
	s = strings.TrimSuffix(s, "B")
	factor := 1.0
	for _, m := range multipliers {
		if rest, found := strings.CutSuffix(s, m.prefix); found {
			s, factor = rest, m.factor
			break
		}
	}
	if b, e, found := strings.Cut(s, "^"); found {
		base, err1 := strconv.ParseUint(b, 10, 32)
		exp, err2 := strconv.ParseUint(e, 10, 16)
		if err1 != nil || err2 != nil || !isDigits(b) || !isDigits(e) {
			return 0, false
		}
		return math.Pow(float64(base), float64(exp)) * factor, true
	}
	if !isDecimal(s) {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	return v * factor, true
}

// isDigits reports whether s is a non-empty run of ASCII digits.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isDecimal reports whether s is an unsigned decimal floating-point literal
// without underscores: digits, at most one ".", and an optional exponent
// "e" or "E" with an optional sign and digits. It keeps out what
// strconv.ParseFloat accepts beyond that ("Inf", "0x1p4", "1_000").
func isDecimal(s string) bool {
	mant, exp := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp = s[:i], s[i+1:]
		exp = strings.TrimLeft(exp, "+-")
		if len(exp) < len(s[i+1:])-1 || !isDigits(exp) {
			return false
		}
	}
	whole, frac, _ := strings.Cut(mant, ".")
	if whole == "" && frac == "" {
		return false
	}
	return (whole == "" || isDigits(whole)) && (frac == "" || isDigits(frac))
}
