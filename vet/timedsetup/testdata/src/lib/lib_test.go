package lib_test

import (
	"testing"

	"lib"
)

var sink int

func BenchmarkBuild(b *testing.B) {
	keys := lib.Build(1 << 16) // want `setup before the b.N loop is timed`
	for i := 0; i < b.N; i++ {
		sink += keys[i%len(keys)]
	}
}

func BenchmarkBuildSmall(b *testing.B) {
	keys := lib.Build(8)
	for i := 0; i < b.N; i++ {
		sink += keys[i%len(keys)]
	}
}

func BenchmarkWarm(b *testing.B) {
	keys := lib.Build(1 << 16)
	lib.Warm(b)
	for i := 0; i < b.N; i++ {
		sink += keys[i%len(keys)]
	}
}
