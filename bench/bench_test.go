package bench

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func readTestdata(t *testing.T, name string) (*Run, []error) {
	t.Helper()
	run, warnings, err := ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return run, warnings
}

func TestReadGoTestOutput(t *testing.T) {
	run, warnings := readTestdata(t, "gotest.txt")
	if len(warnings) != 0 {
		t.Fatalf("warnings: %v", warnings)
	}
	if got, want := len(run.Measurements), 9; got != want {
		t.Fatalf("got %d measurements, want %d", got, want)
	}
	m := run.Measurements[4]
	wantKey := Key{Package: "github.com/pelletier/go-toml/v2/benchmark", Name: "UnmarshalDataset/canada", Procs: 2}
	if m.Key != wantKey {
		t.Errorf("key = %+v, want %+v", m.Key, wantKey)
	}
	if m.Coord.Iteration != 1 || m.Coord.Phase != Measure {
		t.Errorf("coord = %+v, want iteration 1 in the measure phase", m.Coord)
	}
	if v, _ := m.Get("sec/op"); v != 14768882e-9 {
		t.Errorf("sec/op = %v, want %v", v, 14768882e-9)
	}
	if v, _ := m.Get("B/s"); v != 149.05e6 {
		t.Errorf("B/s = %v, want %v", v, 149.05e6)
	}
	if m.N != 81 {
		t.Errorf("N = %d, want 81", m.N)
	}
	loop := run.Measurements[6]
	if loop.Key.Procs != 0 || loop.Key.Name != "Loop" || loop.Key.FullName() != "BenchmarkLoop" {
		t.Errorf("GOMAXPROCS-less key = %+v", loop.Key)
	}
	if v, ok := loop.Get("widgets/op"); !ok || v != 3 {
		t.Errorf("custom metric = %v, %v", v, ok)
	}
	if run.GOOS != "linux" || run.GOARCH != "amd64" || run.CPU != "Intel(R) Xeon(R) Processor" {
		t.Errorf("platform = %q %q %q", run.GOOS, run.GOARCH, run.CPU)
	}
	other := run.Measurements[8]
	if other.Key.Package != "example.com/other" || other.Coord.Iteration != 1 {
		t.Errorf("second package: %+v", other)
	}
	samples := run.Samples("sec/op")
	if s := samples[wantKey]; s == nil || len(s.Forks) != 1 || len(s.Forks[0]) != 3 || s.HasForks() {
		t.Errorf("sample = %+v", s)
	}
}

func TestReadBadLines(t *testing.T) {
	run, warnings := readTestdata(t, "bad.txt")
	if len(run.Measurements) != 2 {
		t.Errorf("kept %d measurements, want the 2 good ones", len(run.Measurements))
	}
	want := []string{"testdata/bad.txt:4:", "testdata/bad.txt:5:", "testdata/bad.txt:6:"}
	if len(warnings) != len(want) {
		t.Fatalf("warnings = %v, want %d", warnings, len(want))
	}
	for i, w := range warnings {
		if !strings.HasPrefix(w.Error(), want[i]) {
			t.Errorf("warning %d = %q, want prefix %q", i, w, want[i])
		}
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		path, want string
	}{
		{write("empty.txt", ""), "empty.txt: empty file"},
		{write("blank.txt", "\n  \n"), "blank.txt: empty file"},
		{write("noresults.txt", "goos: linux\nPASS\n"), "noresults.txt: no benchmark results"},
		{write("allbad.txt", "BenchmarkX 10 abc ns/op\n"), "allbad.txt: no benchmark results (1 malformed lines; first: " + filepath.Join(dir, "allbad.txt") + ":1:"},
		{write("badjson.json", "{\"type\":\"run\"}\n{nope\n"), "badjson.json: no benchmark results (1 malformed lines; first: " + filepath.Join(dir, "badjson.json") + ":2:"},
		{write("future.json", "{\"type\":\"run\",\"format\":\"mbench/v9\"}\n"), "future.json:1: format"},
		{filepath.Join(dir, "missing.txt"), "no such file"},
	} {
		_, _, err := ReadFile(tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadFile(%s) = %v, want an error containing %q", filepath.Base(tc.path), err, tc.want)
		}
	}
}

