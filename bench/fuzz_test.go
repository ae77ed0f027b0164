package bench

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// The fuzz targets of the package's parsers. Their seeds run with every
// `go test`; .ci/fuzz runs each target for a while (see docs/fuzzing.md).

func FuzzReadBenchfmt(f *testing.F) {
	for _, name := range []string{"gotest.txt", "bad.txt"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	var buf bytes.Buffer
	WriteBenchfmt(&buf, sampleRun(), BenchfmtOptions{Warmup: true})
	f.Add(bytes.Clone(buf.Bytes()))
	buf.Reset()
	WriteBenchfmt(&buf, abRun(), BenchfmtOptions{Warmup: true})
	f.Add(bytes.Clone(buf.Bytes()))
	f.Add([]byte("BenchmarkA 1 1 ns/op\n" + strings.Repeat("x", maxLine+1) + "\r\n#mbench coord {\"fork\":2}\r\nBenchmarkA 1 2 ns/op\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		run, warnings, err := checkCapped(t, ReadOptions.ReadBenchfmt, data)
		if err != nil {
			return
		}
		for _, w := range warnings {
			var se *benchfmt.SyntaxError
			if !errors.As(w, &se) {
				t.Fatalf("warning %v has no position", w)
			}
		}
		checkMeasurements(t, run)
		// What was read must survive a write and a second read.
		var out bytes.Buffer
		if err := WriteBenchfmt(&out, run, BenchfmtOptions{Warmup: true}); err != nil {
			t.Fatal(err)
		}
		again, _, err := ReadBenchfmt(&out, "again")
		if err != nil {
			t.Fatal(err)
		}
		if len(again.Measurements) != len(run.Measurements) {
			t.Fatalf("round trip kept %d of %d measurements\n%s", len(again.Measurements), len(run.Measurements), out.Bytes())
		}
	})
}

func FuzzReadJSON(f *testing.F) {
	var buf bytes.Buffer
	WriteJSON(&buf, sampleRun())
	f.Add(bytes.Clone(buf.Bytes()))
	buf.Reset()
	WriteJSON(&buf, abRun())
	f.Add(bytes.Clone(buf.Bytes()))
	f.Add([]byte("{\"type\":\"measurement\",\"name\":\"X\",\"n\":1,\"phase\":\"measure\",\"values\":[{\"value\":1,\"unit\":\"sec/op\"}]}\n"))
	f.Add([]byte("{\"type\":\"run\",\"format\":\"mbench/v2\"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		run, _, err := checkCapped(t, ReadOptions.ReadJSON, data)
		if err != nil {
			return
		}
		checkMeasurements(t, run)
		var out bytes.Buffer
		if err := WriteJSON(&out, run); err != nil {
			t.Fatal(err)
		}
		again, warnings, err := ReadJSON(&out, "again")
		if err != nil || len(warnings) > 0 {
			t.Fatalf("rereading what was written: %v %v\n%s", err, warnings, out.Bytes())
		}
		if !reflect.DeepEqual(again.Measurements, run.Measurements) && len(run.Measurements) > 0 {
			t.Fatalf("round trip differs:\n%+v\n%+v", again.Measurements, run.Measurements)
		}
	})
}

// FuzzRead reads input in either format, as `mbench compare` reads a file.
func FuzzRead(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "gotest.txt"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	var buf bytes.Buffer
	WriteJSON(&buf, sampleRun())
	f.Add(bytes.Clone(buf.Bytes()))
	f.Add([]byte("  \n{}\n"))
	f.Add([]byte("\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		run, _, err := checkCapped(t, ReadOptions.Read, data)
		if err != nil {
			if run != nil {
				t.Fatalf("Read returned a run with error %v", err)
			}
			return
		}
		if len(run.Measurements) == 0 {
			t.Fatal("Read returned a run without measurements and no error")
		}
		checkMeasurements(t, run)
	})
}

// fuzzCap is the cap on the input under which the fuzz targets read data
// repeated without end.
const fuzzCap = 4 << 10

// checkCapped reads data with read under a memory cap, as the fuzz targets
// do: under a cap of exactly its length, which must be as if there were
// none, and of one byte less, which must fail (with a *SizeError, or
// another error that stopped the reading first); then data repeated
// without end, under fuzzCap, which must fail too. Each time the reader must take
// at most one byte more than the cap from its input: what it holds is
// bounded by the cap. It returns what the read under the exact cap
// returned.
func checkCapped(t *testing.T, read func(ReadOptions, io.Reader, string) (*Run, []error, error), data []byte) (*Run, []error, error) {
	t.Helper()
	capped := func(max int64, r io.Reader) (*Run, []error, error, int64) {
		c := &countingReader{r: r}
		run, warnings, err := read(ReadOptions{MaxBytes: max}, c, "fuzz")
		if c.n > max+1 {
			t.Fatalf("under a cap of %d bytes the reader took %d", max, c.n)
		}
		return run, warnings, err, c.n
	}
	tooLong := func(err error) bool {
		var se *SizeError
		return errors.As(err, &se) && se.File == "fuzz"
	}
	// Another error (a format the reader does not know) may stop the
	// reading first; nothing may succeed.
	if len(data) > 1 {
		if _, _, err, _ := capped(int64(len(data)-1), bytes.NewReader(data)); err == nil {
			t.Fatalf("%d bytes under a cap of one less: no error", len(data))
		}
	}
	if len(data) > 0 {
		if _, _, err, _ := capped(fuzzCap, &endless{text: data}); err == nil {
			t.Fatalf("the input repeated without end under a cap of %d: no error", fuzzCap)
		}
	}
	run, warnings, err, _ := capped(max(int64(len(data)), 1), bytes.NewReader(data))
	if tooLong(err) {
		t.Fatalf("%d bytes under a cap of as many: %v", len(data), err)
	}
	return run, warnings, err
}

// A countingReader counts the bytes read from r.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// checkMeasurements fails t for a measurement an analysis could not use.
func checkMeasurements(t *testing.T, run *Run) {
	t.Helper()
	for _, m := range run.Measurements {
		if m.Key.Name == "" || m.N <= 0 || m.Coord.Phase > Warmup {
			t.Fatalf("unusable measurement %+v", m)
		}
		for _, v := range m.Values {
			if v.Unit == "" || math.IsNaN(v.Value) || math.IsInf(v.Value, 0) {
				t.Fatalf("measurement %+v has a bad value %+v", m, v)
			}
		}
		if err := m.CheckValues(); err != nil {
			t.Fatalf("measurement %+v has a value that cannot be: %v", m, err)
		}
	}
}

func FuzzParseInput(f *testing.F) {
	for _, s := range []string{"old.txt", "old=old.txt", "x=a=b.txt", "=a", "a=", "=", "latest", "a b=c d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		in, err := ParseInput(arg)
		if err != nil {
			return
		}
		if in.Label == "" || in.Path == "" {
			t.Fatalf("ParseInput(%q) = %+v: empty label or path", arg, in)
		}
		if in.Label+"="+in.Path != arg && (in.Label != arg || in.Path != arg) {
			t.Fatalf("ParseInput(%q) = %+v: not the argument's parts", arg, in)
		}
		// The same label twice is ambiguous.
		if _, err := ParseInputs([]string{arg, arg}); err == nil {
			t.Fatalf("ParseInputs accepted %q twice", arg)
		}
		ins, err := ParseInputs([]string{arg, "x" + in.Label + "=" + in.Path})
		if err != nil || len(ins) != 2 || ins[0] != in {
			t.Fatalf("ParseInputs(%q, x...) = %+v, %v", arg, ins, err)
		}
	})
}

