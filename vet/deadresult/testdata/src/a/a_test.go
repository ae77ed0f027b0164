package a

import (
	"math"
	"sync/atomic"
	"testing"
)

var (
	sink  int
	fsink float64
)

func BenchmarkDiscard(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Add(i, 1) // want `^result of a.Add is never used: the compiler may remove the call in a b.N loop; use it \(e.g. assign to a package-level sink\) or loop with b.Loop$`
	}
}

func BenchmarkBlank(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_ = Hypot(float64(i), 2) // want `result of a.Hypot is never used`
	}
}

func BenchmarkOverwritten(b *testing.B) {
	var r float64
	for i := 0; i < b.N; i++ {
		r = Point{float64(i), 1}.Norm() // want `result of Point.Norm is never used`
	}
	_ = r
}

func BenchmarkAccumulatedNeverRead(b *testing.B) {
	s := 0
	for i := 0; i < b.N; i++ {
		s += Add(i, i) // want `result of a.Add is never used`
	}
}

func BenchmarkKinds(b *testing.B) {
	for i := range b.N {
		DivMod(i, 3)         // want `result of a.DivMod is never used`
		q, _ := DivMod(i, 7) // want `result of a.DivMod is never used`
		_ = q
		Celsius(i).Fahrenheit()     // want `result of Celsius.Fahrenheit is never used`
		math.Sqrt(float64(i))       // want `result of math.Sqrt is never used`
		Swap(i, 1)                  // selects its parameters: nothing lost next to Double
		Double(i)                   // may panic: an effect the compiler keeps, with what feeds it
		SumTo(i)                    // want `result of a.SumTo is never used`
		Lookup(i)                   // want `result of a.Lookup is never used`
		_ = Square(float64(i)) + 1. // want `result of a.Square is never used`
	}
}

func BenchmarkSub(b *testing.B) {
	b.Run("closure", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			Add(i, 2) // want `result of a.Add is never used`
		}
	})
}

func BenchmarkAccumulatingLoops(b *testing.B) {
	s := &Bits{words: make([]uint64, 64)}
	digits := []byte("123")
	card := uint(0)
	for i := 0; i < b.N; i++ {
		card = card + s.Count() // want `result of Bits.Count is never used`
		ParseDigits(digits)     // want `result of a.ParseDigits is never used`
	}
}

func BenchmarkCounters(b *testing.B) {
	tape := make([]uint64, 64)
	next := make([]int, 64)
	for i := 0; i < b.N; i++ {
		CountOdd(tape) // want `result of a.CountOdd is never used`
		Weight(tape)   // want `result of a.Weight is never used`
		CountTape(tape)
		CountDown(next)
	}
}

func BenchmarkChecked(b *testing.B) {
	doc := 0
	sel := &Selection{Nodes: []*int{&doc, &doc}, prevSel: &Selection{}}
	for i := 0; i < b.N; i++ {
		sel.Get(i & 1)  // want `result of Selection.Get is never used`
		sel.OrNil()     // want `result of Selection.OrNil is never used`
		Max(i, 3)       // want `result of a.Max is never used`
		sel.Push(i & 1) // want `result of Selection.Push is never used`
		sel.End()
	}
}

// Nothing below may be reported.

func BenchmarkControlLoops(b *testing.B) {
	data := []byte("1234567890,")
	s := &Bits{words: make([]uint64, 64)}
	o := &Bits{words: make([]uint64, 64)}
	var rows [4][]byte
	for i := 0; i < b.N; i++ {
		_ = TokenEnd(data)
		s.Intersects(o)
		Estimate(&rows, uint64(i))
	}
}

func BenchmarkStringCompare(b *testing.B) {
	key := []byte("key")
	str := "key"
	for i := 0; i < b.N; i++ {
		EqualStr(&key, str)
		SameStr(str, "other")
	}
}

func BenchmarkBLoop(b *testing.B) {
	i := 0
	for b.Loop() {
		Add(i, 1)
		_ = Hypot(1, 2)
		i++
	}
}

func BenchmarkSink(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Add(i, 1)
		fsink = math.Sqrt(float64(i))
		q, _ := DivMod(i, 3)
		sink += q
		sink = Add(Add(i, 1), 2)
	}
}

func BenchmarkAccumulated(b *testing.B) {
	s := 0
	var f float64
	for i := 0; i < b.N; i++ {
		s += Add(i, 1)
		f = Hypot(f, 1)
	}
	sink = s
	b.ReportMetric(f, "f")
}

func BenchmarkUsedInCondition(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if Add(i, 1) < 0 {
			b.Fatal("negative")
		}
	}
}

func BenchmarkEffects(b *testing.B) {
	x := 0
	m := map[string]int{"k": 1}
	p := &Point{1, 2}
	for i := 0; i < b.N; i++ {
		Record(i)
		Print(i)
		Set(&x, i)
		Concat("a", "b")
		Upper("a")
		Count(m, "k")
		p.Scale(1)
		Opaque(i)
		Fib(10)
		Big(i)
	}
}

