package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
)

// crcRun returns go test output with x/perf's crc32 benchmark names
// (golang.org/x/perf/cmd/benchstat/testdata/crc-old.txt) in the order
// they ran, which is not alphabetical: size=1kB sorts before size=40.
// extra names a benchmark of this side only, written where the order
// puts it.
func crcRun(t *testing.T, label string, scale float64, extra string) *bench.Run {
	t.Helper()
	var b strings.Builder
	b.WriteString("pkg: hash/crc32\ngoos: linux\ngoarch: amd64\n")
	names := []string{"poly=IEEE/size=15", "poly=IEEE/size=40", "poly=IEEE/size=512", "poly=IEEE/size=1kB",
		"poly=IEEE/size=4kB", "poly=IEEE/size=32kB", "poly=Castagnoli/size=15", "poly=Castagnoli/size=1kB"}
	names = slices.Insert(names, 3, extra)
	for i := range 8 {
		for j, name := range names {
			fmt.Fprintf(&b, "BenchmarkCRC32/%s-8 1000000 %g ns/op\n", name, scale*float64(10*(j+1)+i%3))
		}
	}
	r, warnings, err := bench.Read(strings.NewReader(b.String()), label)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("reading %s: %v %v", label, err, warnings)
	}
	r.Label = label
	return r
}

// TestOrderAsInput checks that rows keep the order of the input, as
// benchstat's do, rather than the order of their names.
func TestOrderAsInput(t *testing.T) {
	old := crcRun(t, "old", 1, "poly=IEEE/size=old-only")
	new := crcRun(t, "new", 1.1, "poly=IEEE/size=new-only")
	res, err := Compare(old, new, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, row := range res.Rows {
		got = append(got, strings.TrimPrefix(row.Key.Name, "CRC32/"))
	}
	want := []string{"poly=IEEE/size=15", "poly=IEEE/size=40", "poly=IEEE/size=512", "poly=IEEE/size=1kB",
		"poly=IEEE/size=4kB", "poly=IEEE/size=32kB", "poly=Castagnoli/size=15", "poly=Castagnoli/size=1kB"}
	if !slices.Equal(got, want) {
		t.Errorf("rows in order %q, want the input's %q", got, want)
	}
	if len(res.OnlyOld) != 1 || res.OnlyOld[0].Name != "CRC32/poly=IEEE/size=old-only" ||
		len(res.OnlyNew) != 1 || res.OnlyNew[0].Name != "CRC32/poly=IEEE/size=new-only" {
		t.Errorf("one-sided benchmarks: old %v, new %v", res.OnlyOld, res.OnlyNew)
	}

	// The text table lists them in the same order.
	var buf bytes.Buffer
	if err := res.Write(&buf, Text); err != nil {
		t.Fatal(err)
	}
	last := -1
	for _, name := range want {
		i := strings.Index(buf.String(), "CRC32/"+name+"-8 ")
		if i < last {
			t.Errorf("%s is printed out of order:\n%s", name, &buf)
		}
		last = i
	}
}

// TestOrderOldFirst compares sides that ran their benchmarks in different
// orders: the rows follow old's.
func TestOrderOldFirst(t *testing.T) {
	old := crcRun(t, "old", 1, "poly=IEEE/size=64")
	new := crcRun(t, "new", 1, "poly=IEEE/size=64")
	// Old ran size=1kB (the fifth benchmark of each pass) first.
	old.Measurements = append(old.Measurements[4:], old.Measurements[:4]...)
	res, err := Compare(old, new, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	keys := old.Keys()
	if keys[0].Name != "CRC32/poly=IEEE/size=1kB" {
		t.Fatalf("old's first benchmark is %v, want size=1kB", keys[0])
	}
	for i, k := range keys {
		if res.Rows[i].Key != k {
			t.Errorf("row %d is %v, want %v, in old's order", i, res.Rows[i].Key, k)
		}
	}
}

// TestPlatformWarning compares runs from two machines, whose platforms the
// test fakes: the comparison warns, once, naming what differs, and every
// output format carries the warning.
func TestPlatformWarning(t *testing.T) {
	ci := crcRun(t, "ci", 1, "poly=IEEE/size=64")
	laptop := crcRun(t, "laptop", 1, "poly=IEEE/size=64")
	ci.Platform = bench.Platform{Toolchain: "go1.26.8", GOOS: "linux", GOARCH: "amd64", Kernel: "6.8.0-45-generic",
		CPU: "Intel(R) Xeon(R) Platinum 8375C", CPUs: 8, GOMAXPROCS: 8, Governor: "performance", Turbo: "off",
		Host: "ip-10-0-3-7", Instance: "ci-large", Load: new(0.1)}
	laptop.Platform = ci.Platform
	laptop.Load = new(2.5) // load is not the platform

	res, err := Compare(ci, laptop, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range res.Warnings {
		if strings.Contains(w, "platform") {
			t.Errorf("one platform, different loads: warning %q", w)
		}
	}

	laptop.Platform.Instance, laptop.Platform.Host = "laptop", "laptop"
	laptop.Platform.CPU, laptop.Platform.CPUs, laptop.Platform.GOMAXPROCS = "Apple M3", 12, 12
	res, err = Compare(ci, laptop, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, w := range res.Warnings {
		if strings.Contains(w, "different platforms") {
			found = append(found, w)
		}
	}
	if len(found) != 1 {
		t.Fatalf("warnings %q, want one about the platforms", res.Warnings)
	}
	for _, want := range []string{"ci and laptop", `instance "ci-large" vs "laptop"`, `cpu "Intel(R) Xeon(R) Platinum 8375C" vs "Apple M3"`,
		`cpus "8" vs "12"`, `gomaxprocs "8" vs "12"`} {
		if !strings.Contains(found[0], want) {
			t.Errorf("warning %q does not name %s", found[0], want)
		}
	}
	for _, f := range Formats {
		var buf bytes.Buffer
		if err := res.Write(&buf, f); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if f == JSON {
			var jr struct{ Warnings []string }
			if err := json.Unmarshal(buf.Bytes(), &jr); err != nil {
				t.Fatal(err)
			}
			out = strings.Join(jr.Warnings, "\n")
		}
		if f != CSV && !strings.Contains(out, found[0]) {
			t.Errorf("%s output lacks the platform warning:\n%s", f, out)
		}
	}

	// The two versions of one run, as an A/B session stores them, share
	// the run's platform: nothing to warn about.
	ab := &bench.Run{Label: "ab", Platform: ci.Platform}
	for _, v := range []string{"old", "new"} {
		for _, m := range ci.Measurements {
			m.Coord.Version = v
			ab.Measurements = append(ab.Measurements, m)
		}
	}
	res, err = Compare(ab.Version("old"), ab.Version("new"), DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "platform") }) {
		t.Errorf("versions of one run: warnings %q", res.Warnings)
	}
}
