package c

import (
	"math"
	"math/bits"
	"strings"
	"testing"
)

var (
	sink  int
	fsink float64
	n     = 10 // an input the compiler cannot see through
)

const k = 7

func BenchmarkLiteral(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Mix(1, 2) // want `^all arguments of c.Mix are constants: the compiler may fold the call; pass inputs through a variable the compiler cannot see through \(e.g. a package-level var set in the benchmark\)$`
	}
}

func BenchmarkBLoop(b *testing.B) {
	for b.Loop() {
		Mix(3, 4)                         // want `all arguments of c.Mix are constants`
		sink = Mix(k, k)                  // want `all arguments of c.Mix are constants`
		fsink = Scale(2, 0.5)             // want `all arguments of c.Scale are constants`
		fsink = Celsius(100).Fahrenheit() // want `all arguments of Celsius.Fahrenheit are constants`
		fsink = math.Sqrt(2)              // want `all arguments of math.Sqrt are constants`
		sink = bits.OnesCount64(0xff)     // want `all arguments of bits.OnesCount64 are constants`
	}
}

func BenchmarkLocalConstant(b *testing.B) {
	x := 5
	for b.Loop() {
		sink = Mix(x, 1) // want `all arguments of c.Mix are constants`
	}
}

func BenchmarkSub(b *testing.B) {
	b.Run("const", func(b *testing.B) {
		for b.Loop() {
			sink = Mix(1, 1) // want `all arguments of c.Mix are constants`
		}
	})
}

// In a b.N loop one instruction to fold shows (Abs of chewxy/math32:
// 0.17 ns/op folded, 0.43 with its input from a variable).
func BenchmarkOneInstructionClassic(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Add(1, 2) // want `all arguments of c.Add are constants`
	}
}

// Under RunParallel, a pb.Next loop is checked like a b.N loop: one
// integer instruction shows beside pb.Next's own cost (about 1.2 ns/op).
func BenchmarkParallel(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		s := 0
		for pb.Next() {
			s += Mix(1, 2) // want `all arguments of c.Mix are constants`
			s += Add(3, 4) // want `all arguments of c.Add are constants`
		}
		if s < 0 {
			b.Error(s)
		}
	})
}

// Nothing below may be reported.

var f32sink float32

// In a b.Loop loop one integer instruction to fold costs nothing beside
// the loop's own (BFloat16ToFloat32 of ClickHouse/ch-go: A/B 0.517-0.518
// against 0.518-0.519 ns/op).
func BenchmarkOneInstruction(b *testing.B) {
	v := uint16(0x3f80)
	for b.Loop() {
		sink = Add(1, 2)
		f32sink = BFloat16ToFloat32(v)
	}
}

// The b.N loop nested in a b.Loop loop decides: its own cost is a cycle,
// so the one instruction shows.
func BenchmarkOneInstructionNested(b *testing.B) {
	for b.Loop() {
		for i := 0; i < b.N; i++ {
			sink = Add(1, 2) // want `all arguments of c.Add are constants`
		}
	}
}

func BenchmarkVariableInputs(b *testing.B) {
	x := 1
	for i := 0; i < b.N; i++ {
		sink = Mix(n, 1)
		sink = Mix(i, 1)
		x = Mix(x, 1)
	}
	sink = x
}

func BenchmarkTable(b *testing.B) {
	cases := []struct {
		name string
		x, y int
	}{{"small", 1, 2}, {"large", 1 << 20, 3}}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				sink = Mix(tc.x, tc.y)
			}
		})
	}
}

func BenchmarkCaptured(b *testing.B) {
	x := 5
	b.Run("captured", func(b *testing.B) {
		for b.Loop() {
			sink = Mix(x, 1)
		}
	})
}

func BenchmarkNotFoldable(b *testing.B) {
	for b.Loop() {
		sink = SumTo(10)
		sink = Lookup(1)
		sink = Record(1)
		sink = Answer()
		sink = len(Format(5))
		sink = Opaque(1)
		sink = Big(1)
		sink = len(strings.Repeat("a", 3))
	}
}

func BenchmarkSetup(b *testing.B) {
	x := Mix(1, 2)
	for b.Loop() {
		sink = Mix(x, n)
	}
}

func BenchmarkClosure(b *testing.B) {
	for b.Loop() {
		func() { sink = Mix(1, 2) }()
	}
}

var (
	treeSink     *tree
	intervalSink *mockInterval
	rangeSink    *immutableRangeTree
	handleSink   handle
)

func BenchmarkConstructors(b *testing.B) {
	for i := 0; i < b.N; i++ {
		t := newTree(1)
		sink = t.Len()
		treeSink = t
		intervalSink = constructSingleDimensionInterval(0, 100, 0)
		rangeSink = newImmutableRangeTree(2)
		handleSink = newHandle(2)
	}
}

var ipSink []ip4

func BenchmarkTrivialConstructor(b *testing.B) {
	for i := 0; i < b.N; i++ {
		ip := newIP4(8, 8, 8, 8)
		ipSink = append(ipSink[:0], ip, ip)
		sink = mkPair(3).x
		ip4Sink = newIP4Shifted(8, 8, 8, 8) // want `all arguments of c.newIP4Shifted are constants`
	}
}

var ip4Sink ip4

// A constant input of work that does not fold is setup, not the measured
// work (maxminddb-golang's stringCacheAdmissionValue before an atomic
// store). Passed to a function that folds, it is still reported.
func BenchmarkFeedsWork(b *testing.B) {
	for i := 0; i < b.N; i++ {
		ipSink = append(ipSink[:0], newIP4Shifted(8, 8, 8, 8))
		Record(int(Scale(2, 3)))
		sink = len(Format(Mix(1, 2)))
		sink = Mix(Mix(1, 2), i) // want `all arguments of c.Mix are constants`
	}
	for b.Loop() {
		Record(Mix(5, 6))
	}
	// Through a branch and another folding call (pebble's SeekGEFlags
	// before a seek).
	for i := 0; i < b.N; i++ {
		flags := 0
		if i&1 == 0 {
			flags = Mix(1, 2)
		}
		if i&2 == 0 {
			flags = Mix(flags, 4)
		}
		Record(flags)
	}
	// Boxed into an interface for an assertion helper (vcaesar/tt's
	// at.Equal(2, Add(1, 1)), 75 ns/op with the inputs constant or not).
	for i := 0; i < b.N; i++ {
		Equal(b, 2, Add(1, 1))
	}
	// An interface argument of a call that folds is still reported.
	for i := 0; i < b.N; i++ {
		sink = Unbox(Mix(1, 2)) // want `all arguments of c.Mix are constants`
	}
}

// Nothing to fold: the callee computes nothing.
func BenchmarkNoComputation(b *testing.B) {
	count := int64(0)
	for i := 0; i < b.N; i++ {
		count += valueInt(123).ToInteger()
		sink = First(1, 2)
	}
	sink += int(count)
}

// Inputs from a package-level variable under RunParallel.
func BenchmarkParallelVariable(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		s := 0
		for pb.Next() {
			s += Mix(n, 2)
		}
		if s < 0 {
			b.Error(s)
		}
	})
}
