package fix

import "testing"

var (
	sink  int
	fsink float64
	usink uint16
)

const width = 8

func BenchmarkLiteral(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Mix(1, width) // want `all arguments of fix.Mix are constants`
	}
}

// A constant in a local variable (Float32ToBFloat16 of ClickHouse/ch-go).
func BenchmarkLocal(b *testing.B) {
	v := float32(1.234567)
	for b.Loop() {
		usink = Round(v) // want `all arguments of fix.Round are constants`
	}
}

func BenchmarkReceiver(b *testing.B) {
	b.Run("boiling", func(b *testing.B) {
		for b.Loop() {
			fsink = Celsius(100).Fahrenheit() // want `all arguments of Celsius.Fahrenheit are constants`
		}
	})
}

// The fix goes before the outermost loop.
func BenchmarkNested(b *testing.B) {
	for i := 0; i < b.N; i++ {
		for j := 0; j < 3; j++ {
			sink += Mix(2, 3) // want `all arguments of fix.Mix are constants`
		}
	}
}

// A labelled loop: the inputs are assigned before the label.
func BenchmarkLabelled(b *testing.B) {
outer:
	for i := 0; i < b.N; i++ {
		if sink < 0 {
			break outer
		}
		sink = Mix(width, width) // want `all arguments of fix.Mix are constants`
	}
}

// Under RunParallel, the inputs are assigned once, before b.RunParallel.
func BenchmarkParallel(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		s := 0
		for pb.Next() {
			s += Mix(4, 5) // want `all arguments of fix.Mix are constants`
		}
		if s < 0 {
			b.Error(s)
		}
	})
}

// No fix below: the golden file leaves these loops as they are.

// The constant is declared inside the loop.
func BenchmarkDeclaredInside(b *testing.B) {
	for b.Loop() {
		v := float32(2.5)
		usink = Round(v) // want `all arguments of fix.Round are constants`
	}
}
