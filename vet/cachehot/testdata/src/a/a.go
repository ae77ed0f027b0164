package a

import (
	"bytes"
	"math/rand"
	"slices"
	"sort"
	"strconv"
	"sync"
	"testing"
)

type Cache struct{ m map[int]int }

func (c *Cache) Set(k, v int)         { c.m[k] = v }
func (c *Cache) Get(k int) int        { return c.m[k] }
func (c *Cache) Put(k int) bool       { c.m[k] = k; return true }
func (c *Cache) Len() int             { return len(c.m) }
func (c *Cache) Add(k int) error      { c.m[k] = k; return nil }
func (c *Cache) Has(k int) bool       { _, ok := c.m[k]; return ok }
func (c *Cache) Each(f func(int)) int { return 0 }

const hotKey = "k500"

var sink int

func BenchmarkMapSameKey(b *testing.B) {
	m := make(map[string]int)
	for i := 0; i < 1000; i++ {
		m["k"+strconv.Itoa(i)] = i
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += m["k500"] // want `m\["k500"\] looks up the same key in every iteration, in m, which the loop at line 29 filled with many`
	}
}

func BenchmarkMapPackageConst(b *testing.B) {
	m := make(map[string]int)
	for i := range 1000 {
		m["k"+strconv.Itoa(i)] = i
	}
	for b.Loop() {
		_ = m[hotKey] // want `m\[hotKey\] looks up the same key`
	}
}

func BenchmarkMethodGet(b *testing.B) {
	c := &Cache{m: map[int]int{}}
	for i := 0; i < 1<<16; i++ {
		c.Set(i, i)
	}
	for b.Loop() {
		c.Get(500) // want `c.Get\(500\) looks up the same key`
	}
}

func BenchmarkMethodHasAfterAdd(b *testing.B) {
	c := &Cache{m: map[int]int{}}
	for i := 0; i < 100; i++ {
		if err := c.Add(i * 7); err != nil {
			b.Fatal(err)
		}
	}
	k := 700
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !c.Has(k) { // want `c.Has\(k\) looks up the same key`
			b.Fatal("missing")
		}
	}
}

func BenchmarkSyncMap(b *testing.B) {
	var m sync.Map
	for i := 0; i < 1000; i++ {
		m.Store(i, i)
	}
	for b.Loop() {
		m.Load(500) // want `m.Load\(500\) looks up the same key`
	}
}

func BenchmarkBinarySearch(b *testing.B) {
	var xs []int
	for i := 0; i < 1<<20; i++ {
		xs = append(xs, 2*i)
	}
	for i := 0; i < b.N; i++ {
		sink += sort.SearchInts(xs, 1000) // want `sort.SearchInts\(xs, 1000\) looks up the same key`
	}
}

func BenchmarkBinarySearchIndexed(b *testing.B) {
	xs := make([]int, 1<<16)
	for i := range xs {
		xs[i] = 3 * i
	}
	for b.Loop() {
		slices.BinarySearch(xs, 300) // want `slices.BinarySearch\(xs, 300\) looks up the same key`
	}
}

// A slice written at one place with one value holds nothing to cycle.
func BenchmarkSliceConstantWrite(b *testing.B) {
	xs := make([]int, 1000)
	for i := 0; i < 1000; i++ {
		xs[0] = 5
	}
	for b.Loop() {
		slices.Index(xs, 5)
	}
}

func BenchmarkSubBenchmark(b *testing.B) {
	m := make(map[int]int)
	for i := 0; i < 1000; i++ {
		m[i] = i
	}
	key := 999
	b.Run("hit", func(b *testing.B) {
		for b.Loop() {
			_ = m[key] // want `m\[key\] looks up the same key`
		}
	})
}

func BenchmarkFilledInSubBenchmark(b *testing.B) {
	b.Run("hit", func(b *testing.B) {
		m := make(map[int]int)
		for i := 0; i < 1000; i++ {
			m[i] = i
		}
		for b.Loop() {
			_ = m[3] // want `m\[3\] looks up the same key`
		}
	})
}

