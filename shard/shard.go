package shard

import (
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"github.com/mbench/mbench/bench"
)

// A Shard is one part of a suite split across machines or CI jobs: part
// Index of Count, counting from 1. The zero Shard is the whole suite.
//
// The unit a suite is split into is the benchmark key: a leaf benchmark
// (sub-benchmarks included, each on its own) at one GOMAXPROCS. Every
// target runs by an anchored pattern that selects it alone, so the
// sub-benchmarks of one function may land in different shards; the
// function's own code before b.Run then runs in each of them, as it runs
// in every process that measures one of its sub-benchmarks anyway. All
// versions of a key, in a run of several labelled binaries or an A/B
// session, stay together.
type Shard struct {
	Index, Count int
}

// Max is the most parts a suite can be split into.
const Max = 1024

// Parse parses "i/n", shard i of n, with 1 ≤ i ≤ n ≤ Max. Its errors
// name the value.
func Parse(s string) (Shard, error) {
	is, ns, ok := strings.Cut(s, "/")
	i, ierr := strconv.Atoi(is)
	n, nerr := strconv.Atoi(ns)
	want := fmt.Sprintf("want i/n, shard i of n, with 1 ≤ i ≤ n ≤ %d", Max)
	switch {
	case !ok || ierr != nil || nerr != nil || strings.ContainsAny(s, "+- "):
		return Shard{}, fmt.Errorf("%q: not two numbers i/n; %s", s, want)
	case n < 1 || n > Max:
		return Shard{}, fmt.Errorf("%q: %d shards; %s", s, n, want)
	case i < 1:
		return Shard{}, fmt.Errorf("%q: shards count from 1; %s", s, want)
	case i > n:
		return Shard{}, fmt.Errorf("%q: shard %d of only %d; %s", s, i, n, want)
	}
	return Shard{Index: i, Count: n}, nil
}

// String returns the shard as Parse reads it, "" for the whole suite.
func (s Shard) String() string {
	if s.Whole() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Whole reports whether s is the zero Shard, the whole suite.
func (s Shard) Whole() bool { return s == Shard{} }

// Validate reports a shard Parse would not return, and a basis without a
// shard, naming the flags mbench run and mbench ab take them by (-shard,
// -shard-basis).
func Validate(s Shard, basis string) error {
	switch {
	case basis != "" && s.Whole():
		return errors.New("-shard-basis without -shard: give the shard")
	case s.Whole():
		return nil
	}
	if _, err := Parse(s.String()); err != nil {
		return fmt.Errorf("-shard %v", err)
	}
	return nil
}

// SuiteID identifies a set of benchmark keys independently of its order:
// "<count>:<hash>", the hash being the first 8 hex digits of the 32-bit
// FNV-1a of the keys' String forms, sorted and each ended by a newline.
// Two shards of the same suite have the same SuiteID.
func SuiteID(keys []bench.Key) string {
	names := make([]string, 0, len(keys))
	for _, k := range keys {
		names = append(names, k.String())
	}
	slices.Sort(names)
	names = slices.Compact(names)
	h := fnv.New32a()
	for _, n := range names {
		h.Write([]byte(n))
		h.Write([]byte{'\n'})
	}
	return fmt.Sprintf("%d:%08x", len(names), h.Sum32())
}
