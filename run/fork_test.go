package run

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
)

const sampleOutput = `goos: linux
goarch: amd64
pkg: example.com/fixture
cpu: Intel(R) Xeon(R) Processor
BenchmarkJoin/n=10-2   	  100000	      1052 ns/op	      32 B/op	       1 allocs/op	        10.00 items/op
BenchmarkJoin/n=10-2   	  100000	      1049 ns/op	      32 B/op	       1 allocs/op	        10.00 items/op
--- FAIL: BenchmarkTrouble-2
    fixture_test.go:42: asked to fail
BenchmarkBad-2   	  100	  abc ns/op
PASS
ok  	example.com/fixture	1.234s
`

func TestScanResults(t *testing.T) {
	var got []bench.Measurement
	stopped, results, bad, err := scanResults(strings.NewReader(sampleOutput), "out", "fallback", func(m *bench.Measurement) bool {
		got = append(got, *m)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if stopped || results != 2 || len(got) != 2 {
		t.Fatalf("stopped=%v results=%d measurements=%d, want 2 results", stopped, results, len(got))
	}
	if len(bad) != 1 || !strings.Contains(bad[0], "out:9") {
		t.Errorf("bad lines %q, want line 9 of out", bad)
	}
	m := got[0]
	if m.Key.Package != "example.com/fixture" || m.Key.Name != "Join/n=10" || m.Key.Procs != 2 || m.N != 100000 {
		t.Errorf("key %+v N %d", m.Key, m.N)
	}
	if v, _ := m.Get("items/op"); v != 10 {
		t.Errorf("custom metric %v", v)
	}
	if m.Start.After(m.End) || got[1].Start != m.End {
		t.Errorf("timestamps: first %v-%v, second starts %v", m.Start, m.End, got[1].Start)
	}
	// onResult returning false stops the scan at once.
	n := 0
	stopped, results, _, _ = scanResults(strings.NewReader(sampleOutput), "out", "", func(*bench.Measurement) bool { n++; return false })
	if !stopped || results != 1 || n != 1 {
		t.Errorf("stop after the first result: stopped=%v results=%d calls=%d", stopped, results, n)
	}
	// Without a pkg line the fallback package names the results.
	scanResults(strings.NewReader("BenchmarkX 10 5 ns/op\n"), "out", "fallback", func(m *bench.Measurement) bool {
		if m.Key.Package != "fallback" {
			t.Errorf("package %q, want the fallback", m.Key.Package)
		}
		return true
	})
}

// FuzzScanResults feeds arbitrary output to the runner's parser: it must
// not panic, and every measurement it delivers must be usable.
func FuzzScanResults(f *testing.F) {
	f.Add([]byte(sampleOutput))
	f.Add([]byte("BenchmarkA-2 1 1 ns/op\nBenchmarkA-2 1 NaN ns/op\nBenchmarkA-2 0 1 ns/op\n"))
	f.Add([]byte("pkg: x\nBenchmarkA/b/c-8 5 1.5e3 ns/op 3 widgets/op\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		delivered := 0
		_, results, _, _ := scanResults(strings.NewReader(string(data)), "fuzz", "p", func(m *bench.Measurement) bool {
			delivered++
			if m.N <= 0 || m.Key.Name == "" || m.Key.Package == "" {
				t.Fatalf("unusable measurement %+v", m)
			}
			for _, v := range m.Values {
				if math.IsNaN(v.Value) || math.IsInf(v.Value, 0) || v.Unit == "" {
					t.Fatalf("bad value %+v", v)
				}
			}
			return true
		})
		if results != delivered {
			t.Fatalf("counted %d results, delivered %d", results, delivered)
		}
	})
}

// TestScanLongLines reads output with lines far longer than the benchfmt
// reader's limit, as a benchmark that logs a large value prints: every
// result after them must still be read, and the long line's start kept.
func TestScanLongLines(t *testing.T) {
	long := strings.Repeat("x", 200<<10)
	out := "pkg: p\nBenchmarkA 1 5 ns/op\n    a_test.go:9: " + long + "\nBenchmarkB 1 5 ns/op\n" +
		"BenchmarkC" + long + " 1 5 ns/op\nBenchmarkD 1 5 ns/op\n" + long
	var names []string
	_, results, bad, err := scanResults(strings.NewReader(out), "out", "", func(m *bench.Measurement) bool {
		names = append(names, m.Key.Name)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	// C's line is cut, so it no longer parses: a bad line, not a lost one.
	if results != 3 || strings.Join(names, ",") != "A,B,D" || len(bad) != 1 {
		t.Errorf("read %d results %v and bad lines %.80q; want A, B, D and C's line bad", results, names, bad)
	}
	var tail tailWriter
	tail.max = 2
	tail.Write([]byte(long + "\nend\n"))
	if got := tail.String(); len(got) != tailLineLen+len("\nend") {
		t.Errorf("the tail of a long line holds %d bytes", len(got))
	}
}

// errReader returns its data, then an error.
type errReader struct {
	data string
	err  error
}

func (r *errReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// TestScanError reads output that breaks off with an error: it is
// returned, with the results before it.
func TestScanError(t *testing.T) {
	broken := errors.New("broken pipe")
	_, results, _, err := scanResults(&errReader{"BenchmarkA 1 5 ns/op\n", broken}, "out", "p",
		func(*bench.Measurement) bool { return true })
	if results != 1 || !errors.Is(err, broken) {
		t.Errorf("results %d, error %v; want 1 and the read error", results, err)
	}
}
