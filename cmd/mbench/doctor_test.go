package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/mbench/mbench/run"
)

// TestDoctorNoise runs mbench doctor -noise for a moment and checks the
// structure of what it prints and keeps, not the values it measured: a
// paragraph per CPU the process may run on, the correlation between CPUs
// when there are several, advice, and noise.json beside the database.
func TestDoctorNoise(t *testing.T) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "results")
	var stdout, stderr bytes.Buffer
	args := []string{"doctor", "-noise", "-noise-time", "200ms", "-db", filepath.Join(dir, "m.db")}
	if code := mbench(args, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, &stdout, &stderr)
	}
	out := stdout.String()
	var cpus []string
	for c := range 1024 {
		if set.IsSet(c) {
			cpus = append(cpus, regexp.QuoteMeta("cpu"+strconv.Itoa(c)))
		}
	}
	number := `[0-9.]+ (?:s|ms|µs)`
	cpu := `(?:` + strings.Join(cpus, "|") + `): \d+ chunks, baseline ` + number + ` \(10th percentile\), median ` + number + `\n` +
		`(?:  quiet: [0-9.]+% of chunks slow \(over 1\.10 × baseline\)\n` +
		`|  slow in [0-9.]+% of chunks \(over 1\.10 × baseline\), by ×[0-9.]+ \(median of the slow chunks\)\n` +
		`  in (?:1 phase of ` + number + `|\d+ phases of ` + number + ` \(longest ` + number + `\)): runs of consecutive slow chunks\n)` +
		`  lag-1 autocorrelation [+-][0-9.]+: a chunk's time [^\n]+\n`
	between := ``
	if len(cpus) > 1 {
		between = `\nbetween CPUs: r=[+-][0-9.]+[^\n]* \(mean chunk times in 10 ms bins\)\n`
	}
	want := regexp.MustCompile(`^noise of CPUs [0-9,-]+, measured for ` + number + ` on all of them at once \(chunks of \d+ steps of fixed work, about 1 ms each\):\n\n` +
		`(?:` + cpu + `){` + strconv.Itoa(len(cpus)) + `}` + between +
		`\n(?:The machine is quiet: [^\n]+|Slow phases last up to ` + number + `: [^\n]+)\n$`)
	if !want.MatchString(out) {
		t.Errorf("stdout is not the noise of %d CPUs:\n%s\nwant it to match\n%s", len(cpus), out, want)
	}
	if !strings.Contains(stderr.String(), "mbench: measuring the noise on every CPU for 200ms\n") ||
		!strings.Contains(stderr.String(), filepath.Join(dir, run.NoiseFile)) {
		t.Errorf("stderr does not say what is measured and where it is kept:\n%s", &stderr)
	}
	n, err := run.LoadNoise(dir)
	if err != nil || n == nil {
		t.Fatalf("LoadNoise: %v, %v", n, err)
	}
	if len(n.CPUs) != len(cpus) || n.Traces != nil || n.Start.IsZero() {
		t.Errorf("kept noise of %d CPUs (want %d), %d traces (want none), start %v", len(n.CPUs), len(cpus), len(n.Traces), n.Start)
	}
}

// TestDoctorNoiseUsage checks that doctor's noise flags, misused, are
// usage errors (exit 2) naming the flag, before anything is measured or
// kept.
func TestDoctorNoiseUsage(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "m.db")
	for _, tc := range []struct {
		args string
		flag string
	}{
		{"-noise -noise-time 0", "-noise-time"},
		{"-noise -noise-time -1s", "-noise-time"},
		{"-noise -noise-time 11m", "-noise-time"},
		{"-noise-time 1s", "-noise-time"},
		{"-noise fake.test", "-noise"},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"doctor", "-db", db}, strings.Fields(tc.args)...)
		code := mbench(args, &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), "mbench doctor: "+tc.flag+" ") {
			t.Errorf("mbench doctor %s: exit %d, want %d naming %s\n%s", tc.args, code, exitUsage, tc.flag, &stderr)
		}
		if stdout.Len() > 0 {
			t.Errorf("mbench doctor %s: printed %q", tc.args, &stdout)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("misused flags left %v behind", entries)
	}
}

func TestNoiseDir(t *testing.T) {
	for _, tc := range []struct{ db, want string }{
		{".mbench/mbench.db", ".mbench"},
		{"ci/shard2.db", "ci"},
		{"postgres://ci@db.example/bench", ".mbench"},
	} {
		if got := noiseDir(tc.db); got != tc.want {
			t.Errorf("noiseDir(%q) = %q, want %q", tc.db, got, tc.want)
		}
	}
}