func TestParseInputs(t *testing.T) {
	ins, err := ParseInputs([]string{"old=a.txt", "b.txt", "x=c=d.txt"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Input{{"old", "a.txt"}, {"b.txt", "b.txt"}, {"x", "c=d.txt"}}
	if !reflect.DeepEqual(ins, want) {
		t.Errorf("got %v, want %v", ins, want)
	}
	for _, bad := range [][]string{{"a=x.txt", "a=y.txt"}, {"x.txt", "x.txt"}, {"=x.txt"}, {"a="}, {""}, {"x.txt", ""}} {
		if _, err := ParseInputs(bad); err == nil {
			t.Errorf("ParseInputs(%q) succeeded, want an error", bad)
		}
	}
}

// sampleRun has every field set, including coordinates, phases and
// timestamps, so that round trips are checked on all of them.
func sampleRun() *Run {
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 123456789, time.UTC)
	cfg := []Config{{"goos", "linux"}, {"goarch", "amd64"}}
	run := &Run{
		ID: "r1", Label: "main", Commit: "abc123", Dirty: true,
		Platform: Platform{
			Toolchain: "go1.26.8", GOOS: "linux", GOARCH: "amd64", Kernel: "6.8.0-45-generic",
			CPU: "Xeon", CPUs: 8, GOMAXPROCS: 8, Governor: "performance", Turbo: "off",
			Host: "ci-7", Instance: "ci-large", Load: new(0.25), Busy: new(0.0),
		},
		Start: t0, End: t0.Add(time.Minute),
		Settings: map[string]string{SettingCriterion: "cv", SettingIter: "100ms"},
		Units:    []UnitMeta{{"widgets/op", "better", "higher"}},
	}
	k := Key{Package: "example.com/p", Name: "Decode/size=1k", Procs: 2}
	run.Benchmarks = []Key{{Package: "example.com/p", Name: "Decode/size=1"}, k}
	for fork := 1; fork <= 2; fork++ {
		for it := range 3 {
			phase := Measure
			if it == 0 {
				phase = Warmup
			}
			start := t0.Add(time.Duration(fork*10+it) * time.Second)
			run.Measurements = append(run.Measurements, Measurement{
				Key:   k,
				Coord: Coord{Instance: "ci-7", SuiteRun: 1, Fork: fork, Iteration: it, Phase: phase},
				N:     1000,
				Values: []Value{
					{Value: (1500 + float64(it)) * 1e-9, Unit: "sec/op", OrigValue: 1500 + float64(it), OrigUnit: "ns/op"},
					{Value: 0.1 + 0.2, Unit: "widgets/op"},
				},
				Start: start, End: start.Add(100 * time.Millisecond),
				Config: cfg,
			})
		}
	}
	return run
}

func TestJSONRoundTrip(t *testing.T) {
	run := sampleRun()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, run); err != nil {
		t.Fatal(err)
	}
	got, warnings, err := Read(bytes.NewReader(buf.Bytes()), "rt.json")
	if err != nil || len(warnings) > 0 {
		t.Fatalf("read back: %v %v", err, warnings)
	}
	if !reflect.DeepEqual(got, run) {
		t.Errorf("JSON round trip differs:\n got %+v\nwant %+v", got, run)
	}
}

func TestBenchfmtRoundTrip(t *testing.T) {
	for _, name := range []string{"gotest.txt", "mbench"} {
		var run *Run
		if name == "mbench" {
			run = withoutTimes(sampleRun())
			var buf bytes.Buffer
			if err := WriteBenchfmt(&buf, run, BenchfmtOptions{Warmup: true}); err != nil {
				t.Fatal(err)
			}
			var err error
			run, _, err = Read(&buf, name)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(run, withoutTimes(sampleRun())) {
				t.Errorf("mbench run does not survive the text format:\n got %+v\nwant %+v", run, withoutTimes(sampleRun()))
			}
		} else {
			run, _ = readTestdata(t, name)
		}
		var first, second bytes.Buffer
		if err := WriteBenchfmt(&first, run, BenchfmtOptions{Warmup: true}); err != nil {
			t.Fatal(err)
		}
		again, warnings, err := Read(bytes.NewReader(first.Bytes()), name)
		if err != nil || len(warnings) > 0 {
			t.Fatalf("%s: read back: %v %v", name, err, warnings)
		}
		if !reflect.DeepEqual(again, run) {
			t.Errorf("%s: benchfmt round trip differs:\n got %+v\nwant %+v", name, again, run)
		}
		if err := WriteBenchfmt(&second, again, BenchfmtOptions{Warmup: true}); err != nil {
			t.Fatal(err)
		}
		if first.String() != second.String() {
			t.Errorf("%s: second write differs from the first:\n%s\n---\n%s", name, &first, &second)
		}
	}
}

// withoutTimes returns run without what the text format does not keep:
// timestamps and the list of benchmarks.
func withoutTimes(run *Run) *Run {
	run.Benchmarks = nil
	for i := range run.Measurements {
		run.Measurements[i].Start, run.Measurements[i].End = time.Time{}, time.Time{}
	}
	return run
}

