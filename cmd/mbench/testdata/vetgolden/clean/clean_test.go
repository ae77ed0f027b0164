package clean

import "testing"

var (
	in   = 21
	sink int
)

func BenchmarkDouble(b *testing.B) {
	for b.Loop() {
		sink = Double(in)
	}
}
