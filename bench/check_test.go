package bench

import (
	"bytes"
	"strings"
	"testing"
)

// impossible are result lines with a value that cannot be, each with the
// warning it must give.
var impossible = []struct {
	line string
	want string
}{
	{"BenchmarkA-2 10 -500 ns/op", "-500 ns/op: negative, and sec/op cannot be"},
	{"BenchmarkA-2 10 0 ns/op", "0 ns/op: an operation takes some time"},
	{"BenchmarkA-2 10 1e-320 ns/op", "1e-320 ns/op: an operation takes some time"}, // 0 s/op in float64
	{"BenchmarkA-2 10 1e308 ns/op", "1e+308 ns/op: more than 1e+06 seconds per operation"},
	{"BenchmarkA-2 10 500 ns/op -8 B/op", "-8 B/op: negative, and B/op cannot be"},
	{"BenchmarkA-2 10 500 ns/op 1e308 B/op", "1e+308 B/op: more than 2⁶³ per operation"},
	{"BenchmarkA-2 10 500 ns/op 1e19 allocs/op", "1e+19 allocs/op: more than 2⁶³ per operation"},
	{"BenchmarkA-2 10 500 ns/op -1 allocs/op", "-1 allocs/op: negative, and allocs/op cannot be"},
	{"BenchmarkA-2 10 500 ns/op -3 MB/s", "-3 MB/s: negative, and B/s cannot be"},
	{"BenchmarkA-2 10 500 ns/op -2 cpu-ns/op", "-2 cpu-ns/op: negative, and cpu-sec/op cannot be"},
	{"BenchmarkA-2 10 500 ns/op NaN widgets/op", "NaN widgets/op: not a finite number"},
}

// possible are result lines whose values are unusual but can be.
var possible = []string{
	"BenchmarkA-2 10 500 ns/op 0 B/op 0 allocs/op",
	"BenchmarkA-2 10 0.25 ns/op",
	"BenchmarkA-2 10 500 ns/op -4 delta/op",
	"BenchmarkA-2 10 1e-300 ns/op",
	"BenchmarkA-2 10 500 ns/op 0 MB/s",
	"BenchmarkA-2 10 500 ns/op 9e18 B/op 1e300 MB/s 1e300 widgets/op",
}

// TestReadImpossibleValues reads each line of impossible among good ones,
// in the Go benchmark format and in JSON Lines: the line is skipped with a
// warning naming the file and its line, and the others are read. Before,
// negative values were read as they were (a -500 ns/op compared as
// "-200.00% faster") and lines of 0 ns/op vanished without a word.
func TestReadImpossibleValues(t *testing.T) {
	good := "BenchmarkA-2 10 500 ns/op\n"
	for _, tc := range impossible {
		text := "pkg: example.com/m\n" + good + tc.line + "\n" + good
		run, warnings, err := ReadBenchfmt(strings.NewReader(text), "bad.txt")
		if err != nil {
			t.Fatal(err)
		}
		if len(run.Measurements) != 2 {
			t.Errorf("%q: read %d measurements, want the 2 good ones", tc.line, len(run.Measurements))
		}
		if len(warnings) != 1 || !strings.Contains(warnings[0].Error(), "bad.txt:3: "+tc.want) {
			t.Errorf("%q: warnings %v, want one at bad.txt:3 saying %q", tc.line, warnings, tc.want)
		}

	}
	for _, line := range possible {
		run, warnings, err := ReadBenchfmt(strings.NewReader(line+"\n"), "ok.txt")
		if err != nil || len(warnings) > 0 || len(run.Measurements) != 1 {
			t.Errorf("%q: %v, %v, want it read", line, err, warnings)
		}
	}
}

func TestReadJSONImpossibleValues(t *testing.T) {
	for _, tc := range []struct {
		value float64
		unit  string
		want  string
	}{
		{-5e-7, "sec/op", "-5e-07 sec/op: negative"},
		{0, "sec/op", "0 sec/op: an operation takes some time"},
		{2e6, "sec/op", "2e+06 sec/op: more than 1e+06 seconds"},
		{-1, "B/op", "-1 B/op: negative"},
		{-1, "allocs/op", "-1 allocs/op: negative"},
		// Units that are not tidy are judged in their tidy form.
		{-500, "ns/op", "-500 ns/op: negative, and sec/op cannot be"},
		{3e15, "ns/op", "3e+15 ns/op: more than 1e+06 seconds"},
	} {
		var buf bytes.Buffer
		run := sampleRun()
		bad := run.Measurements[1]
		bad.Values = []Value{{Value: tc.value, Unit: tc.unit}}
		run.Measurements = append(run.Measurements[:1], bad, run.Measurements[1])
		if err := WriteJSON(&buf, run); err != nil {
			t.Fatal(err)
		}
		got, warnings, err := ReadJSON(&buf, "bad.json")
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Measurements) != 2 {
			t.Errorf("%v %s: read %d measurements, want 2", tc.value, tc.unit, len(got.Measurements))
		}
		// Line 1 is the run record, line 3 the bad measurement.
		if len(warnings) != 1 || !strings.Contains(warnings[0].Error(), "bad.json:3: ") || !strings.Contains(warnings[0].Error(), tc.want) {
			t.Errorf("%v %s: warnings %v, want one at bad.json:3 saying %q", tc.value, tc.unit, warnings, tc.want)
		}
	}
}

// TestReadOnlyImpossible reads a file whose every line is impossible: the
// error says why, instead of that the metric is missing.
func TestReadOnlyImpossible(t *testing.T) {
	_, _, err := Read(strings.NewReader("BenchmarkA-2 10 0 ns/op\nBenchmarkA-2 10 0 ns/op\n"), "zeros.txt")
	want := "zeros.txt: no benchmark results (2 malformed lines; first: zeros.txt:1: 0 ns/op: an operation takes some time)"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}
