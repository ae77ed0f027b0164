package bench

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

// An endless reader repeats its text for ever, as /dev/zero or a pipe
// that never closes would, and counts what it gave.
type endless struct {
	text []byte
	off  int
	read int64
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k := copy(p[n:], e.text[e.off:])
		e.off = (e.off + k) % len(e.text)
		n += k
	}
	e.read += int64(n)
	return n, nil
}

// readers are the entry points that read an input, under options.
var readers = []struct {
	name string
	read func(o ReadOptions, r io.Reader, name string) (*Run, []error, error)
}{
	{"Read", ReadOptions.Read},
	{"ReadBenchfmt", ReadOptions.ReadBenchfmt},
	{"ReadJSON", ReadOptions.ReadJSON},
}

// TestReadEndless reads inputs that never end: each reader must stop with
// a *SizeError naming the input once it has read MaxBytes, having taken no
// more than one byte past them from the input.
func TestReadEndless(t *testing.T) {
	const max = 1 << 20
	inputs := map[string]string{
		"zeros":   "\x00",
		"blank":   "\n",
		"results": "BenchmarkA-2 10 100 ns/op\n",
		"records": `{"type":"measurement","name":"A","n":10,"phase":"measure","values":[{"value":1e-7,"unit":"sec/op"}]}` + "\n",
		"long":    strings.Repeat("x", 100<<10) + "\n",
	}
	for _, rd := range readers {
		for name, text := range inputs {
			src := &endless{text: []byte(text)}
			_, _, err := rd.read(ReadOptions{MaxBytes: max}, src, name+".txt")
			var se *SizeError
			if !errors.As(err, &se) || se.File != name+".txt" || se.Max != max {
				t.Errorf("%s(endless %s) = %v, want a *SizeError naming %s.txt", rd.name, name, err, name)
			}
			if src.read > max+1 {
				t.Errorf("%s(endless %s) read %d bytes, more than the %d allowed and one", rd.name, name, src.read, max)
			}
		}
	}
	err := &SizeError{File: "zeros.txt", Max: 1 << 30}
	if got, want := err.Error(), "zeros.txt: longer than 1 GiB, the most read from an input"; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
}