func TestBenchfmtLeavesOutWarmup(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteBenchfmt(&buf, sampleRun(), BenchfmtOptions{}); err != nil {
		t.Fatal(err)
	}
	run, _, err := Read(&buf, "x")
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Measurements) != 4 {
		t.Errorf("%d measurements written, want the 4 measurement iterations", len(run.Measurements))
	}
	if s := run.Samples("sec/op")[run.Measurements[0].Key]; s == nil || len(s.Forks) != 2 {
		t.Errorf("fork structure lost: %+v", s)
	}
}

// TestBenchstatReads runs the real benchstat on what WriteBenchfmt writes.
func TestBenchstatReads(t *testing.T) {
	if testing.Short() {
		t.Skip("builds benchstat")
	}
	// benchstat comes from golang.org/x/perf, a requirement of this
	// module, so it builds wherever the module does.
	exe := filepath.Join(t.TempDir(), "benchstat")
	if out, err := exec.Command("go", "build", "-o", exe, "golang.org/x/perf/cmd/benchstat").CombinedOutput(); err != nil {
		t.Fatalf("building benchstat: %v\n%s", err, out)
	}
	dir := t.TempDir()
	old := filepath.Join(dir, "old.txt")
	f, _ := os.Create(old)
	if err := WriteBenchfmt(f, sampleRun(), BenchfmtOptions{}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	run := sampleRun()
	// A second run on the same machine: its load differs, as it always
	// does, and must not split benchstat's tables.
	run.Label, run.Commit, run.Load, run.Busy = "new", "def456", new(1.75), new(0.5)
	newPath := filepath.Join(dir, "new.txt")
	f, _ = os.Create(newPath)
	if err := WriteBenchfmt(f, run, BenchfmtOptions{}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cmd := exec.Command(exe, old, newPath)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("benchstat: %v\n%s", err, &stderr)
	}
	out := stdout.String()
	// One table per unit, each comparing old with new: the run metadata and
	// fork coordinates must not split the tables.
	if n := strings.Count(out, "Decode/size=1k-2"); n != 2 {
		t.Errorf("benchstat printed the benchmark %d times, want 2 (sec/op and widgets/op):\n%s", n, out)
	}
	if !strings.Contains(out, "1.502µ") || !strings.Contains(out, "vs base") {
		t.Errorf("benchstat output lacks the expected centre 1.502µ or a comparison:\n%s", out)
	}

	// A run on another platform: benchstat keeps the platforms apart, one
	// table each, as it does for two cpu: lines, and -ignore compares them
	// anyway.
	other := sampleRun()
	other.Toolchain = "go1.25.3"
	otherPath := filepath.Join(dir, "other.txt")
	f, _ = os.Create(otherPath)
	if err := WriteBenchfmt(f, other, BenchfmtOptions{}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, tc := range []struct {
		args    []string
		compare bool
	}{{[]string{old, otherPath}, false}, {[]string{"-ignore", "toolchain", old, otherPath}, true}} {
		cmd := exec.Command(exe, tc.args...)
		stdout.Reset()
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Fatalf("benchstat %q: %v\n%s", tc.args, err, &stderr)
		}
		out := stdout.String()
		if got := strings.Contains(out, "vs base"); got != tc.compare {
			t.Errorf("benchstat %q compares the platforms: %v, want %v:\n%s", tc.args, got, tc.compare, out)
		}
		if got := strings.Contains(out, "toolchain: go1.25.3"); got == tc.compare {
			t.Errorf("benchstat %q names the other toolchain in a table header: %v, want %v:\n%s", tc.args, got, !tc.compare, out)
		}
	}

	// A run of two versions in one file: -col version compares them.
	ab := filepath.Join(dir, "ab.txt")
	f, _ = os.Create(ab)
	if err := WriteBenchfmt(f, abRun(), BenchfmtOptions{}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cmd = exec.Command(exe, "-col", "version", ab)
	stdout.Reset()
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("benchstat -col version: %v\n%s", err, &stderr)
	}
	out = stdout.String()
	// sec/op: old 1.502µ, new 1.652µ (150 ns more), +9.99%.
	for _, want := range []string{"old", "new", "1.502µ", "1.652µ", "+9.99%"} {
		if !strings.Contains(out, want) {
			t.Errorf("benchstat -col version output lacks %q:\n%s", want, out)
		}
	}
}

// TestReadLongLines reads files with lines longer than a bufio.Scanner
// takes by default (64 KB) or than ReadJSON once took (16 MB): a benchmark
// that logs a long line must not cost the results around it.
func TestReadLongLines(t *testing.T) {
	long := strings.Repeat("x", 200<<10)
	text := "pkg: example.com/m\nBenchmarkA-2 10 100 ns/op\n" + long + "\n" +
		"#mbench coord {\"fork\":2}\nBenchmarkA-2 10 110 ns/op\nBenchmarkB-2 10 120 ns/op\n"
	run, warnings, err := Read(strings.NewReader(text), "long.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Measurements) != 3 || run.Measurements[2].Key.Name != "B" || run.Measurements[2].Coord.Fork != 2 {
		t.Errorf("read %+v, want A, A and B, the last two in fork 2", run.Measurements)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0].Error(), "long.txt:3: line of 204800 bytes") {
		t.Errorf("warnings %v, want one for line 3", warnings)
	}

	var buf bytes.Buffer
	if err := WriteJSON(&buf, sampleRun()); err != nil {
		t.Fatal(err)
	}
	records := strings.SplitAfter(buf.String(), "\n")
	junk := strings.Repeat("{", 17<<20) + "\n"
	text = strings.Join(records[:2], "") + junk + strings.Join(records[2:], "")
	run, warnings, err = Read(strings.NewReader(text), "long.json")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(run.Measurements), len(sampleRun().Measurements); got != want {
		t.Errorf("read %d measurements around a 17 MB line, want %d", got, want)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0].Error(), "long.json:3: not a JSON record") {
		t.Errorf("warnings %v, want one for line 3", warnings)
	}
}

