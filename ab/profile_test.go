package ab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/mbench/mbench/profdiff"
	"github.com/mbench/mbench/run"
)

// profiledVersions builds testdata/profiled without and with the tag
// "slower", with the probe, and finds their benchmarks by name.
var profiledVersions = sync.OnceValues(func() ([2]map[string]run.Target, error) {
	dir, _ := filepath.Abs("testdata/profiled")
	var out [2]map[string]run.Target
	cache, err := makeBuildCache()
	if err != nil {
		return out, err
	}
	for i, tags := range []string{"", "slower"} {
		bins, err := run.BuildProbed(context.Background(), run.BuildOptions{Dir: dir, Tags: tags, CacheDir: cache}, []string{"."})
		if err != nil {
			return out, err
		}
		ts, err := run.Discover(context.Background(), &bins[0], ".", []int{1}, nil, time.Minute)
		if err != nil {
			return out, err
		}
		out[i] = map[string]run.Target{}
		for _, t := range ts {
			out[i][t.Key.Name] = t
		}
		for _, name := range []string{"Process", "Exit"} {
			if _, ok := out[i][name]; !ok {
				return out, fmt.Errorf("tags %q: no benchmark %s in %v", tags, name, ts)
			}
		}
	}
	return out, nil
})

// testProfileConfig profiles 4 processes of each version of 400 samples,
// at most 3s each, the profiles kept in a temporary directory.
func testProfileConfig(t *testing.T) ProfileConfig {
	pc := DefaultProfileConfig
	pc.Processes, pc.Samples, pc.MaxTime, pc.Dir = 4, 400, 3*time.Second, t.TempDir()
	return pc
}

// TestProfileNamesTheChangedFunction profiles a benchmark whose new
// version does three times the work in validate and checks that validate
// is named first, and that the merged profiles are kept where the printed
// pprof command finds them.
func TestProfileNamesTheChangedFunction(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles real processes for seconds")
	}
	vs, err := profiledVersions()
	if err != nil {
		t.Fatal(err)
	}
	old, new := vs[0]["Process"], vs[1]["Process"]
	ctx := context.Background()
	_, m, err := run.CalibrateWarm(ctx, &old, 50*time.Millisecond, false, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	sec, _ := m.Get("sec/op")
	pc := testProfileConfig(t)
	w := profileBenchmark(ctx, pc, &old, &new, true, sec, false, time.Minute)
	if w.Err != nil {
		t.Fatal(w.Err)
	}
	named := w.CPU.Named()
	if len(named) == 0 || named[0].Func != "example.com/profiled.validate" {
		t.Fatalf("named %v, want example.com/profiled.validate first", funcNames(named))
	}
	// The unchanged parse may be named too: on a loaded machine, or
	// laid out anew in the new binary, its time can move by a tenth
	// (the synthetic tests of package profdiff check that unchanged
	// functions are not named). It cannot come first.
	if w.PilotSamples == 0 || w.Ops < 2 || w.CPU.OldProcesses != 4 || w.CPU.NewProcesses != 4 {
		t.Errorf("pilot %d samples, %d ops, %d+%d processes", w.PilotSamples, w.Ops, w.CPU.OldProcesses, w.CPU.NewProcesses)
	}
	if len(w.Files) != 2 || !strings.Contains(w.Pprof(), "-diff_base "+w.Files[0]+" "+w.Files[1]) {
		t.Fatalf("files %q, command %q", w.Files, w.Pprof())
	}
	for _, f := range w.Files {
		if filepath.Dir(f) != pc.Dir || !strings.HasPrefix(filepath.Base(f), "profiled.Process.") {
			t.Errorf("profile kept as %s, want profiled.Process.* in %s", f, pc.Dir)
		}
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		_, err = profile.Parse(r)
		r.Close()
		if err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestProfileFaults: a version that exits early is named, with its
// output; a profile that does not parse is named.
func TestProfileFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles real processes")
	}
	vs, err := profiledVersions()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PROFILED_EXIT", "1")
	old, new := vs[0]["Exit"], vs[1]["Exit"]
	pc := testProfileConfig(t)
	pc.Samples, pc.Processes = 50, 2
	w := profileBenchmark(context.Background(), pc, &old, &new, true, 1e-6, false, time.Minute)
	if w.Err == nil || !strings.Contains(w.Err.Error(), "new process 1: exit status 3") || !strings.Contains(w.Err.Error(), "new: 0 of 2 processes gave a profile") ||
		strings.Contains(w.Err.Error(), "cpu profile rate") {
		t.Errorf("a new version that exits: %v", w.Err)
	}
	if w.CPU != nil || len(w.Files) > 0 {
		t.Errorf("a diff without the new version: %v, files %q", w.CPU, w.Files)
	}

	bad := filepath.Join(t.TempDir(), "bad.pb.gz")
	os.WriteFile(bad, []byte("not a profile"), 0o666)
	if _, err := readProfile(bad); err == nil || !strings.Contains(err.Error(), "bad.pb.gz") {
		t.Errorf("a profile that does not parse: %v", err)
	}
	if _, err := readProfile(filepath.Join(t.TempDir(), "none")); err == nil || !strings.Contains(err.Error(), "no profile written") {
		t.Errorf("no profile: %v", err)
	}
}

func funcNames(rows []profdiff.Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Func)
	}
	return out
}