func FuzzParseLevels(f *testing.F) {
	for _, s := range []string{"3,5,5", " 1, 1 ,1", "1000,1000,1000", "1000,1000,1001", "0,1,1", "+1,1,1", "1,,1", "9223372036854775807,2,1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLevels(s)
		if err != nil {
			if l != (Levels{}) {
				t.Fatalf("ParseLevels(%q) = %v with error %v", s, l, err)
			}
			return
		}
		if err := l.Validate(); err != nil {
			t.Fatalf("ParseLevels(%q) = %v, which Validate rejects: %v", s, l, err)
		}
		if n := l.Total(); n < 1 || n > MaxIterations {
			t.Fatalf("ParseLevels(%q) = %v with %d iterations", s, l, n)
		}
		if again, err := ParseLevels(l.String()); err != nil || again != l {
			t.Fatalf("ParseLevels(%q) = %v, but ParseLevels(%q) = %v, %v", s, l, l.String(), again, err)
		}
	})
}

func FuzzParsePhase(f *testing.F) {
	for _, s := range []string{"", "measure", "warmup", "Measure", "warm-up"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePhase(s)
		if err != nil {
			return
		}
		if again, err := ParsePhase(p.String()); err != nil || again != p {
			t.Fatalf("ParsePhase(%q) = %v, but ParsePhase(%q) = %v, %v", s, p, p.String(), again, err)
		}
	})
}
