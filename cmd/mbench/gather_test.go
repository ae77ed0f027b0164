package main

import "testing"

// gatherGolden checks that the runs sharing a label read as one result in
// every command that reads stored runs: two runs of disjoint parts of the
// suite under label "parts" (as two CI jobs would measure it), and two runs
// of the same benchmark on instances a and b under label "fleet".
func gatherGolden(t *testing.T, bins fakes) {
	g := newGolden(t, bins)
	run := func(name, label, bench, bin string, extra ...string) {
		t.Helper()
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
}
