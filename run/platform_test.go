package run

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
)

// TestTurbo fakes the kernel's CPU frequency files of intel_pstate and of
// the generic cpufreq boost switch, whose 1s mean opposite things.
func TestTurbo(t *testing.T) {
	for _, tc := range []struct {
		files map[string]string
		want  string
	}{
		{nil, ""},
		{map[string]string{"intel_pstate/no_turbo": "0\n"}, "on"},
		{map[string]string{"intel_pstate/no_turbo": "1\n"}, "off"},
		{map[string]string{"cpufreq/boost": "1\n"}, "on"},
		{map[string]string{"cpufreq/boost": "0\n"}, "off"},
		{map[string]string{"cpufreq/boost": "maybe\n"}, ""},
		// intel_pstate decides when both are there.
		{map[string]string{"intel_pstate/no_turbo": "1\n", "cpufreq/boost": "1\n"}, "off"},
	} {
		dir := t.TempDir()
		for name, content := range tc.files {
			path := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(content), 0o666); err != nil {
				t.Fatal(err)
			}
		}
		if got := turbo(dir); got != tc.want {
			t.Errorf("turbo with %v = %q, want %q", tc.files, got, tc.want)
		}
	}
}

// TestGovernor fakes the kernel's CPU frequency files: the governors of
// the CPUs, each named once in the order of the CPUs, and what Unchecked
// says when the governor or turbo cannot be read.
func TestGovernor(t *testing.T) {
	for _, tc := range []struct {
		files     map[string]string
		governor  string
		unchecked []string
	}{
		{nil, "", []string{"the CPU frequency governor", "turbo"}},
		{map[string]string{"cpu0/cpufreq/scaling_governor": "performance\n", "intel_pstate/no_turbo": "1\n"}, "performance", nil},
		{map[string]string{
			"cpu10/cpufreq/scaling_governor": "schedutil\n",
			"cpu2/cpufreq/scaling_governor":  "powersave\n",
			"cpu1/cpufreq/scaling_governor":  "performance\n",
			"cpu0/cpufreq/scaling_governor":  "performance\n",
			"cpufreq/boost":                  "1\n",
		}, "performance/powersave/schedutil", nil},
		// A CPU without cpufreq (offline, or a VM) is skipped.
		{map[string]string{"cpu0/cpufreq/scaling_governor": "powersave\n", "cpu1/online": "0\n"}, "powersave", []string{"turbo"}},
	} {
		dir := t.TempDir()
		for name, content := range tc.files {
			path := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(content), 0o666); err != nil {
				t.Fatal(err)
			}
		}
		p := Platform{Governor: governor(dir), Turbo: turbo(dir)}
		if p.Governor != tc.governor {
			t.Errorf("governor with %v = %q, want %q", tc.files, p.Governor, tc.governor)
		}
		var got []string
		for _, u := range p.Unchecked() {
			what, _, _ := strings.Cut(u, ":")
			got = append(got, what)
		}
		if !slices.Equal(got, tc.unchecked) {
			t.Errorf("with %v, Unchecked says %q, want %q unreadable", tc.files, p.Unchecked(), tc.unchecked)
		}
	}
}

func TestPlatformBench(t *testing.T) {
	p := Platform{OS: "linux", Arch: "amd64", Kernel: "6.8.0", CPU: "Xeon", Cores: 8, GOMAXPROCS: 4,
		Go: "go1.26.8", Governor: "performance", Turbo: "off", Load: 0.5, Busy: -1, Host: "h1"}
	b := p.Bench("")
	if b.Instance != "h1" || b.Host != "h1" {
		t.Errorf("instance %q, host %q without -instance, want both h1", b.Instance, b.Host)
	}
	if b.Load == nil || *b.Load != 0.5 || b.Busy != nil {
		t.Errorf("load %v, busy %v, want 0.5 and unknown (nil)", b.Load, b.Busy)
	}
	if b.Toolchain != "go1.26.8" || b.CPUs != 8 || b.GOMAXPROCS != 4 || b.Turbo != "off" || b.Kernel != "6.8.0" {
		t.Errorf("Bench() = %+v", b)
	}
	if b := p.Bench("ci-large"); b.Instance != "ci-large" || b.Host != "h1" {
		t.Errorf("instance %q, host %q with -instance ci-large", b.Instance, b.Host)
	}
}

// TestPrepareInstance runs a job with -instance: the stored run and every
// measurement's coordinates name the machine so, and the run keeps the
// host name beside it, and its benchmarks in the order discovery found
// them, which its random order of measurement does not keep.
func TestPrepareInstance(t *testing.T) {
	st := &memStore{}
	j := fixtureJob(t, st)
	j.Bench = "Sum|Loop"
	j.Levels = "1,1,2"
	j.Instance = "ci-large"
	ctx := context.Background()
	p, err := Prepare(ctx, j)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(ctx); err != nil {
		t.Fatal(err)
	}
	r := st.runs[0]
	host, _ := os.Hostname()
	if r.Instance != "ci-large" || r.Host != host || r.GOMAXPROCS < 1 || r.CPUs < 1 || r.Toolchain == "" {
		t.Errorf("stored platform %+v, want instance ci-large on host %s", r.Platform, host)
	}
	for _, m := range r.Measurements {
		if m.Coord.Instance != "ci-large" {
			t.Fatalf("measurement of instance %q, want ci-large", m.Coord.Instance)
		}
	}
	var want []bench.Key
	for _, tg := range p.Targets {
		want = append(want, tg.Key)
	}
	if len(want) != 2 || !slices.Equal(r.Benchmarks, want) || !slices.Equal(r.Keys(), want) {
		t.Errorf("stored benchmarks %v, keys %v, want the targets' order %v", r.Benchmarks, r.Keys(), want)
	}
}
