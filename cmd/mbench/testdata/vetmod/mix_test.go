package vetmod

import "testing"

var input uint64 = 12345

var sink uint64

// BenchmarkMixDead discards Mix's result: the compiler removes the call.
func BenchmarkMixDead(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Mix(input)
	}
}

// BenchmarkMixKept uses the result: nothing to report.
func BenchmarkMixKept(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += Mix(input)
	}
}