func BenchmarkSetupNLoop(b *testing.B) {
	m := make(map[int]int)
	for i := 0; i < b.N; i++ {
		m[i] = i
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += m[42] // want `m\[42\] looks up the same key`
	}
}

// Correct: the keys are generated before the timer and cycled through.
func BenchmarkCycledKeys(b *testing.B) {
	m := make(map[string]int)
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = "k" + strconv.Itoa(i)
		m[keys[i]] = i
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += m[keys[i%len(keys)]]
	}
}

func BenchmarkKeyAssignedInLoop(b *testing.B) {
	m := make(map[int]int)
	for i := 0; i < 1000; i++ {
		m[i] = i
	}
	k := 0
	for i := 0; i < b.N; i++ {
		k = i & 1023
		sink += m[k]
	}
}

func BenchmarkRandomKey(b *testing.B) {
	m := make(map[int]int)
	for i := 0; i < 1000; i++ {
		m[i] = i
	}
	for b.Loop() {
		_ = m[rand.Intn(1000)]
	}
}

// One key stored many times is one key: nothing else to look up.
func BenchmarkConstantFill(b *testing.B) {
	m := make(map[string]int)
	for i := 0; i < 1000; i++ {
		m["x"] = i
	}
	for b.Loop() {
		_ = m["x"]
	}
}

func fillMap(n int) map[int]int {
	m := make(map[int]int)
	for i := 0; i < n; i++ {
		m[i] = i
	}
	return m
}

// Filled by a helper: the analyzer does not look into it.
func BenchmarkHelperFill(b *testing.B) {
	m := fillMap(1000)
	for b.Loop() {
		_ = m[5]
	}
}

func BenchmarkOneTrip(b *testing.B) {
	m := make(map[int]int)
	for i := 0; i < 1; i++ {
		m[i] = i
	}
	for b.Loop() {
		_ = m[0]
	}
}

// The same method fills and is timed: a repeated write, not a search.
func BenchmarkSameMethod(b *testing.B) {
	c := &Cache{m: map[int]int{}}
	for i := 0; i < 1000; i++ {
		c.Put(i)
	}
	for b.Loop() {
		c.Put(5)
	}
}

// A method without arguments has no key.
func BenchmarkLen(b *testing.B) {
	c := &Cache{m: map[int]int{}}
	for i := 0; i < 1000; i++ {
		c.Set(i, i)
	}
	for b.Loop() {
		c.Len()
	}
}

// A byte slice is scanned, not searched by key.
func BenchmarkIndexByte(b *testing.B) {
	buf := make([]byte, 4096)
	for i := range buf {
		buf[i] = byte(i)
	}
	for b.Loop() {
		bytes.IndexByte(buf, 0xff)
	}
}

// Calls whose results the fill loop uses do not fill the receiver.
func BenchmarkRandSource(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	xs := make([]int, 1000)
	for i := range xs {
		xs[i] = r.Intn(i + 1)
	}
	for b.Loop() {
		r.Intn(100)
	}
}

var globalKey = 5

func setGlobalKey(k int) { globalKey = k }

func BenchmarkAssignedGlobal(b *testing.B) {
	m := make(map[int]int)
	for i := 0; i < 1000; i++ {
		m[i] = i
	}
	for b.Loop() {
		_ = m[globalKey]
	}
}

func BenchmarkInFuncLit(b *testing.B) {
	m := make(map[int]int)
	for i := 0; i < 1000; i++ {
		m[i] = i
	}
	for b.Loop() {
		func() { _ = m[5] }()
	}
}

// The timed loop rebuilds the map: not the setup's collection.
func BenchmarkRebuilt(b *testing.B) {
	m := make(map[int]int)
	for i := 0; i < 1000; i++ {
		m[i] = i
	}
	for b.Loop() {
		m = map[int]int{1: 1}
		_ = m[1]
	}
}

// Fill loops after the timed loop do not count.
func BenchmarkFillAfter(b *testing.B) {
	m := make(map[int]int)
	for b.Loop() {
		_ = m[1]
	}
	for i := 0; i < 1000; i++ {
		m[i] = i
	}
}
