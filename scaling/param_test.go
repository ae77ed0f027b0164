package scaling

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func TestParseParam(t *testing.T) {
	for _, tt := range []struct {
		in   string
		name string
		x    float64
		ok   bool
	}{
		{"n=1000", "n", 1000, true},
		{"size=64", "size", 64, true},
		{"1024", "", 1024, true},
		{"len=4KiB", "len", 4096, true},
		{"1kB", "", 1000, true},
		{"32kB", "", 32000, true},
		{"32KiB", "", 32768, true},
		{"4K", "", 4096, true}, // JEDEC, as the bytes package names sizes
		{"1M", "", 1e6, true},
		{"64MB", "", 64e6, true},
		{"2MiB", "", 2 << 20, true},
		{"3G", "", 3e9, true},
		{"1Gi", "", 1 << 30, true},
		{"1e6", "", 1e6, true},
		{"2.5e-3", "", 2.5e-3, true},
		{"1E+3", "", 1000, true},
		{"0.5", "", 0.5, true},
		{".5", "", 0.5, true},
		{"2^10", "", 1024, true},
		{"n=2^20", "n", 1 << 20, true},
		{"Size1024", "Size", 1024, true},
		{"N100", "N", 100, true},
		{"bytes=1kB", "bytes", 1000, true},
		{"my_size-2.x=16", "my_size-2.x", 16, true},
		{"10Valid", "Valid", 10, true},
		{"1kValid", "Valid", 1000, true},
		{"1MValidUtf8", "ValidUtf8", 1e6, true},
		{"5x1", "x1", 5, true},
		{"1Mars", "Mars", 1, true},
		{"3ms", "ms", 3, true},
		{"1.5x", "x", 1.5, true},
		{"1e6x", "x", 1e6, true},
		{"4KiBx", "Bx", 4096, true}, // the CamelCase boundary
		{"1kBytes", "Bytes", 1000, true},
		// Not parameters.
		{"", "", 0, false},
		{"json", "", 0, false},
		{"n=0", "", 0, false},
		{"align=0", "", 0, false},
		{"0", "", 0, false},
		{"-5", "", 0, false},
		{"n=-5", "", 0, false},
		{"n=", "", 0, false},
		{"=5", "", 0, false},
		{"1n=5", "", 0, false},
		{"a b=5", "", 0, false},
		{"utf-8", "", 0, false},
		{"x_1", "", 0, false},
		{"Inf", "", 0, false},
		{"NaN", "", 0, false},
		{"n=Inf", "", 0, false},
		{"0x10", "", 0, false},
		{"1_000", "", 0, false},
		{"1e400", "", 0, false},
		{"2^2000", "", 0, false},
		{"2^", "", 0, false},
		{"^2", "", 0, false},
		{"2^-1", "", 0, false},
		{"2^1.5", "", 0, false},
		{"1e", "", 0, false},
		{"1e+-3", "", 0, false},
		{"1.2.3", "", 0, false},
		{".", "", 0, false},
		{"B", "", 0, false},
		{"kB", "", 0, false},
		{"1BB", "B", 1, true},  // 1B and a word B
		{"1kk", "kk", 1, true}, // not 1k k: lower case after a multiplier
		{"5x_1", "", 0, false},
		{"0Valid", "", 0, false},
		{"1Valid-x", "", 0, false},
		{"10:20", "", 0, false},
		{"1 k", "", 0, false},
	} {
		name, x, ok := ParseParam(tt.in)
		if ok != tt.ok || name != tt.name || !near(x, tt.x, 1e-15) {
			t.Errorf("ParseParam(%q) = %q, %v, %v; want %q, %v, %v", tt.in, name, x, ok, tt.name, tt.x, tt.ok)
		}
	}
}

// near reports whether a and b agree within a relative tolerance.
func near(a, b, rel float64) bool {
	return a == b || math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}

// TestParseParamProperties checks, over seeded random values, that
// multiplying a number by a prefix's factor is what the prefix means, and
// that a name does not change the value.
func TestParseParamProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		v := math.Round(r.Float64()*1e6) / 1000 // up to 3 decimals
		if v == 0 {
			continue
		}
		num := fmt.Sprint(v)
		_, base, ok := ParseParam(num)
		if !ok || base != v {
			t.Fatalf("ParseParam(%q) = %v, %v", num, base, ok)
		}
		for _, m := range multipliers {
			for _, suffix := range []string{"", "B"} {
				s := num + m.prefix + suffix
				_, x, ok := ParseParam(s)
				if !ok || !near(x, v*m.factor, 1e-15) {
					t.Fatalf("ParseParam(%q) = %v, %v; want %v", s, x, ok, v*m.factor)
				}
				name, y, ok := ParseParam("size=" + s)
				if !ok || name != "size" || y != x {
					t.Fatalf("ParseParam(size=%s) = %q, %v, %v; want size, %v", s, name, y, ok, x)
				}
			}
		}
	}
}

func FuzzParseParam(f *testing.F) {
	for _, s := range []string{"n=1000", "4KiB", "1e6", "2^10", "Size64", "align=0", "x=1.5e-3kB", "utf-8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, x, ok := ParseParam(s)
		if !ok {
			if name != "" || x != 0 {
				t.Fatalf("ParseParam(%q) refused but returned %q, %v", s, name, x)
			}
			return
		}
		if !(x > 0) || math.IsInf(x, 0) {
			t.Fatalf("ParseParam(%q) = %v, not a positive finite size", s, x)
		}
		if name != "" && !isName(name) {
			t.Fatalf("ParseParam(%q) gave name %q", s, name)
		}
		// The value written back in %g parses to itself (round trip).
		back := fmt.Sprintf("%g", x)
		if name != "" {
			back = name + "=" + back
		}
		if n2, x2, ok := ParseParam(back); !ok || n2 != name || x2 != x {
			t.Fatalf("ParseParam(%q) = %q, %v; written back as %q it parses to %q, %v, %v", s, name, x, back, n2, x2, ok)
		}
	})
}
