package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/run"
	"github.com/mbench/mbench/store"
)

// TestGolden runs every command of mbench end to end, as a user would, and
// compares what it prints with testdata/golden/CMD/CASE.golden (go test
// -update rewrites them). Commands that run benchmarks run prebuilt test
// binaries: testdata/fakebench, a stand-in whose results depend only on its
// inputs (see its doc), built once here. Each group of cases works in a
// fresh directory, outside any git repository, with its own result
// database; the cases of a group run in order, later ones reading what
// earlier ones stored.
//
// What the inputs do not determine is normalised, narrowly: see
// normalizer. Everything else, the figures included, must be equal.
func TestGolden(t *testing.T) {
	bins := buildFakes(t)
	t.Run("help", func(t *testing.T) {
		g := newGolden(t, bins)
		for _, c := range commands {
			g.check("help/"+c.name, exitOK, "help", c.name)
		}
		g.check("help/unknown", exitUsage, "help", "nosuch")
		g.check("help/two-commands", exitUsage, "help", "run", "ab")
	})
	t.Run("bad-flag", func(t *testing.T) {
		g := newGolden(t, bins)
		for _, c := range commands {
			g.check(c.name+"/bad-flag", exitUsage, c.name, "-nosuch")
		}
	})
	t.Run("run", func(t *testing.T) {
		g := newGolden(t, bins)
		// cv stops each benchmark on its values alone: forks and
		// iterations are bounded, so no time limit intervenes.
		g.check("run/cv", exitOK, "run", "-db", "m.db", "-label", "cv", "-f-min", "2", "-f-max", "4", "-wi-max", "3", "-mi", "3",
			"-iter", "5ms", "-benchmem", "-seed", "7", "fake.test")
		g.checkFiles("run/static", exitOK, []string{"static.txt"}, "run", "-db", "m.db", "-label", "static", "-criterion", "static",
			"-f-min", "2", "-f-max", "2", "-wi-max", "1", "-mi", "2", "-iter", "5ms", "-bench", "Join", "-o", "static.txt", "-json", "static.jsonl", "fake.test")
		g.check("run/versions", exitOK, "run", "-db", "m.db", "-label", "versions", "-criterion", "static", "-f-min", "2", "-f-max", "2", "-mi", "2",
			"-iter", "5ms", "-bench", "Sum|Parse", "old=old.test", "new=new.test")
		g.check("run/cpu", exitOK, "run", "-db", "m.db", "-label", "cpu", "-criterion", "static", "-f-min", "2", "-f-max", "2", "-mi", "2",
			"-iter", "5ms", "-bench", "Sum", "-cpu", "1,2", "-v", "fake.test")
		// Parse fails in every process: discovery fails.
		t.Setenv("FAKEBENCH_FAIL", "Parse")
		g.check("run/failing-discovery", exitError, "run", "-db", "m.db", "-label", "failing", "-criterion", "static", "-f-min", "2", "-f-max", "2",
			"-mi", "2", "-iter", "5ms", "-bench", "Sum|Parse", "fake.test")
		// Counting processes afresh, Parse fails from its fourth on:
		// after discovery, calibration and one fork.
		t.Setenv("FAKEBENCH_STATE", t.TempDir())
		t.Setenv("FAKEBENCH_FAIL_FROM", "3")
		g.check("run/failing-fork", exitError, "run", "-db", "m.db", "-label", "failing", "-criterion", "static", "-f-min", "2", "-f-max", "2",
			"-mi", "2", "-iter", "5ms", "-bench", "Sum|Parse", "fake.test")
		t.Setenv("FAKEBENCH_FAIL", "")
		t.Setenv("FAKEBENCH_FAIL_FROM", "")
		// Join/n=10 logs a line of 200 KB before each result; every
		// benchmark, Join/n=10 too, is still measured.
		t.Setenv("FAKEBENCH_LONG", "Join/n=10$")
		g.check("run/long-line", exitOK, "run", "-db", "m.db", "-label", "long", "-criterion", "static", "-f-min", "2", "-f-max", "2",
			"-mi", "2", "-iter", "5ms", "fake.test")
		t.Setenv("FAKEBENCH_LONG", "")
		g.check("run/no-match", exitError, "run", "-db", "m.db", "-bench", "Nothing", "fake.test")
		g.check("run/missing-binary", exitError, "run", "-db", "m.db", "x=nope.test")
		g.check("run/bad-criterion", exitUsage, "run", "-db", "m.db", "-criterion", "median", "fake.test")
		g.check("run/bad-levels", exitUsage, "run", "-db", "m.db", "-levels", "1,2", "fake.test")
		g.check("run/levels-and-plan", exitUsage, "run", "-db", "m.db", "-levels", "1,2,3", "-plan", "p.json", "fake.test")
		g.check("run/bad-bench", exitUsage, "run", "-db", "m.db", "-bench", "(", "fake.test")

		g.check("runs/list", exitOK, "runs", "-db", "m.db")
		g.check("runs/no-db", exitError, "runs", "-db", "none.db")
		g.check("runs/args", exitUsage, "runs", "-db", "m.db", "cv")

		g.check("export/text", exitOK, "export", "-db", "m.db", "static")
		g.check("export/warmup", exitOK, "export", "-db", "m.db", "-warmup", "static")
		g.check("export/json", exitOK, "export", "-db", "m.db", "-format", "json", "static")
		g.checkFiles("export/o", exitOK, []string{"out.txt"}, "export", "-db", "m.db", "-o", "out.txt", "versions")
		g.check("export/latest", exitOK, "export", "-db", "m.db", "latest")
		g.check("export/unknown-run", exitError, "export", "-db", "m.db", "nosuch")
		g.check("export/no-db", exitError, "export", "-db", "none.db", "static")
		g.check("export/bad-format", exitUsage, "export", "-db", "m.db", "-format", "xml", "static")
		g.check("export/no-run", exitUsage, "export", "-db", "m.db")

		g.check("compare/stored-versions", exitOK, "compare", "-db", "m.db", "versions")
		g.check("compare/stored-runs", exitOK, "compare", "-db", "m.db", "cv", "static.jsonl")
		g.check("compare/unknown-run", exitError, "compare", "-db", "m.db", "cv", "nosuch")
	})
	t.Run("shard", func(t *testing.T) {
		g := newGolden(t, bins)
		static := []string{"-criterion", "static", "-f-min", "2", "-f-max", "2", "-mi", "2", "-iter", "5ms"}
		shard := func(name string, code int, args ...string) {
			g.check("run/"+name, code, append(append([]string{"run", "-db", "m.db"}, static...), append(args, "fake.test")...)...)
		}
		// A fresh store: by hash.
		shard("shard-hash-1", exitOK, "-label", "halves", "-shard", "1/2")
		shard("shard-hash-2", exitOK, "-label", "halves", "-shard", "2/2")
		checkShards(t, "m.db", "halves", 2)
		untime(t, "m.db", "halves")
		// The runs of label halves, together, are the basis of another
		// label's shards, and then the newest run of the whole suite is.
		shard("shard-label-basis", exitOK, "-label", "thirds", "-shard", "3/3")
		shard("shard-whole", exitOK, "-label", "whole", "-o", "whole.txt")
		untime(t, "m.db", "whole")
		untimeFile(t, filepath.Join(g.work, "whole.txt"))
		shard("shard-time-1", exitOK, "-label", "timed", "-shard", "1/2")
		shard("shard-time-2", exitOK, "-label", "timed", "-shard", "2/2")
		checkShards(t, "m.db", "timed", 2)
		shard("shard-basis-file", exitOK, "-label", "filed", "-shard", "1/3", "-shard-basis", "whole.txt")
		shard("shard-basis-label", exitOK, "-label", "named", "-shard", "2/3", "-shard-basis", "halves")
		shard("shard-empty", exitOK, "-label", "many", "-shard", "7/8")
		shard("shard-basis-unknown", exitUsage, "-label", "x", "-shard", "1/2", "-shard-basis", "nosuch")
		for _, bad := range []string{"0/2", "3/2", "a/b", "1/0", "2", "1/1025"} {
			shard("bad-shard-"+strings.ReplaceAll(bad, "/", "-of-"), exitUsage, "-shard", bad)
		}
		shard("shard-basis-alone", exitUsage, "-shard-basis", "whole")
	})
	t.Run("optimize", func(t *testing.T) {
		g := newGolden(t, bins)
		g.check("run/levels", exitOK, "run", "-db", "m.db", "-label", "full", "-levels", "2,3,4", "-iter", "5ms",
			"-json", "full.jsonl", "fake.test")
		g.checkFiles("optimize/text", exitOK, []string{"plan.json"}, "optimize", "-db", "m.db", "-o", "plan.json", "full")
		g.check("optimize/json", exitOK, "optimize", "-format", "json", "-o", "plan2.json", "-metric", "cv", "full.jsonl")
		g.check("run/plan", exitOK, "run", "-db", "m.db", "-label", "planned", "-plan", "plan.json", "fake.test")
		g.check("run/plan-criterion", exitOK, "run", "-db", "m.db", "-label", "planned-cv", "-plan", "plan.json", "-criterion", "cv",
			"-f-min", "2", "fake.test")
		g.check("run/levels-new", exitOK, "run", "-db", "m.db", "-label", "full-new", "-levels", "2,3,4", "-iter", "5ms", "new.test")
		g.check("optimize/replay", exitOK, "optimize", "-db", "m.db", "-replay", "full", "full-new")
		g.check("optimize/replay-plan", exitOK, "optimize", "-db", "m.db", "-replay", "-plan", "plan.json", "full", "full-new")
		g.check("optimize/missing-input", exitError, "optimize", "-db", "m.db", "nope.jsonl")
		g.check("optimize/bad-metric", exitUsage, "optimize", "-db", "m.db", "-metric", "mode", "full")
		g.check("optimize/two-runs", exitUsage, "optimize", "-db", "m.db", "full", "full-new")
		g.check("optimize/plan-without-replay", exitUsage, "optimize", "-db", "m.db", "-plan", "plan.json", "full")
	})
	t.Run("ab", func(t *testing.T) {
		g := newGolden(t, bins)
		// Without a time budget a session ends when every benchmark
		// is decided or at -max-rounds: on its values alone.
		ab := []string{"ab", "-db", "m.db", "-old-bin", "old.test", "-new-bin", "new.test", "-budget", "0", "-budget-per-benchmark", "0",
			"-min-rounds", "3", "-max-rounds", "8", "-iter", "5ms", "-seed", "3"}
		g.check("ab/text", exitOK, ab...)
		g.check("ab/fail", exitRegression, append(ab, "-fail", "-bench", "Sum", "-old-label", "before", "-new-label", "after")...)
		g.check("ab/json", exitOK, append(ab, "-format", "json", "-old-label", "old-json")...)
		g.check("ab/csv", exitOK, append(ab, "-format", "csv", "-benchmem=false", "-bench", "Join", "-old-label", "old-csv")...)
		// A session that ended goes on with nothing left to run.
		g.check("ab/resume-complete", exitRegression, append(ab, "-resume", "before..after", "-fail", "-bench", "Sum", "-old-label", "before", "-new-label", "after")...)
		g.check("ab/resume-unknown", exitUsage, append(ab, "-resume", "nosuch")...)
		g.check("compare/ab-session", exitOK, "compare", "-db", "m.db", "old.test..new.test")
		g.check("compare/ab-session-fail", exitRegression, "compare", "-db", "m.db", "-fail", "before..after")
		if twoCPUs() {
			func() {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // printed as this machine's GOMAXPROCS
				g.check("ab/parallel", exitOK, "ab", "-parallel", "-db", "m.db", "-old-bin", "old.test", "-new-bin", "new.test",
					"-max-rounds", "3", "-mi", "4", "-iter", "5ms", "-seed", "3", "-bench", "Sum|Join", "-old-label", "old-par")
			}()
		} else {
			t.Log("ab -parallel not run: it runs on CPUs 0 and 1, and this machine has no CPU 1")
		}
		g.check("ab/no-version", exitUsage, "ab", "-db", "m.db")
		g.check("ab/old-bin-alone", exitUsage, "ab", "-db", "m.db", "-old-bin", "old.test")
		g.check("ab/two-old-versions", exitUsage, "ab", "-db", "m.db", "-old", "HEAD", "-old-bin", "old.test", "-new-bin", "new.test")
		g.check("ab/bad-rounds", exitUsage, "ab", "-db", "m.db", "-old-bin", "old.test", "-new-bin", "new.test", "-min-rounds", "5", "-max-rounds", "4")
		g.check("ab/bad-format", exitUsage, "ab", "-db", "m.db", "-old-bin", "old.test", "-new-bin", "new.test", "-format", "xml")
		g.check("ab/bad-alpha", exitUsage, "ab", "-db", "m.db", "-old-bin", "old.test", "-new-bin", "new.test", "-alpha", "1")
		g.check("ab/parallel-min-rounds", exitUsage, "ab", "-parallel", "-db", "m.db", "-old-bin", "old.test", "-new-bin", "new.test", "-min-rounds", "3")
		g.check("ab/missing-binary", exitError, "ab", "-db", "m.db", "-old-bin", "old.test", "-new-bin", "nope.test")
		g.check("ab/no-match", exitError, append(ab, "-bench", "Nothing")...)
		// Binaries that write no profile: every benchmark is named as not
		// profiled, and the verdicts stand.
		g.check("ab/profile-fault", exitOK, append(ab, "-bench", "Sum", "-profile", "-old-label", "old-prof")...)
		g.check("ab/bad-profile", exitUsage, append(ab, "-profile=some")...)
		g.check("profile/no-version", exitUsage, "profile", "-db", "m.db")
		g.check("profile/bad-format", exitUsage, "profile", "-db", "m.db", "-old-bin", "old.test", "-new-bin", "new.test", "-format", "csv")
		g.check("profile/no-profile", exitError, "profile", "-db", "m.db", "-old-bin", "old.test", "-new-bin", "new.test", "-bench", "Sum", "-procs", "2")
	})
	t.Run("newest", func(t *testing.T) {
		g := newGolden(t, bins)
		// A run, then an A/B session: given no inputs, report and plot
		// show the newest result, the session, its versions compared with
		// each other, and say so; the run and the session are compared
		// only when named, and a side that would pool the session's two
		// versions is refused.
		g.check("report/newest-run", exitOK, "run", "-db", "m.db", "-label", "base", "-criterion", "static", "-f-min", "2", "-f-max", "2",
			"-mi", "2", "-iter", "5ms", "-bench", "Sum", "-benchmem", "fake.test")
		g.check("report/newest-ab", exitOK, "ab", "-db", "m.db", "-old-bin", "old.test", "-new-bin", "new.test", "-budget", "0",
			"-budget-per-benchmark", "0", "-min-rounds", "3", "-max-rounds", "4", "-iter", "5ms", "-seed", "3", "-bench", "Sum")
		g.check("report/newest", exitOK, "report", "-db", "m.db", "-format", "text", "-reps", "1000")
		g.checkFiles("report/newest-plot", exitOK, []string{"cmp.svg"}, "plot", "-db", "m.db", "-kind", "comparison", "-o", "cmp.svg")
		g.check("report/pooled-compare", exitUsage, "compare", "-db", "m.db", "base", "old.test..new.test")
		g.check("report/pooled-report", exitUsage, "report", "-db", "m.db", "-format", "text", "base", "old.test..new.test")
		g.check("report/newest-later-run", exitOK, "run", "-db", "m.db", "-label", "later", "-criterion", "static", "-f-min", "2",
			"-f-max", "2", "-mi", "2", "-iter", "5ms", "-bench", "Sum", "fake.test")
		g.check("report/newest-plot-one-version", exitUsage, "plot", "-db", "m.db", "-kind", "comparison", "-o", "x.svg")
	})
	t.Run("ab-shard", func(t *testing.T) {
		g := newGolden(t, bins)
		ab := []string{"ab", "-db", "m.db", "-old-bin", "old.test", "-new-bin", "new.test", "-budget", "0", "-budget-per-benchmark", "0",
			"-min-rounds", "3", "-max-rounds", "8", "-iter", "5ms", "-seed", "3"}
		g.check("ab/shard-hash-1", exitOK, append(ab, "-shard", "1/2", "-old-label", "halves")...)
		g.check("ab/shard-hash-2", exitOK, append(ab, "-shard", "2/2", "-old-label", "halves")...)
		checkShards(t, "m.db", "halves..new.test", 2)
		untime(t, "m.db", "halves..new.test")
		// The two sessions of label halves..new.test are the basis.
		g.check("ab/shard-1", exitOK, append(ab, "-shard", "1/2", "-old-label", "timed")...)
		g.check("ab/shard-2", exitOK, append(ab, "-shard", "2/2", "-old-label", "timed")...)
		checkShards(t, "m.db", "timed..new.test", 2)
		untime(t, "m.db", "timed..new.test")
		g.check("ab/shard-empty", exitOK, append(ab, "-shard", "8/8", "-old-label", "many")...)
		g.check("ab/bad-shard", exitUsage, append(ab, "-shard", "3/2")...)
		if twoCPUs() {
			func() {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // printed as this machine's GOMAXPROCS
				g.check("ab/parallel-shard", exitOK, "ab", "-parallel", "-db", "m.db", "-old-bin", "old.test", "-new-bin", "new.test",
					"-max-rounds", "3", "-mi", "4", "-iter", "5ms", "-seed", "3", "-shard", "2/2", "-old-label", "par")
				// More shards than benchmarks: recorded, nothing to compare,
				// as interleaved ab does.
				g.check("ab/parallel-shard-empty", exitOK, "ab", "-parallel", "-db", "m.db", "-old-bin", "old.test", "-new-bin", "new.test",
					"-max-rounds", "3", "-mi", "4", "-iter", "5ms", "-seed", "3", "-shard", "8/8", "-old-label", "par-empty")
			}()
		}
	})
	t.Run("gather", func(t *testing.T) { gatherGolden(t, bins) })
	t.Run("duet", func(t *testing.T) {
		if !twoCPUs() {
			t.Skip("duet runs on CPUs 0 and 1; this machine has no CPU 1")
		}
		g := newGolden(t, bins)
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // printed as this machine's GOMAXPROCS
		duet := []string{"duet", "-db", "m.db", "-old-bin", "old.test", "-new-bin", "new.test", "-runs", "3", "-iters", "4", "-warmup", "1",
			"-iter", "5ms", "-seed", "3"}
		g.check("duet/text", exitOK, append(duet, "-old-label", "base", "-new-label", "head")...)
		g.check("duet/csv", exitOK, append(duet, "-format", "csv", "-bench", "Sum", "-benchmem", "-old-label", "old-csv")...)
		g.check("duet/fail", exitRegression, append(duet, "-fail", "-bench", "Sum", "-old-label", "old-fail")...)
		g.check("duet/allocs", exitOK, append(duet, "-metric", "allocs/op", "-benchmem", "-bench", "Sum|Join", "-old-label", "old-allocs")...)
		g.check("compare/duet", exitOK, "compare", "-db", "m.db", "base", "head")
		g.check("duet/commands", exitOK, "duet", "-db", "m.db", "-cmd-old", "echo score: 100", "-cmd-new", "echo score: 90",
			"-metric-re", `score: ([0-9]+)`, "-unit", "ops/s", "-runs", "2", "-iters", "2", "-warmup", "0")
		g.check("duet/one-run", exitUsage, append(duet, "-runs", "1")...)
		g.check("duet/no-version", exitUsage, "duet", "-db", "m.db")
		g.check("duet/new-missing", exitUsage, "duet", "-db", "m.db", "-old-bin", "old.test")
		g.check("duet/bad-cpus", exitUsage, append(duet, "-cpus", "1,1")...)
		g.check("duet/metric-re-without-commands", exitUsage, append(duet, "-metric-re", "x(y)")...)
		g.check("duet/cpu-time-free", exitUsage, append(duet, "-metric", "cpu-sec/op", "-bench", "Sum", "-old-label", "old-cpu")...)
		g.check("duet/missing-binary", exitError, "duet", "-db", "m.db", "-old-bin", "old.test", "-new-bin", "nope.test")
	})
	t.Run("vet", func(t *testing.T) {
		g := newGolden(t, bins)
		copyDir(t, filepath.Join(g.testdata, "vetgolden"), g.work)
		g.check("vet/findings", exitRegression, "vet", "./...")
		g.check("vet/json", exitRegression, "vet", "-json", ".")
		g.check("vet/clean", exitOK, "vet", "./clean")
		g.check("vet/unknown-analyzer", exitUsage, "vet", "-only", "nosuch", ".")
		g.check("vet/confirmed-without-run", exitUsage, "vet", "-confirmed", ".")
		g.check("vet/no-package", exitError, "vet", "./nosuch")
		g.checkFiles("vet/fix", exitRegression, []string{"lib_test.go"}, "vet", "-fix", "-only", "deadresult,constfold", ".")
	})
	t.Run("gen", func(t *testing.T) {
		g := newGolden(t, bins)
		copyDir(t, filepath.Join(g.testdata, "..", "..", "..", "gen", "testdata", "listings"), g.work)
		g.checkFiles("gen/listings", exitOK, []string{"testdata/mbench/Fib.json"}, "gen", "./...")
		g.check("gen/check", exitOK, "gen", "-check", "./...")
		// Squares computes something else now: its benchmark and its
		// recorded sets are stale, and -check leaves them as they were.
		src := filepath.Join(g.work, "listings.go")
		code, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(src, bytes.Replace(code, []byte("i * i % 7"), []byte("i * i % 5"), 1), 0o666); err != nil {
			t.Fatal(err)
		}
		g.checkFiles("gen/check-stale", exitError, []string{"testdata/mbench/Squares.json"}, "gen", "-check", "./...")
		bad := t.TempDir()
		copyDir(t, filepath.Join(g.testdata, "gengolden"), bad)
		t.Chdir(bad)
		g.work, g.norm = bad, newNormalizer(t, bad)
		g.check("gen/no-statement", exitError, "gen", "./nostmt")
		g.check("gen/duplicate", exitError, "gen", "./dup")
		g.check("gen/in-test-file", exitError, "gen", "./intest")
		g.check("gen/broken", exitError, "gen", "./broken")
		g.checkFiles("gen/not-ours", exitError, []string{"handwritten/mbench_gen_test.go"}, "gen", "./handwritten")
		g.check("gen/all-bad", exitError, "gen", "./...")
		g.check("gen/max-inputs-zero", exitUsage, "gen", "-max-inputs", "0", ".")
		g.check("gen/max-inputs-negative", exitUsage, "gen", "-max-inputs", "-3", ".")
	})
	t.Run("doctor", func(t *testing.T) {
		g := newGolden(t, bins)
		// The machine's own warnings (frequency governor, other load)
		// depend on the machine: the normalizer drops them, and takes
		// them out of the count of problems.
		g.check("doctor/binaries", exitError, "doctor", "noopt.test", "cover.test", "fake.test")
		g.check("doctor/missing-binary", exitError, "doctor", "nope.test")
		// A text file and a directory are no test binaries; of the
		// text file, how it was built cannot be known.
		if err := os.WriteFile("passwd", []byte("root:x:0:0:root:/root:/bin/sh\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir("results", 0o777); err != nil {
			t.Fatal(err)
		}
		g.check("doctor/not-binaries", exitError, "doctor", "passwd", "results")
		// The noise is kept beside the database: a place that takes no
		// file fails before the noise is measured.
		g.check("doctor/noise-unwritable", exitUsage, "doctor", "-noise", "-db", "/proc/mbench/m.db")
	})
}

// twoCPUs reports whether the machine has CPU 1 as well as CPU 0, which
// duet pins its two sides to by default. A process restricted to CPU 0
// (taskset -c 0) may still pin its children to CPU 1.
func twoCPUs() bool {
	_, err := os.Stat("/sys/devices/system/cpu/cpu1")
	return err == nil
}

// fakes are the test binaries the golden tests run, in a directory of
// their own: fake.test, old.test and new.test are fakebench under three
// names (three versions; see its doc), noopt.test and cover.test are
// fakebench built without optimisation and with coverage, for doctor. All
// are built by go test -c, as test binaries are.
type fakes struct{ dir string }

var fakeNames = []string{"fake.test", "old.test", "new.test", "noopt.test", "cover.test"}

func buildFakes(t *testing.T) fakes {
	t.Helper()
	dir := t.TempDir()
	builds := []struct {
		out  string
		args []string
	}{
		{"fake.test", nil},
		{"noopt.test", []string{"-gcflags=all=-N -l"}},
		{"cover.test", []string{"-cover"}},
	}
	for _, b := range builds {
		args := append(append([]string{"test", "-c", "-o", filepath.Join(dir, b.out)}, b.args...), "./testdata/fakebench")
		if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	exe, err := os.ReadFile(filepath.Join(dir, "fake.test"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"old.test", "new.test"} {
		if err := os.WriteFile(filepath.Join(dir, name), exe, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	return fakes{dir: dir}
}

// golden runs the cases of one group in its working directory.
type golden struct {
	t        *testing.T
	testdata string // this package's testdata, absolute
	work     string // the working directory of the commands
	norm     *normalizer
}

// newGolden makes a fresh working directory holding the fake binaries,
// outside any git repository, and makes it the current directory and the
// fakes' state directory for the rest of t.
func newGolden(t *testing.T, bins fakes) *golden {
	t.Helper()
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	for _, name := range fakeNames {
		exe, err := os.ReadFile(filepath.Join(bins.dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, name), exe, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	state := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(state, 0o777); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FAKEBENCH_STATE", state)
	t.Setenv("FAKEBENCH_SEED", "golden")
	t.Setenv("FAKEBENCH_FAIL", "")
	t.Setenv("FAKEBENCH_FAIL_FROM", "")
	t.Setenv("FAKEBENCH_LONG", "")
	// The platform's commit would otherwise come from whatever
	// repository holds the temporary directory.
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(work))
	t.Chdir(work)
	return &golden{t: t, testdata: testdata, work: work, norm: newNormalizer(t, work)}
}

// check runs mbench with args, checks its exit code, and compares its
// normalised output with testdata/golden/name.golden.
func (g *golden) check(name string, code int, args ...string) {
	g.t.Helper()
	g.checkFiles(name, code, nil, args...)
}

// checkFiles is check with the contents of files the command wrote (in the
// working directory) appended to its output.
func (g *golden) checkFiles(name string, code int, files []string, args ...string) {
	g.t.Helper()
	var stdout, stderr bytes.Buffer
	got := mbench(args, &stdout, &stderr)
	if got != code {
		g.t.Errorf("%s: exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", name, got, code, &stdout, &stderr)
	}
	g.norm.learnIDs(filepath.Join(g.work, "m.db"))
	var b strings.Builder
	fmt.Fprintf(&b, "$ mbench %s\n", quoteArgs(args))
	b.WriteString(g.norm.normalize(stdout.String()))
	if stderr.Len() > 0 {
		b.WriteString("--- stderr\n" + g.norm.normalize(stderr.String()))
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(g.work, f))
		if err != nil {
			g.t.Errorf("%s: %v", name, err)
			continue
		}
		b.WriteString("--- file " + f + "\n" + g.norm.normalize(string(data)))
	}
	out := b.String()
	if args[0] == "doctor" {
		out = discountMachineProblems(out, len(machineWarning.FindAllString(stdout.String(), -1)))
		out = dropMachineUnchecked(out)
	}
	compareGolden(g.t, filepath.Join(g.testdata, "golden", name+".golden"), out)
}

// compareGolden compares got with the golden file, or rewrites the file
// under -update.
func compareGolden(t *testing.T, file, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(got), 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Errorf("%v (go test -update creates it)", err)
		return
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n%s", file, lineDiff(string(want), got))
	}
}

// lineDiff shows the lines of want and got from the first that differs.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	const context = 8
	cut := func(l []string) string {
		return strings.Join(l[i:min(len(l), i+context)], "\n")
	}
	return fmt.Sprintf("first difference at line %d\n--- want\n%s\n--- got\n%s", i+1, cut(w), cut(g))
}

// quoteArgs spells args as a shell would need them.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if a == "" || strings.ContainsAny(a, " \t'\"|()$*?[]\\") {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if out, err := exec.Command("cp", "-r", from+"/.", to).CombinedOutput(); err != nil {
		t.Fatalf("copying %s: %v\n%s", from, err, out)
	}
}

// A normalizer rewrites the parts of mbench's output that its inputs do not
// determine, and nothing else:
//
//   - the working directory, a temporary one, is printed as $WORK;
//   - run ids, random, are printed as <run:LABEL> (LABEL#2 for the second
//     run of a label), and duet session ids as <duet:N>, numbered in order;
//   - the platform header's values (OS, kernel, CPU model, cores,
//     GOMAXPROCS, governor, Go version, host name, load, busy CPUs) become
//     placeholders, and so do the host, CPU, Go version, OS, architecture
//     and instance fields of stored runs (in JSON; the fake's own "cpu:"
//     and "goos:" lines are its output and stay), and the platform's
//     configuration lines in exports; the kernel, governor, turbo and load
//     of stored runs, which some machines do not know, are dropped;
//   - the platform's own warnings (CPU frequency governor, other work
//     keeping the CPUs busy, a high load average) and what doctor could
//     not check of it (governor, turbo, ...) are dropped: they depend on
//     the machine and the moment;
//   - wall-clock durations and times become <dur> and <time>: the wall
//     time and the time deciding when to stop of a run (and the "check"
//     column of the tables that have one, realigned), elapsed times of
//     progress lines and the time left they estimate ("<time left>"), the
//     elapsed time of ab sessions, the start skew of duet pairs, the start
//     time and duration of stored runs (the runs table, realigned), and
//     RFC 3339 timestamps.
type normalizer struct {
	t       *testing.T
	work    string
	ids     map[string]string // id → placeholder
	known   map[string]bool   // run ids already read from the store
	labels  map[string]int
	duets   int
	strings *strings.Replacer
}

func newNormalizer(t *testing.T, work string) *normalizer {
	n := &normalizer{t: t, work: work, ids: map[string]string{}, known: map[string]bool{}, labels: map[string]int{}}
	n.rebuild()
	return n
}

// learnIDs reads the ids of the runs in the result database db, if there
// is one, oldest first.
func (n *normalizer) learnIDs(db string) {
	if _, err := os.Stat(db); err != nil {
		return
	}
	st, err := store.Open(db)
	if err != nil {
		n.t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.Runs()
	if err != nil {
		n.t.Fatal(err)
	}
	for i := len(runs) - 1; i >= 0; i-- {
		r := runs[i]
		if n.known[r.ID] {
			continue
		}
		n.known[r.ID] = true
		n.labels[r.Label]++
		name := r.Label
		if k := n.labels[r.Label]; k > 1 {
			name += "#" + strconv.Itoa(k)
		}
		n.ids[r.ID] = "<run:" + name + ">"
		full, err := st.Load(r.ID)
		if err != nil {
			n.t.Fatal(err)
		}
		if d := full.Settings[bench.SettingDuet]; d != "" && n.ids[d] == "" {
			n.duets++
			n.ids[d] = "<duet:" + strconv.Itoa(n.duets) + ">"
		}
	}
	n.rebuild()
}

func (n *normalizer) rebuild() {
	pairs := []string{n.work, "$WORK"}
	if real, err := filepath.EvalSymlinks(n.work); err == nil && real != n.work {
		pairs = append(pairs, real, "$WORK")
	}
	for id, p := range n.ids {
		pairs = append(pairs, id, p)
	}
	n.strings = strings.NewReplacer(pairs...)
}

// duration matches a time.Duration as String prints it.
const duration = `(?:\d+(?:\.\d+)?(?:ns|µs|us|ms|h|m|s))+`

var normalizations = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`(?m)^os: \S+, kernel .*$`), "os: <os>, kernel <kernel>"},
	{regexp.MustCompile(`(?m)^cpu: .*, \d+ cores, GOMAXPROCS \d+, governor .*$`), "cpu: <cpu>, <n> cores, GOMAXPROCS <n>, governor <governor>"},
	{regexp.MustCompile(`(?m)^go: .*, host .*, load .*, CPUs busy .* before the run$`), "go: <go>, host <host>, load <load>, CPUs busy <busy> before the run"},
	{machineWarning, ""},
	{regexp.MustCompile(`"(host|cpu|toolchain|instance|goos|goarch)":"[^"]*"`), `"$1":"<$1>"`},
	{regexp.MustCompile(`"(cpus|gomaxprocs)":\d+`), `"$1":"<$1>"`},
	{regexp.MustCompile(`,"(kernel|governor|turbo)":"[^"]*"|,"(load|busy)":[0-9.e+-]+`), ""},
	{regexp.MustCompile(`(?m)^(instance|cpus|gomaxprocs|toolchain): .*$`), "$1: <$1>"},
	{regexp.MustCompile(`(?m)^(kernel|governor|turbo): .*\n`), ""},
	{regexp.MustCompile(`wall time ` + duration + `; deciding when to stop took ` + duration + ` \([0-9.]+% of the time benchmarks ran\)`),
		"wall time <dur>; deciding when to stop took <dur> (<p>% of the time benchmarks ran)"},
	{regexp.MustCompile(`elapsed ` + duration), "elapsed <dur>"},
	{regexp.MustCompile(`; (about [0-9hm]+|at least [0-9hm]+|at least a few seconds|under a minute) left`), "; <time left>"},
	{regexp.MustCompile(`(\d+ rounds) in ` + duration), "$1 in <dur>"},
	{regexp.MustCompile(`(profiling: \d+ benchmarks?) in ` + duration), "$1 in <dur>"},
	{regexp.MustCompile(`start skew of paired iterations: median [0-9.]+%, max [0-9.]+%`), "start skew of paired iterations: median <p>%, max <p>%"},
	{regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)`), "<time>"},
}

// machineWarning matches a warning about the machine (run.PlatformWarnings,
// run.MachineProblems), in a command's stderr or in doctor's list: the
// text of each warning up to its first variable part, as a machine with
// every problem gets it.
var machineWarning = func() *regexp.Regexp {
	var alts []string
	busy := run.MachineProblems(run.Platform{Governor: "powersave", Busy: 1, Load: 1, Cores: 1})
	loaded := run.MachineProblems(run.Platform{Busy: 0, Load: 9, Cores: 1})
	for _, w := range append(busy, loaded...) {
		alts = append(alts, fixedStart(w))
	}
	return regexp.MustCompile(`(?m)^(?:mbench: warning: |- )(?:` + strings.Join(alts, "|") + `).*\n`)
}()

// fixedStart quotes the text of a message about the machine up to its
// first variable part.
func fixedStart(msg string) string {
	fixed := msg
	if i := strings.IndexAny(msg, `"0123456789`); i >= 0 {
		fixed = msg[:i]
	}
	if len(fixed) < 10 {
		panic(fmt.Sprintf("message about the machine %q: too little fixed text to recognise it by", msg))
	}
	return regexp.QuoteMeta(fixed)
}

