package crosscheck

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestCheckBase checks a constfold finding on a call whose result is also
// dead: without the dead result's sink in both builds the compiler
// deletes the call in both, and the folding check refutes a true
// finding; with it, the check compares a folded constant with the work.
func TestCheckBase(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	src := `package fold

import "testing"

func Mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

func BenchmarkMix(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Mix(12345)
	}
}
`
	file := writeModule(t, "fold", src)
	call, arg, loop, eof := strings.Index(src, "Mix(12345)"), strings.Index(src, "12345"), strings.Index(src, "\tfor i"), len(src)
	// The edits of constfold's fix (the input through a package-level
	// variable) and of deadresult's sink fix, as the analyzers make them.
	inputs := []Edit{{file, arg, arg + len("12345"), "inMix"}, {file, loop, loop, "\tinMix = 12345\n"}, {file, eof, eof, "\nvar inMix uint64\n"}}
	sink := []Edit{{file, call, call, "sinkMix = "}, {file, eof, eof, "\nvar sinkMix uint64\n"}}
	opts := DefaultOptions
	var steps []string
	opts.Progress = func(s string) { steps = append(steps, s) }
	verdicts, err := Check(context.Background(), []Finding{
		{Analyzer: "constfold", File: file, Offset: call, Fixes: [][]Edit{inputs}},
		{Analyzer: "constfold", File: file, Offset: call, Fixes: [][]Edit{inputs}, Base: sink},
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	wantSteps := []string{
		"finding 1 of 2, BenchmarkMix (constfold): building",
		"finding 1 of 2, BenchmarkMix (constfold): running it as written and with the fix",
		"finding 2 of 2, BenchmarkMix (constfold): building",
		"finding 2 of 2, BenchmarkMix (constfold): running it as written and with the fix",
	}
	if !slices.Equal(steps, wantSteps) {
		t.Errorf("progress steps:\n%s\nwant\n%s", strings.Join(steps, "\n"), strings.Join(wantSteps, "\n"))
	}
	for _, v := range verdicts {
		t.Logf("%s: %s (%s)", v.Benchmark, v.Outcome, v.Reason)
	}
	// Both builds of the first finding measure an empty loop, so its
	// outcome is the machine's noise at a nanosecond: only the path the
	// check took is tested; docs/eval/vet.md measures the outcomes.
	if v := verdicts[0]; strings.HasPrefix(v.Reason, "the result kept alive") {
		t.Errorf("without a base, the check kept the result alive: %s (%s)", v.Outcome, v.Reason)
	}
	if v := verdicts[1]; !strings.HasPrefix(v.Reason, "the result kept alive in both builds") {
		t.Errorf("with the sink in both builds: %s (%s)", v.Outcome, v.Reason)
	}
}