func BenchmarkIndirect(b *testing.B) {
	var sh Shape = Square2{2}
	f := Add
	for i := 0; i < b.N; i++ {
		sh.Area()
		f(i, 1)
		func() { Add(i, 1) }()
	}
}

func BenchmarkTable(b *testing.B) {
	cases := []struct {
		name string
		x, y int
	}{{"small", 1, 2}, {"large", 1 << 20, 3}}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink = Add(tc.x, tc.y)
			}
		})
	}
}

func BenchmarkOutsideLoop(b *testing.B) {
	Add(1, 2)
	for i := 0; i < b.N; i++ {
		sink = i
	}
}

// A table lookup at a computed index is work, not a selection.
func BenchmarkTableLookup(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Log2Byte(byte(i)) // want `result of a.Log2Byte is never used`
	}
}

// Next to a lookup, a check with package testing and a conversion, a
// deleted lookup still leaves an empty loop.
func BenchmarkTableLookupChecked(b *testing.B) {
	t, err := NewTuple(8)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		if len(t.offsets) == 0 {
			b.Fatal("empty")
		}
		Log2Byte(byte(i))  // want `result of a.Log2Byte is never used`
		_, _ = t.Offsets() // want `result of Tuple.Offsets is never used`
	}
}

// A lookup whose result is kept is no work beside which a dead lookup
// would vanish.
func BenchmarkTableLookupPair(b *testing.B) {
	t, _ := NewTuple(8)
	for i := 0; i < b.N; i++ {
		sink = Log2Byte(byte(i))
		_, _ = t.Offsets() // want `result of Tuple.Offsets is never used`
	}
}

// A pure call whose result only feeds a dead accessor goes with it: the
// loop does nothing.
func BenchmarkAccessorChain(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_ = MakePair(i, 2).First() // want `result of a.MakePair is never used`
	}
}

// Nothing below may be reported.

// A dead lookup next to the constructor that computes what it looks up
// (BenchmarkGetStripedOffsets of k6: A/B 18,247-18,751 against
// 18,264-19,543 ns/op): its few loads are nothing beside the work.
func BenchmarkLookupAfterConstructor(b *testing.B) {
	for i := 0; i < b.N; i++ {
		t, err := NewTuple(100)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = t.Offsets()
		Log2Byte(byte(i))
	}
}

// An accessor alone in its loop: the deletion saves one load, about what
// a sink would cost (go-ini's Key.Value, return k.value: A/B 0.17 vs 0.48
// ns/op, the sink's own cost).
func BenchmarkAccessorAlone(b *testing.B) {
	it := &Iter{data: []byte("abc"), pos: 2}
	for i := 0; i < b.N; i++ {
		it.Value()
	}
}

// The dead accessor costs a few loads next to the tokenisation the loop
// times (the segmentation benchmarks of clipperhouse/uax29).
func BenchmarkAccessorWithWork(b *testing.B) {
	data := []byte("some text to split")
	for i := 0; i < b.N; i++ {
		it := NewIter(data)
		for it.Next() {
			_ = it.Value()
		}
	}
}

func BenchmarkAccessorWithLiveCall(b *testing.B) {
	it := &Iter{data: []byte("abc"), pos: 2}
	for i := 0; i < b.N; i++ {
		sink = Add(i, 1)
		it.Value()
	}
}

// A constant or a package-level variable: there is no work to lose.
func BenchmarkStatic(b *testing.B) {
	it := &Iter{}
	for i := 0; i < b.N; i++ {
		it.Name()
		_ = Width()
	}
}

// The string switch's comparisons stay in the loop; the short integer
// switch goes.
func BenchmarkSwitch(b *testing.B) {
	tags := []string{"env", "version", "language", "other"}
	for i := 0; i < b.N; i++ {
		k, ok := TagKey(tags[i&3])
		_, _ = k, ok
		Level(i & 15) // want `result of a.Level is never used`
	}
}

func BenchmarkTrivialConstructor(b *testing.B) {
	items := []string{"a", "b", "c"}
	for range b.N {
		_ = NewPresorted(items...)
	}
}

// Under RunParallel, pb.Next loops are checked like b.N loops.
func BenchmarkParallel(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		x := 3
		for pb.Next() {
			Add(x, 1) // want `^result of a.Add is never used: the compiler may remove the call in a pb.Next loop; use it \(e.g. sum it into a variable declared before the loop, and use that after the loop\)$`
		}
	})
}

var psink atomic.Int64

func BenchmarkParallelUsed(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		s := 0
		for pb.Next() {
			s += Add(s, 1)
		}
		psink.Add(int64(s))
	})
}
