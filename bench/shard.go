package bench

import (
	"fmt"
	"hash/fnv"
	"slices"
)

// Settings of a run that measured one shard of a suite (mbench run -shard,
// mbench ab -shard). Together they let a reader that gathers the runs of one
// label tell whether the shards fit: two runs claiming the same part, parts
// planned from different bases, parts missing, or parts of different suites.
const (
	// SettingShard is the part the run measured, "i/n": shard i of n,
	// counting from 1.
	SettingShard = "shard"
	// SettingShardBasis is what the partition was balanced by: the id of
	// the stored run whose times planned it (several, comma-separated,
	// when the runs of one label planned it together), or "hash" when no
	// run of the suite was known and keys were spread by a stable hash.
	// Shards of one suite agree on their parts only when they agree on it.
	SettingShardBasis = "shard.basis"
	// SettingShardSuite identifies the whole suite that was partitioned,
	// before any shard was taken out of it: SuiteID of its keys.
	SettingShardSuite = "shard.suite"
)

// ShardBasisHash is the SettingShardBasis of a partition made by hash.
const ShardBasisHash = "hash"

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
