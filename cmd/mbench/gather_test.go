package main

import (
	"slices"
	"testing"
)

// gatherGolden checks that the runs sharing a label read as one result in
// every command that reads stored runs: two runs of disjoint parts of the
// suite under label "parts" (as two CI jobs would measure it), two runs of
// the same benchmark on instances a and b under label "fleet", and the
// shards of -shard: complete, one measured twice, and some missing; and two
// A/B sessions of one label.
func gatherGolden(t *testing.T, bins fakes) {
	g := newGolden(t, bins)
	// Runs are of instance ci unless extra names another, so that no
	// output names this machine.
	run := func(name, label, bench, bin string, extra ...string) {
		t.Helper()
		if !slices.Contains(extra, "-instance") {
			extra = append(extra, "-instance", "ci")
		}
		args := []string{"run", "-db", "m.db", "-label", label, "-criterion", "static", "-f-min", "2", "-f-max", "2", "-mi", "2",
			"-iter", "5ms", "-bench", bench}
		g.check("gather/"+name, exitOK, append(append(args, extra...), bin)...)
	}
	run("run-base", "base", ".", "old.test")
	run("run-part-1", "parts", "Sum|Parse", "fake.test")
	run("run-part-2", "parts", "Join", "fake.test")
	g.check("gather/runs", exitOK, "runs", "-db", "m.db")
	g.check("gather/export", exitOK, "export", "-db", "m.db", "parts")
	g.check("gather/compare", exitOK, "compare", "-db", "m.db", "base", "parts")
	g.check("gather/report", exitOK, "report", "-db", "m.db", "-format", "text", "base", "parts")
	g.check("gather/history", exitOK, "history", "-db", "m.db", "-bench", "Sum")
	// An id still names one run.
	g.check("gather/export-latest", exitOK, "export", "-db", "m.db", "latest")

	run("run-instance-a", "fleet", "Sum", "new.test", "-instance", "a")
	run("run-instance-b", "fleet", "Sum", "new.test", "-instance", "b")
	g.check("gather/export-instances", exitOK, "export", "-db", "m.db", "fleet")
	g.check("gather/compare-instances", exitOK, "compare", "-db", "m.db", "base", "fleet")

	// Balanced by the times of base, one run, so that the basis the
	// shards record names it alone; by its iteration times (see untime).
	untime(t, "m.db", "base")
	run("run-shard-1", "sharded", ".", "fake.test", "-shard", "1/2", "-shard-basis", "base")
	run("run-shard-2", "sharded", ".", "fake.test", "-shard", "2/2", "-shard-basis", "base")
	g.check("gather/compare-shards", exitOK, "compare", "-db", "m.db", "base", "sharded")
	// Shard 1/2 again, as a CI job run again would measure it.
	run("run-shard-1-again", "sharded", ".", "fake.test", "-shard", "1/2", "-shard-basis", "base")
	g.check("gather/export-duplicate-shard", exitOK, "export", "-db", "m.db", "sharded")
	run("run-shard-1-of-3", "third", ".", "fake.test", "-shard", "1/3", "-shard-basis", "base")
	g.check("gather/compare-missing-shards", exitOK, "compare", "-db", "m.db", "base", "third")

	// Two A/B sessions of disjoint benchmarks under one label analyse as
	// one, each round paired within its own session.
	ab := []string{"ab", "-db", "m.db", "-old-bin", "old.test", "-new-bin", "new.test", "-budget", "0", "-budget-per-benchmark", "0",
		"-min-rounds", "3", "-max-rounds", "5", "-iter", "5ms", "-seed", "3", "-old-label", "before", "-new-label", "after", "-instance", "ci"}
	g.check("gather/ab-sum", exitOK, append(ab, "-bench", "Sum")...)
	g.check("gather/ab-join", exitOK, append(ab, "-bench", "Join")...)
	g.check("gather/compare-ab", exitOK, "compare", "-db", "m.db", "before..after")
}