// TestBenchfmtConfigChanges writes measurements whose configurations add,
// drop and reorder keys, and reads each configuration back.
func TestBenchfmtConfigChanges(t *testing.T) {
	configs := [][]Config{
		{{"n", "0"}},
		{{"a", "1"}, {"n", "0"}},
		{{"a", "1"}},
		{{"b", "2"}, {"c", "3"}, {"a", "4"}},
		{{"c", "5"}},
		nil,
		{{"a", "6"}, {"b", "7"}},
	}
	run := &Run{}
	for i, cfg := range configs {
		run.Measurements = append(run.Measurements, Measurement{
			Key:    Key{Name: "X"},
			Coord:  Coord{Iteration: i},
			N:      1,
			Values: []Value{{Value: float64(i + 1), Unit: "sec/op"}},
			Config: cfg,
		})
	}
	var buf bytes.Buffer
	if err := WriteBenchfmt(&buf, run, BenchfmtOptions{}); err != nil {
		t.Fatal(err)
	}
	again, warnings, err := ReadBenchfmt(&buf, "configs")
	if err != nil || len(warnings) > 0 {
		t.Fatalf("reading back: %v %v", err, warnings)
	}
	if len(again.Measurements) != len(configs) {
		t.Fatalf("read back %d measurements, want %d", len(again.Measurements), len(configs))
	}
	for i, m := range again.Measurements {
		// The format keeps a key's value until changed, and a file
		// configuration in order of first appearance: compare as sets.
		got, want := make(map[string]string), make(map[string]string)
		for _, c := range m.Config {
			got[c.Key] = c.Value
		}
		for _, c := range configs[i] {
			want[c.Key] = c.Value
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("measurement %d: configuration %v, want %v", i, m.Config, configs[i])
		}
	}
}

// TestKeysInOrder checks that Keys lists benchmarks as they first appear,
// not sorted by name (which would put size=1kB before size=40).
func TestKeysInOrder(t *testing.T) {
	text := "BenchmarkX/size=40-2 1 1 ns/op\nBenchmarkX/size=1kB-2 1 1 ns/op\nBenchmarkA-2 1 1 ns/op\nBenchmarkX/size=40-2 1 1 ns/op\n"
	run, _, err := Read(strings.NewReader(text), "order.txt")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range run.Keys() {
		got = append(got, k.Name)
	}
	if want := []string{"X/size=40", "X/size=1kB", "A"}; !slices.Equal(got, want) {
		t.Errorf("Keys() = %q, want %q", got, want)
	}

	// A run that measured in a random order but knows the order of the
	// source lists its keys in that order; keys it does not list follow
	// in order of appearance, and listed keys without measurements are
	// left out.
	run.Benchmarks = []Key{{Name: "Gone", Procs: 2}, {Name: "A", Procs: 2}, {Name: "X/size=1kB", Procs: 2}}
	got = nil
	for _, k := range run.Keys() {
		got = append(got, k.Name)
	}
	if want := []string{"A", "X/size=1kB", "X/size=40"}; !slices.Equal(got, want) {
		t.Errorf("Keys() with Benchmarks = %q, want %q", got, want)
	}
}
