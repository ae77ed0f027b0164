// Pad writes a go build -overlay that makes every benchmark of a test
// binary report a known fraction more time per iteration: the testing
// package's runN, once the benchmark function has returned and the timer
// is stopped, spins for fraction × the iteration's timed duration and
// adds it to that duration. The change is known exactly whatever the
// machine does (it is a fraction of the very iteration it follows), is the
// same for classic b.N loops, b.Loop and b.RunParallel benchmarks, and
// leaves B/op and allocs/op alone: the injected regressions of the
// evaluation of `mbench ab` (docs/eval/ab.md). With fraction 0 the patched
// code path is still compiled in, so the old and new binaries have the same
// code and differ only in the fraction's value.
//
// With -probe, the overlay also carries mbench's testing-package probe
// (what run.BuildProbed builds with), so that the binaries can run in
// turns or as a duet; the spin then runs inside the side's turn, before
// the probe sees the timer stop.
//
// usage: go run ./ab/pad -fraction 0.05 [-probe] -o DIR   (prints DIR/overlay.json)
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mbench/mbench/internal/probe"
)

// anchor is the end of runN's timed part in Go 1.26's testing package.
const anchor = "\tb.benchFunc(b)\n\tb.StopTimer()\n\tb.previousN = n\n"

const padCode = "\tb.benchFunc(b)\n\tb.StopTimer()\n\tmbenchEvalPad(b)\n\tb.previousN = n\n"

const padFile = `package testing

import "time"

// mbenchEvalPadFraction is the fraction of each iteration's time added by
// mbenchEvalPad. It is a variable, not a constant, so that the compiled
// code is the same whatever the fraction: only a value in the data
// differs, and no function moves (a constant 0 would let the compiler drop
// the spin and shift the code after it, which changes the speed of
// nanosecond benchmarks by more than the injected change).
var mbenchEvalPadFraction float64 = %v

// mbenchEvalPad spins for a fraction of the iteration's timed duration and
// adds that to it.
func mbenchEvalPad(b *B) {
	if mbenchEvalPadFraction <= 0 {
		return
	}
	pad := time.Duration(float64(b.duration) * mbenchEvalPadFraction)
	for end := time.Now().Add(pad); time.Now().Before(end); {
	}
	b.duration += pad
}
`

func main() {
	fraction := flag.Float64("fraction", 0, "added `fraction` of each iteration's time")
	out := flag.String("o", "", "output `directory`")
	withProbe := flag.Bool("probe", false, "stack the overlay on mbench's testing-package probe")
	flag.Parse()
	if *out == "" || !(*fraction >= 0 && *fraction < 1) {
		log.Fatal("usage: pad -fraction F -o DIR, 0 ≤ F < 1")
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		log.Fatal(err)
	}
	root := strings.TrimSpace(string(goroot))
	src := filepath.Join(root, "src", "testing")
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	replace := map[string]string{}
	base := filepath.Join(src, "benchmark.go")
	anchor, padCode := anchor, padCode
	if *withProbe {
		abs, err := filepath.Abs(*out)
		must(err)
		if replace, err = probe.Overlay(root, filepath.Join(abs, "probe")); err != nil {
			log.Fatal(err)
		}
		base = replace[filepath.Join(src, "benchmark.go")]
		// The probe's hooks follow b.StopTimer(): the spin goes
		// before them.
		anchor = "\tb.benchFunc(b)\n\tb.StopTimer()\n\tif mbenchProbe != nil {\n"
		padCode = "\tb.benchFunc(b)\n\tb.StopTimer()\n\tmbenchEvalPad(b)\n\tif mbenchProbe != nil {\n"
	}
	orig, err := os.ReadFile(base)
	if err != nil {
		log.Fatal(err)
	}
	if strings.Count(string(orig), anchor) != 1 {
		log.Fatalf("%s: runN does not end its timed part as expected; update the anchor for this Go version", base)
	}
	patched := filepath.Join(*out, "benchmark.go")
	pad := filepath.Join(*out, "mbench_eval_pad.go")
	must(os.WriteFile(patched, []byte(strings.Replace(string(orig), anchor, padCode, 1)), 0o644))
	must(os.WriteFile(pad, []byte(fmt.Sprintf(padFile, *fraction)), 0o644))
	replace[filepath.Join(src, "benchmark.go")] = patched
	replace[filepath.Join(src, "mbench_eval_pad.go")] = pad
	overlay := map[string]map[string]string{"Replace": replace}
	data, _ := json.MarshalIndent(overlay, "", "\t")
	must(os.WriteFile(filepath.Join(*out, "overlay.json"), data, 0o644))
	fmt.Println(filepath.Join(*out, "overlay.json"))
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