var durationCell = regexp.MustCompile(`^` + duration + `$`)

func (n *normalizer) normalize(s string) string {
	// Tables first, while their columns are still aligned: a placeholder
	// is seldom as wide as what it replaces.
	s = maskColumns(s, "benchmark  ", "check", func(col, cell string) string {
		if col == "check" && durationCell.MatchString(cell) {
			return "<dur>"
		}
		return cell
	})
	s = maskColumns(s, "id  ", "start", func(col, cell string) string {
		switch {
		case col == "id":
			return n.strings.Replace(cell)
		case col == "start":
			return "<time>"
		case col == "duration" && durationCell.MatchString(cell):
			return "<dur>"
		}
		return cell
	})
	s = n.strings.Replace(s)
	for _, r := range normalizations {
		s = r.re.ReplaceAllString(s, r.repl)
	}
	return s
}

// maskColumns rewrites the cells of the tables in s whose header line
// starts with header and has a column named column: mask gets each cell
// with its column's name and returns its replacement. The tables are text/tabwriter's, padded by two
// spaces, and are aligned again after masking. A table ends at an empty
// line or at the next "--- " line of the golden output.
func maskColumns(s, header, column string, mask func(col, cell string) string) string {
	lines := strings.Split(s, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], header) {
			out = append(out, lines[i])
			continue
		}
		// Columns start where the header's cells do; a cell may hold
		// single spaces ("99% CI").
		var names []string
		var starts []int
		for _, loc := range headerCell.FindAllStringIndex(lines[i], -1) {
			names = append(names, lines[i][loc[0]:loc[1]])
			starts = append(starts, len([]rune(lines[i][:loc[0]])))
		}
		if !slices.Contains(names, column) {
			out = append(out, lines[i])
			continue
		}
		var buf bytes.Buffer
		tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
		j := i
		for ; j < len(lines) && lines[j] != "" && !strings.HasPrefix(lines[j], "--- "); j++ {
			row := []rune(lines[j])
			cells := make([]string, len(starts))
			for k, start := range starts {
				end := len(row)
				if k+1 < len(starts) {
					end = min(end, starts[k+1])
				}
				if start < end {
					cells[k] = strings.TrimSpace(string(row[start:end]))
				}
				if j > i {
					cells[k] = mask(names[k], cells[k])
				}
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		tw.Flush()
		out = append(out, strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")...)
		i = j - 1
	}
	return strings.Join(out, "\n")
}

var headerCell = regexp.MustCompile(`\S+(?: \S+)*`)

// discountMachineProblems takes the machine's own problems, n of them,
// which the normalizer dropped from doctor's list, out of the count of
// problems doctor reports.
func discountMachineProblems(out string, n int) string {
	return doctorCount.ReplaceAllStringFunc(out, func(m string) string {
		count, _ := strconv.Atoi(doctorCount.FindStringSubmatch(m)[1])
		if count-n == 1 {
			return "mbench doctor: 1 problem found"
		}
		return fmt.Sprintf("mbench doctor: %d problems found", count-n)
	})
}

// machineUnchecked matches what doctor could not read of the machine
// (run.MachineUnchecked), which depends on the machine, and
// emptyUnchecked the heading of a list left empty without it.
var (
	machineUnchecked = func() *regexp.Regexp {
		var alts []string
		for _, u := range run.MachineUnchecked(run.Platform{Load: -1, Busy: -1}) {
			fixed, _, _ := strings.Cut(u, ":")
			alts = append(alts, regexp.QuoteMeta(fixed+":"))
		}
		return regexp.MustCompile(`(?m)^- (?:` + strings.Join(alts, "|") + `).*\n`)
	}()
	emptyUnchecked = regexp.MustCompile(`\nnot checked:\n(--- stderr|$)`)
)

// dropMachineUnchecked drops from doctor's list of what it could not
// check what depends on the machine, and the list's heading when nothing
// else is in it.
func dropMachineUnchecked(out string) string {
	return emptyUnchecked.ReplaceAllString(machineUnchecked.ReplaceAllString(out, ""), "$1")
}

var doctorCount = regexp.MustCompile(`mbench doctor: (\d+) problems? found`)

// TestNormalizer checks that the normalizer masks what it documents, keeps
// the rest, and realigns the tables it masks.
func TestNormalizer(t *testing.T) {
	n := newNormalizer(t, "/tmp/work")
	n.ids["0123456789ab"] = "<run:x>"
	n.rebuild()
	in := `os: linux/amd64, kernel 6.1.0
cpu: Some CPU @ 2GHz, 8 cores, GOMAXPROCS 8, governor powersave
go: go1.26.1, host box, load 0.50, CPUs busy 3% before the run
run: 0123456789ab (label x), iteration 5ms
benchmark  mean    check      stop
Sum-4      120.0n  1.234567s  stable
Join-4     850.0n  7µs        max
Fail-4     -       -          FAILED

wall time 1m2.5s; deciding when to stop took 12ms (0.010% of the time benchmarks ran)
--- stderr
mbench: warning: CPU frequency governor is "powersave", not "performance": the clock speed may change
mbench: warning: other work keeps 93% of the CPUs busy (load average 3.00 on 2 cores): stop it
mbench: warning: Parse-4 (16%): noisy results
mbench: suite run 2: 1 of 2 benchmarks done; fork 5 of at least 8: Sum-4; at least 3m left
mbench: suite run 2: 1 of 2 benchmarks done; fork 6 of 8: Sum-4; under a minute left
/tmp/work/fake.test: exit status 1
id            label  start                duration  status
0123456789ab  x      2026-01-02 03:04:05  12s       complete
`
	want := `os: <os>, kernel <kernel>
cpu: <cpu>, <n> cores, GOMAXPROCS <n>, governor <governor>
go: <go>, host <host>, load <load>, CPUs busy <busy> before the run
run: <run:x> (label x), iteration 5ms
benchmark  mean    check  stop
Sum-4      120.0n  <dur>  stable
Join-4     850.0n  <dur>  max
Fail-4     -       -      FAILED

wall time <dur>; deciding when to stop took <dur> (<p>% of the time benchmarks ran)
--- stderr
mbench: warning: Parse-4 (16%): noisy results
mbench: suite run 2: 1 of 2 benchmarks done; fork 5 of at least 8: Sum-4; <time left>
mbench: suite run 2: 1 of 2 benchmarks done; fork 6 of 8: Sum-4; <time left>
$WORK/fake.test: exit status 1
id       label  start   duration  status
<run:x>  x      <time>  <dur>     complete
`
	if got := n.normalize(in); got != want {
		t.Errorf("normalize:\n%s", lineDiff(want, got))
	}
	// A table without the masked column is left as it is, trailing
	// spaces included.
	table := "benchmark  old     new     verdict  \nSum-4      1.000s  2.000s  slower   \n"
	if got := n.normalize(table); got != table {
		t.Errorf("normalize changed a table it does not mask:\n%s", lineDiff(table, got))
	}
	if got := discountMachineProblems("mbench doctor: 3 problems found\n", 1); got != "mbench doctor: 2 problems found\n" {
		t.Errorf("discountMachineProblems: %q", got)
	}
}
