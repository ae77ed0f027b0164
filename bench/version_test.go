package bench

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// abRun is a run that measured two versions of one benchmark interleaved,
// round by round, as an A/B session does: the same key, suite runs and fork
// numbers for both, told apart only by Coord.Version.
func abRun() *Run {
	run := sampleRun()
	run.Settings = map[string]string{"mode": "ab"}
	var ms []Measurement
	for _, m := range run.Measurements {
		for _, v := range []string{"old", "new"} {
			m := m
			m.Coord.Version = v
			m.Values = slices.Clone(m.Values)
			if v == "new" {
				// As the text format's reader tidies ns/op.
				m.Values[0].OrigValue += 150
				m.Values[0].Value = m.Values[0].OrigValue * 1e-9
			}
			ms = append(ms, m)
		}
	}
	run.Measurements = ms
	return run
}

func TestForkIDHasVersion(t *testing.T) {
	c := Coord{Version: "old", Instance: "ci-7", SuiteRun: 1, Fork: 2, Iteration: 3, Phase: Warmup}
	d := c
	d.Version, d.Iteration = "new", 0
	if c.ForkID() == d.ForkID() {
		t.Errorf("forks of versions old and new with equal numbers share ForkID %+v", c.ForkID())
	}
	d.Version = "old"
	if c.ForkID() != d.ForkID() {
		t.Errorf("iterations of one fork have ForkIDs %+v and %+v", c.ForkID(), d.ForkID())
	}
}

// TestSamplesKeepVersionsApart checks that the forks of two versions with
// equal fork numbers are not merged into one fork.
func TestSamplesKeepVersionsApart(t *testing.T) {
	run := abRun()
	s := run.Samples("sec/op")[run.Measurements[0].Key]
	if s == nil || len(s.Forks) != 4 {
		t.Fatalf("got %d forks, want 2 per version: %+v", len(s.Forks), s)
	}
	for i, f := range s.Forks {
		if len(f) != 2 {
			t.Errorf("fork %+v has %d measurement iterations, want 2", s.IDs[i], len(f))
		}
	}
}

func TestVersions(t *testing.T) {
	run := abRun()
	if got, want := run.Versions(), []string{"old", "new"}; !slices.Equal(got, want) {
		t.Errorf("Versions() = %q, want %q", got, want)
	}
	given := abRun()
	given.Settings = map[string]string{SettingVersions: `["new","old"]`}
	if got, want := given.Versions(), []string{"new", "old"}; !slices.Equal(got, want) {
		t.Errorf("Versions() with %s %s = %q, want %q", SettingVersions, given.Settings[SettingVersions], got, want)
	}
	if got := sampleRun().Versions(); !slices.Equal(got, []string{""}) {
		t.Errorf("Versions() of a run of one version = %q, want [\"\"]", got)
	}
	if got := new(Run).Versions(); got != nil {
		t.Errorf("Versions() of an empty run = %q, want none", got)
	}

	total := 0
	for _, v := range run.Versions() {
		part := run.Version(v)
		if part.Label != v {
			t.Errorf("Version(%q).Label = %q", v, part.Label)
		}
		if part.ID != run.ID || part.Commit != run.Commit || !reflect.DeepEqual(part.Settings, run.Settings) || !reflect.DeepEqual(part.Units, run.Units) {
			t.Errorf("Version(%q) lost the run's metadata: %+v", v, part)
		}
		if len(part.Measurements) != 6 {
			t.Errorf("Version(%q) has %d measurements, want 6", v, len(part.Measurements))
		}
		var want []Measurement
		for _, m := range run.Measurements {
			if m.Coord.Version == v {
				want = append(want, m)
			}
		}
		if !reflect.DeepEqual(part.Measurements, want) {
			t.Errorf("Version(%q) measurements are not the version's, in order", v)
		}
		total += len(part.Measurements)
	}
	if total != len(run.Measurements) {
		t.Errorf("the versions hold %d of %d measurements", total, len(run.Measurements))
	}
	if n := len(run.Version("other").Measurements); n != 0 {
		t.Errorf("Version of an unknown label has %d measurements", n)
	}
	if len(run.Measurements) != 12 || run.Label != "main" {
		t.Errorf("Version changed the run it split: label %q, %d measurements", run.Label, len(run.Measurements))
	}
	one := sampleRun()
	if part := one.Version(""); part.Label != "main" || len(part.Measurements) != len(one.Measurements) {
		t.Errorf("Version(\"\") of a run of one version: label %q, %d of %d measurements", part.Label, len(part.Measurements), len(one.Measurements))
	}
}

