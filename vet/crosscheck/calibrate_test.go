package crosscheck

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckCalibrated checks two dead results alone in their loops, each
// with a sink fix and its calibration (the sink assigned a copy of
// itself): a call that only loads a field, whose deletion saves nothing
// a sink's own store does not cost, must not be confirmed, and a hash
// whose work is deleted must be.
func TestCheckCalibrated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	dir := t.TempDir()
	src := `package cal

import "testing"

type K struct{ value string }

//go:noinline
func newK() *K { return &K{value: "abc"} }

func (k *K) Value() string { return k.value }

func Mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

var in uint64 = 7

func BenchmarkValue(b *testing.B) {
	k := newK()
	for i := 0; i < b.N; i++ {
		k.Value()
	}
}

func BenchmarkMix(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Mix(in)
	}
}
`
	file := filepath.Join(dir, "cal_test.go")
	for name, text := range map[string]string{"go.mod": "module example.com/cal\n\ngo 1.26\n", "cal_test.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	// The edits mbench vet derives from deadresult's sink fix.
	finding := func(call, sink, typ string) Finding {
		at := strings.Index(src, call)
		eof := len(src)
		fix := []Edit{{file, at, at, sink + " = "}, {file, eof, eof, "\nvar " + sink + " " + typ + "\n"}}
		calibrate := append(fix[:len(fix):len(fix)],
			Edit{file, at, at + len(call), "cal" + sink},
			Edit{file, at, at, "_ = func() { " + call + " }; "},
			Edit{file, eof, eof, "\nvar cal" + sink + " = " + sink + "\n"})
		return Finding{Analyzer: "deadresult", File: file, Offset: at, Fix: fix, Calibrate: calibrate}
	}
	verdicts, err := Check(context.Background(), []Finding{
		finding("k.Value()", "sinkValue", "string"),
		finding("Mix(in)", "sinkMix", "uint64"),
	}, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range verdicts {
		t.Logf("%s: %s (%s)", v.Benchmark, v.Outcome, v.Reason)
	}
	if v := verdicts[0]; v.Outcome == Confirmed || !(v.Calibrated > 0) {
		t.Errorf("a deleted field load: %s (%s), calibrated %g s/op", v.Outcome, v.Reason, v.Calibrated)
	}
	if v := verdicts[1]; v.Outcome != Confirmed || !(v.Calibrated > 0) {
		t.Errorf("a deleted hash: %s (%s), calibrated %g s/op", v.Outcome, v.Reason, v.Calibrated)
	}
}
