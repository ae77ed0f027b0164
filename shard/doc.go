// Package shard splits one suite of benchmarks over many machines and
// holds the rules by which their runs fit back together as one result.
//
// A run of shard i of n (mbench run -shard i/n, mbench ab -shard i/n)
// discovers the whole suite, splits it with Partition and measures only
// its part. Every machine must compute the same parts without talking to
// the others, so the split depends only on the suite's keys and on the
// times it is balanced by: the basis, which FindBasis finds in the result
// store (the newest complete result of the suite under another label) or
// which the user names. Take does both and returns the Plan; the run
// records the plan's Settings (the shard, the basis and SuiteID of the
// suite) so that a reader can tell whether the shards of a label fit.
//
// A reader gathers the runs of a label into one result (store.Gather);
// CheckRuns says what does not fit: shards of different splits, shards
// missing, a shard measured twice on one instance (the complete run is
// kept over the one that did not complete), a benchmark measured by two
// shards, and whole runs of different suites.
//
// The design, its commands and recipes are in docs/scale-out.md.
package shard