// TestReadEndlessMemory reads 32 MiB of an input without newlines, as
// /dev/zero is, and checks what the reader allocated: the Go benchmark
// format holds no line longer than 64 KiB, and JSON Lines no more than
// the line so far, which it gathers in a buffer that doubles (so at most
// twice the cap in all). Before the readers streamed, they held the whole
// input (and `mbench compare /dev/zero x` grew until the system killed it).
func TestReadEndlessMemory(t *testing.T) {
	const max = 32 << 20
	for _, rd := range readers {
		for _, text := range []string{"\x00", "{"} {
			src := &endless{text: []byte(text)}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, _, err := rd.read(ReadOptions{MaxBytes: max}, src, "zeros")
			runtime.ReadMemStats(&after)
			if !errors.As(err, new(*SizeError)) {
				t.Errorf("%s: %v, want a *SizeError", rd.name, err)
			}
			if src.read < max {
				t.Errorf("%s read %d bytes of the endless input, want %d before it stops", rd.name, src.read, max)
			}
			limit := uint64(4 << 20)
			if rd.name == "ReadJSON" || rd.name == "Read" && text == "{" {
				limit = 2*max + 4<<20
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > limit {
				t.Errorf("%s allocated %d bytes reading %d bytes of %q without a newline, want at most %d", rd.name, got, max, text, limit)
			}
		}
	}
}

// TestReadCapBoundary reads an input of exactly MaxBytes, which succeeds,
// and of one byte more, which fails.
func TestReadCapBoundary(t *testing.T) {
	text := "pkg: example.com/m\nBenchmarkA-2 10 100 ns/op\nBenchmarkA-2 10 110 ns/op\n"
	rec := `{"type":"measurement","name":"A","n":1,"phase":"measure","values":[{"value":1,"unit":"sec/op"}]}` + "\n"
	for _, rd := range readers {
		in := text
		if rd.name == "ReadJSON" {
			in = rec + rec
		}
		run, _, err := rd.read(ReadOptions{MaxBytes: int64(len(in))}, strings.NewReader(in), "exact.txt")
		if err != nil || len(run.Measurements) != 2 {
			t.Errorf("%s of %d bytes under a cap of as many: %v, %v", rd.name, len(in), run, err)
		}
		_, _, err = rd.read(ReadOptions{MaxBytes: int64(len(in) - 1)}, strings.NewReader(in), "over.txt")
		if !errors.As(err, new(*SizeError)) {
			t.Errorf("%s of %d bytes under a cap of one less: %v, want a *SizeError", rd.name, len(in), err)
		}
	}
	// The zero options are the default ones.
	if got := (ReadOptions{}).maxBytes(); got != DefaultMaxBytes {
		t.Errorf("ReadOptions{}.maxBytes() = %d, want %d", got, DefaultMaxBytes)
	}
}

// TestReadStreamsLines checks that reading line by line keeps what the
// whole-input reader gave: annotations apply to the results after them,
// and a "#mbench run" line after results still sets the run's metadata,
// while the results' configuration fills in what it leaves unknown.
func TestReadStreamsLines(t *testing.T) {
	text := "goos: linux\ncpu: Xeon\npkg: example.com/m\n" +
		"BenchmarkA-2 10 100 ns/op\n" +
		"#mbench coord {\"fork\":2}\n" +
		"BenchmarkA-2 10 110 ns/op\n" +
		"#mbench run {\"label\":\"main\",\"goos\":\"darwin\"}\n" +
		"BenchmarkA-2 10 120 ns/op\n"
	run, warnings, err := ReadBenchfmt(strings.NewReader(text), "late.txt")
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	if run.Label != "main" || run.GOOS != "darwin" || run.CPU != "Xeon" {
		t.Errorf("run %q on %q, %q; want main on darwin (the run line), Xeon (the configuration)", run.Label, run.GOOS, run.CPU)
	}
	var forks []int
	for _, m := range run.Measurements {
		forks = append(forks, m.Coord.Fork)
	}
	if len(forks) != 3 || forks[0] != 0 || forks[1] != 2 || forks[2] != 2 {
		t.Errorf("forks %v, want [0 2 2]", forks)
	}

	// Blank lines before the first record keep line numbers right.
	_, warnings, err = Read(strings.NewReader("\n\n  \n{\"type\":\"run\"}\n{nope\n"+
		`{"type":"measurement","name":"A","n":1,"phase":"measure","values":[{"value":1,"unit":"sec/op"}]}`+"\n"), "blank.json")
	if err != nil || len(warnings) != 1 || !strings.HasPrefix(warnings[0].Error(), "blank.json:5:") {
		t.Errorf("warnings %v (%v), want one for line 5", warnings, err)
	}
}

// TestReadLongJSONRecord skips a JSON record longer than maxRecord without
// holding it, and reads the records around it.
func TestReadLongJSONRecord(t *testing.T) {
	rec := `{"type":"measurement","name":"A","n":1,"phase":"measure","values":[{"value":1,"unit":"sec/op"}]}` + "\n"
	long := bytes.Repeat([]byte(" "), maxRecord+10)
	input := io.MultiReader(strings.NewReader(rec), bytes.NewReader(long), strings.NewReader("\n"+rec))
	run, warnings, err := ReadJSON(input, "long.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Measurements) != 2 {
		t.Errorf("read %d measurements, want the 2 around the long line", len(run.Measurements))
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0].Error(), "long.json:2: line of 67108874 bytes is longer than 67108864") {
		t.Errorf("warnings %v, want one for line 2", warnings)
	}
}

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"1", 1}, {"4096", 4096}, {"2GiB", 2 << 30}, {"2 GiB", 2 << 30}, {"512MiB", 512 << 20},
		{"1KiB", 1024}, {"1TiB", 1 << 40}, {"3kB", 3000}, {"5MB", 5e6}, {"1GB", 1e9}, {"7B", 7},
	} {
		if got, err := ParseSize(tc.in); err != nil || got != tc.want {
			t.Errorf("ParseSize(%q) = %d, %v, want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "0", "-1", "+1", "1.5GiB", "GiB", "1 XB", "99999999999TiB", "1e9"} {
		if got, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", bad, got)
		}
	}
	for n, want := range map[int64]string{1 << 30: "1 GiB", 3 << 20: "3 MiB", 2048: "2 KiB", 1536: "1536 bytes", 1000: "1000 bytes"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}
