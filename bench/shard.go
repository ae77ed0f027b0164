package bench

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
)

// SuiteID identifies a set of benchmark keys independently of its order:
// "<count>:<hash>", the hash being the first 8 hex digits of the 32-bit
// FNV-1a of the keys' String forms, sorted and each ended by a newline.
// Two shards of the same suite have the same SuiteID.
func SuiteID(keys []Key) string {
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

// A Shard is one part of a suite split across machines or CI jobs: part
// Index of Count, counting from 1. The zero Shard is the whole suite.
type Shard struct {
	Index, Count int
}

// MaxShards is the most parts a suite can be split into.
const MaxShards = 1024

// ParseShard parses "i/n", shard i of n, with 1 ≤ i ≤ n ≤ MaxShards. Its
// errors name the value.
func ParseShard(s string) (Shard, error) {
	is, ns, ok := strings.Cut(s, "/")
	i, ierr := strconv.Atoi(is)
	n, nerr := strconv.Atoi(ns)
	want := fmt.Sprintf("want i/n, shard i of n, with 1 ≤ i ≤ n ≤ %d", MaxShards)
	switch {
	case !ok || ierr != nil || nerr != nil || strings.ContainsAny(s, "+- "):
		return Shard{}, fmt.Errorf("%q: not two numbers i/n; %s", s, want)
	case n < 1 || n > MaxShards:
		return Shard{}, fmt.Errorf("%q: %d shards; %s", s, n, want)
	case i < 1:
		return Shard{}, fmt.Errorf("%q: shards count from 1; %s", s, want)
	case i > n:
		return Shard{}, fmt.Errorf("%q: shard %d of only %d; %s", s, i, n, want)
	}
	return Shard{Index: i, Count: n}, nil
}

// String returns the shard as ParseShard reads it, "" for the whole suite.
func (s Shard) String() string {
	if s.Whole() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Whole reports whether s is the zero Shard, the whole suite.
func (s Shard) Whole() bool { return s == Shard{} }
