package handwritten

import "testing"

// BenchmarkTriple was written by hand: mbench gen must not overwrite it.
func BenchmarkTriple(b *testing.B) {
	for b.Loop() {
		Triple(7)
	}
}