func TestJSONVersion(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, sampleRun()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), `"version"`) {
		t.Errorf("a run of one version writes a version field:\n%s", &buf)
	}

	run := abRun()
	buf.Reset()
	if err := WriteJSON(&buf, run); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), `"version":"new"`); n != 6 {
		t.Errorf("%d records carry version new, want 6:\n%s", n, &buf)
	}
	got, warnings, err := Read(&buf, "ab.json")
	if err != nil || len(warnings) > 0 {
		t.Fatalf("read back: %v %v", err, warnings)
	}
	if !reflect.DeepEqual(got, run) {
		t.Errorf("JSON round trip of an A/B run differs:\n got %+v\nwant %+v", got, run)
	}
}

func TestBenchfmtVersion(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteBenchfmt(&buf, sampleRun(), BenchfmtOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "version") {
		t.Errorf("a run of one version writes a version:\n%s", &buf)
	}

	run := withoutTimes(abRun())
	buf.Reset()
	if err := WriteBenchfmt(&buf, run, BenchfmtOptions{Warmup: true}); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	// The results alternate between the versions, so every result line
	// follows a configuration line naming its version.
	if n := strings.Count(text, "\nversion: old\n"); n != 6 {
		t.Errorf("%d configuration lines name version old, want 6:\n%s", n, text)
	}
	if !strings.Contains(text, `#mbench coord {"version":"new","instance":"ci-7"`) {
		t.Errorf("the coordinates do not carry the version:\n%s", text)
	}
	got, warnings, err := Read(&buf, "ab.txt")
	if err != nil || len(warnings) > 0 {
		t.Fatalf("read back: %v %v", err, warnings)
	}
	if !reflect.DeepEqual(got, run) {
		t.Errorf("text round trip of an A/B run differs:\n got %+v\nwant %+v", got, run)
	}
}

// TestBenchfmtVersionKey reads a version from the configuration key alone,
// as in a file that was not written by mbench, and checks that a result
// without the key has no version.
func TestBenchfmtVersionKey(t *testing.T) {
	const text = `goos: linux
version: v1.2.0
BenchmarkX-2   10   100 ns/op
BenchmarkX-2   10   101 ns/op
version: v1.3.0
BenchmarkX-2   10   90 ns/op
version:
BenchmarkX-2   10   95 ns/op
`
	run, warnings, err := ReadBenchfmt(strings.NewReader(text), "v.txt")
	if err != nil || len(warnings) > 0 {
		t.Fatalf("%v %v", err, warnings)
	}
	var got []string
	var iters []int
	for _, m := range run.Measurements {
		got = append(got, m.Coord.Version)
		iters = append(iters, m.Coord.Iteration)
		if !reflect.DeepEqual(m.Config, []Config{{"goos", "linux"}}) {
			t.Errorf("configuration %v, want goos alone", m.Config)
		}
	}
	if want := []string{"v1.2.0", "v1.2.0", "v1.3.0", ""}; !slices.Equal(got, want) {
		t.Errorf("versions %q, want %q", got, want)
	}
	// Iterations are counted per version, as each is its own process.
	if want := []int{0, 1, 0, 0}; !slices.Equal(iters, want) {
		t.Errorf("iterations %v, want %v", iters, want)
	}
	if got := run.Versions(); !slices.Equal(got, []string{"v1.2.0", "v1.3.0", ""}) {
		t.Errorf("Versions() = %q", got)
	}
}
