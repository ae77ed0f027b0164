package bench

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestPlatformDiff(t *testing.T) {
	base := func() *Run { return sampleRun() }
	for _, tc := range []struct {
		name   string
		change func(r *Run)
		want   []string
	}{
		{"same", func(r *Run) {}, nil},
		{"load and busy are conditions", func(r *Run) { r.Load, r.Busy = new(3.5), new(0.9) }, nil},
		{"label, commit and host are not the platform", func(r *Run) { r.Label, r.Commit, r.Host = "x", "def", "ci-9" }, nil},
		{"cpu", func(r *Run) { r.CPU = "EPYC" }, []string{`cpu "Xeon" vs "EPYC"`}},
		{"counts", func(r *Run) { r.CPUs, r.GOMAXPROCS = 4, 4 }, []string{`cpus "8" vs "4"`, `gomaxprocs "8" vs "4"`}},
		{"os", func(r *Run) { r.GOOS, r.Kernel = "darwin", "24.1.0" }, []string{`goos "linux" vs "darwin"`, `kernel "6.8.0-45-generic" vs "24.1.0"`}},
		{"go", func(r *Run) { r.Toolchain = "go1.25.3" }, []string{`toolchain "go1.26.8" vs "go1.25.3"`}},
		{"frequency", func(r *Run) { r.Governor, r.Turbo = "powersave", "on" }, []string{`governor "performance" vs "powersave"`, `turbo "off" vs "on"`}},
		{"instance", func(r *Run) { r.Instance = "ci-small" }, []string{`instance "ci-large" vs "ci-small"`}},
		{"unknown on one side", func(r *Run) { r.Platform = Platform{CPU: "Xeon", GOOS: "linux"} }, nil},
	} {
		a, b := base(), base()
		tc.change(b)
		if got := PlatformDiff(a, b); !slices.Equal(got, tc.want) {
			t.Errorf("%s: PlatformDiff = %q, want %q", tc.name, got, tc.want)
		}
		if got := PlatformDiff(b, a); len(got) != len(tc.want) {
			t.Errorf("%s: PlatformDiff(b, a) = %q, want %d differences", tc.name, got, len(tc.want))
		}
	}

	// Without instances, the host names the machine.
	a, b := &Run{Platform: Platform{Host: "h1"}}, &Run{Platform: Platform{Host: "h2"}}
	if got := PlatformDiff(a, b); !slices.Equal(got, []string{`instance "h1" vs "h2"`}) {
		t.Errorf("hosts h1 and h2 without instances: %q", got)
	}
	b.Instance = "h1"
	if got := PlatformDiff(a, b); got != nil {
		t.Errorf("host h1 and instance h1: %q, want no difference", got)
	}
}

func TestPlatformWarning(t *testing.T) {
	a, b, c := sampleRun(), sampleRun(), sampleRun()
	b.Label = "again"
	c.Label, c.CPU = "laptop", "M3"
	if w := PlatformWarning(a, b); w != "" {
		t.Errorf("one platform: warning %q", w)
	}
	w := PlatformWarning(a, b, c)
	for _, want := range []string{"main and laptop", `cpu "Xeon" vs "M3"`} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q lacks %q", w, want)
		}
	}
	if strings.Contains(w, "\n") {
		t.Errorf("warning %q is more than one line", w)
	}
}

// TestBenchfmtPlatform checks that the platform travels as configuration
// lines (for benchstat) and comes back as the run's platform, not as the
// measurements' configuration.
func TestBenchfmtPlatform(t *testing.T) {
	run := sampleRun()
	var buf bytes.Buffer
	if err := WriteBenchfmt(&buf, run, BenchfmtOptions{}); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, line := range []string{"instance: ci-large", "cpus: 8", "gomaxprocs: 8", "kernel: 6.8.0-45-generic",
		"toolchain: go1.26.8", "governor: performance", "turbo: off"} {
		if !strings.Contains(text, "\n"+line+"\n") {
			t.Errorf("no configuration line %q in\n%s", line, text)
		}
	}
	for _, key := range []string{"load:", "busy:", "host:"} {
		if strings.Contains(text, "\n"+key) {
			t.Errorf("%s is a configuration line; it would split benchstat's tables:\n%s", key, text)
		}
	}

	// Without the #mbench run line, as another tool might pass the file
	// on, the configuration lines still give the platform.
	var kept []string
	for line := range strings.Lines(text) {
		if !strings.HasPrefix(line, annotationPrefix+"run ") {
			kept = append(kept, line)
		}
	}
	got, warnings, err := ReadBenchfmt(strings.NewReader(strings.Join(kept, "")), "platform.txt")
	if err != nil || len(warnings) > 0 {
		t.Fatalf("read: %v %v", err, warnings)
	}
	want := run.Platform
	// sampleRun's measurements have no cpu: line; the run record named it.
	want.Host, want.CPU, want.Load, want.Busy = "", "", nil, nil
	if !reflect.DeepEqual(got.Platform, want) {
		t.Errorf("platform from configuration lines:\n got %+v\nwant %+v", got.Platform, want)
	}
	if !reflect.DeepEqual(got.Measurements[0].Config, run.Measurements[0].Config) {
		t.Errorf("measurement configuration %v, want %v (platform keys belong to the run)", got.Measurements[0].Config, run.Measurements[0].Config)
	}
}
