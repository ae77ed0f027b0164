package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/store"
)

// buildMbench builds the command into a temporary directory.
func buildMbench(t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "mbench")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("building mbench: %v\n%s", err, out)
	}
	return exe
}

func fixtureDir(t *testing.T) string {
	dir, err := filepath.Abs("../../run/testdata/fixture")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// procsSuffix is the -N suffix of the benchmark names the fixture prints:
// its GOMAXPROCS, which it inherits from the environment (GOMAXPROCS, CPU
// affinity) as this test does, and none at 1.
func procsSuffix() string {
	if n := runtime.GOMAXPROCS(0); n > 1 {
		return "-" + strconv.Itoa(n)
	}
	return ""
}

// storedCount returns the measurements of the newest run in db and its status.
func storedCount(t *testing.T, db string) (int, string) {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.Runs()
	if err != nil || len(runs) == 0 {
		return 0, ""
	}
	return runs[0].Measurements, runs[0].Status
}

// TestRunKilled interrupts and kills mbench run mid-suite: every iteration
// stored before the signal must still be there after it.
func TestRunKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs benchmarks")
	}
	exe := buildMbench(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "m.db")
			jsonOut := filepath.Join(t.TempDir(), "m.json")
			cmd := exec.Command(exe, "run", "-db", db, "-json", jsonOut, "-criterion", "static",
				"-iter", "10ms", "-wi-max", "1", "-mi", "3", "-f-min", "40", "-f-max", "40", "-bench", "Sum|Loop", "./...")
			cmd.Dir = fixtureDir(t)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(2 * time.Minute)
			seen := 0
			for seen < 20 {
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatalf("no progress: %d measurements stored\n%s", seen, &stderr)
				}
				time.Sleep(100 * time.Millisecond)
				if _, err := os.Stat(db); err == nil {
					seen, _ = storedCount(t, db)
				}
			}
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			if err == nil {
				t.Fatalf("mbench run exited 0 after %v", sig)
			}
			got, status := storedCount(t, db)
			if got < seen {
				t.Errorf("%d measurements stored after %v, %d before", got, sig, seen)
			}
			wantStatus := map[syscall.Signal]string{syscall.SIGINT: "interrupted", syscall.SIGKILL: "interrupted"}[sig]
			if status != wantStatus {
				t.Errorf("run status %q, want %q", status, wantStatus)
			}
			// The JSON stream is flushed after each measurement too.
			run, _, err := bench.ReadFile(jsonOut)
			if err != nil {
				t.Fatal(err)
			}
			if len(run.Measurements) < seen {
				t.Errorf("JSON stream holds %d measurements, %d were stored before the signal", len(run.Measurements), seen)
			}
			if sig == syscall.SIGINT {
				if !strings.Contains(stderr.String(), "interrupted; every finished iteration is kept") {
					t.Errorf("stderr does not say the run was interrupted:\n%s", &stderr)
				}
				if !strings.Contains(stdout.String(), "\nSum"+procsSuffix()+" ") {
					t.Errorf("no partial summary on stdout:\n%s", &stdout)
				}
			}
		})
	}
}

// TestRunFixture runs the fixture module end to end with the default
// criterion, the -o and -json outputs, and reads them back.
func TestRunFixture(t *testing.T) {
	if testing.Short() {
		t.Skip("runs benchmarks")
	}
	exe := buildMbench(t)
	tmp := t.TempDir()
	db, txt, js := filepath.Join(tmp, "m.db"), filepath.Join(tmp, "m.txt"), filepath.Join(tmp, "m.json")
	cmd := exec.Command(exe, "run", "-db", db, "-o", txt, "-json", js, "-label", "fx", "-iter", "10ms", "-benchmem", "-bench", "Sum|Join")
	cmd.Dir = fixtureDir(t)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mbench run: %v\n%s", err, out)
	}
	sfx := procsSuffix()
	for _, want := range []string{"os: linux", "cpu:", "go: go1", "\nJoin/n=10" + sfx + " ", "\nJoin/n=100" + sfx + " ", "\nSum" + sfx + " ", "99% CI", "deciding when to stop took"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	fromText, _, err := bench.ReadFile(txt)
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, _, err := bench.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	// Packages are one version: no version anywhere.
	if got := fromJSON.Versions(); !slices.Equal(got, []string{""}) || bytes.Contains(out, []byte("version:")) {
		t.Errorf("a run of one version has versions %q:\n%s", got, out)
	}
	measured := 0
	for _, m := range fromJSON.Measurements {
		if m.Coord.Phase == bench.Measure {
			measured++
		}
	}
	if len(fromText.Measurements) != measured || measured == 0 {
		t.Errorf("-o holds %d iterations, -json %d measurement iterations", len(fromText.Measurements), measured)
	}
	n, status := storedCount(t, db)
	if n != len(fromJSON.Measurements) || status != "complete" {
		t.Errorf("database: %d measurements, status %q; JSON has %d", n, status, len(fromJSON.Measurements))
	}
	// The stored run compares with itself by label: no change anywhere.
	var stdout, stderr bytes.Buffer
	if code := mbench([]string{"compare", "-db", db, "a=fx", "b=" + txt}, &stdout, &stderr); code != 0 {
		t.Fatalf("compare by label: exit %d\n%s", code, &stderr)
	}
	if !strings.Contains(stdout.String(), "\nsec/op: 0 slower, 0 faster, ") || strings.Count(stdout.String(), "slower") != 1 || strings.Count(stdout.String(), "faster") != 1 {
		t.Errorf("a run compared with its own export changed:\n%s", &stdout)
	}
}

// TestRunVersions runs two labelled test binaries, as
// 'mbench run old=old.test new=new.test' does: the summary must have a table
// per version, and the export must keep the versions apart. That every
// measurement carries its version is run's TestJobVersions.
func TestRunVersions(t *testing.T) {
	if testing.Short() {
		t.Skip("runs benchmarks")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "fixture.test")
	build := exec.Command("go", "test", "-c", "-o", bin, ".")
	build.Dir = fixtureDir(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the fixture: %v\n%s", err, out)
	}
	db := filepath.Join(tmp, "m.db")
	var stdout, stderr bytes.Buffer
	args := []string{"run", "-db", db, "-label", "ab", "-criterion", "static",
		"-iter", "5ms", "-wi-max", "1", "-mi", "2", "-f-min", "2", "-f-max", "2", "-bench", "Sum",
		"old=" + bin, "new=" + bin}
	if code := mbench(args, &stdout, &stderr); code != 0 {
		t.Fatalf("mbench run: exit %d\n%s\n%s", code, &stdout, &stderr)
	}
	out := stdout.String()
	if !strings.Contains(out, "(label ab, versions old, new)") {
		t.Errorf("the run's header does not name the versions:\n%s", out)
	}
	iOld, iNew := strings.Index(out, "\nversion: old\nbenchmark "), strings.Index(out, "\n\nversion: new\nbenchmark ")
	if iOld < 0 || iNew < iOld {
		t.Errorf("no table for version old followed by one for new:\n%s", out)
	}
	if n := strings.Count(out, "\nSum"); n != 2 {
		t.Errorf("Sum has %d rows, want one per version:\n%s", n, out)
	}
	var exported bytes.Buffer
	if code := mbench([]string{"export", "-db", db, "ab"}, &exported, &stderr); code != 0 {
		t.Fatalf("mbench export: exit %d\n%s", code, &stderr)
	}
	r, _, err := bench.Read(&exported, "export")
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Versions(); !slices.Equal(got, []string{"old", "new"}) && !slices.Equal(got, []string{"new", "old"}) {
		t.Errorf("exported versions %q, want old and new", got)
	}
}

// TestRunBadFlags gives mbench run flags out of range: each is a usage
// error (exit 2) that names the flag, found before anything is built or
// allocated for it.
func TestRunBadFlags(t *testing.T) {
	for _, tc := range []struct{ args, flag string }{
		{"-cpuset 0-99999999", "-cpuset"},
		{"-cpuset 99999999999999999999", "-cpuset"},
		{"-cpu 0", "-cpu"},
		{"-cpu 1-100000000", "-cpu"},
		{"-f-min 0", "-f-min"},
		{"-f-max -1", "-f-min"},
		{"-wi-min -1", "-wi-min"},
		{"-mi 0", "-mi"},
		{"-iter 0s", "-iter"},
		{"-window 0", "-window"},
		{"-cv-threshold NaN", "-cv-threshold"},
		{"-rciw-threshold Inf", "-rciw-threshold"},
		{"-kld-threshold NaN", "-kld-threshold"},
		{"-criterion kld -kld-threshold 2", "-kld-threshold"},
		{"-criterion vibes", "-criterion"},
		{"-timeout -1s", "-timeout"},
		{"-rmit-min 0", "-rmit-min"},
		{"-levels 1,2", "-levels"},
		{"-levels 1,2,3 -plan p.json", "-levels and -plan"},
	} {
		t.Run(tc.args, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append(append([]string{"run"}, strings.Fields(tc.args)...), "nope.test")
			if code := mbench(args, &stdout, &stderr); code != exitUsage {
				t.Errorf("exit %d, want %d\n%s", code, exitUsage, &stderr)
			}
			if first, _, _ := strings.Cut(stderr.String(), "\n"); !strings.Contains(first, tc.flag) {
				t.Errorf("the error does not name %s:\n%s", tc.flag, &stderr)
			}
		})
	}
}

// TestRunBuildFails: a run whose packages do not build creates nothing,
// neither the store nor its directory nor the -json stream.
func TestRunBuildFails(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":    "module broken\n\ngo 1.24\n",
		"x_test.go": "package broken\n\nimport \"testing\"\n\nfunc BenchmarkX(b *testing.B) { undefined() }\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	args := []string{"run", "-db", filepath.Join("results", "m.db"), "-json", "out.jsonl", "-o", "out.txt", "."}
	if code := mbench(args, &stdout, &stderr); code != exitError {
		t.Fatalf("exit %d, want %d\n%s", code, exitError, &stderr)
	}
	if !strings.Contains(stderr.String(), "undefined") {
		t.Errorf("stderr does not show the build's error:\n%s", &stderr)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := files[e.Name()]; !ok {
			t.Errorf("the failed run left %s in its directory", e.Name())
		}
	}
}

// TestInterrupts drives the interrupt handler: the first signal cancels,
// the second exits at once, and none after stop.
func TestInterrupts(t *testing.T) {
	sigs, done := make(chan os.Signal), make(chan struct{})
	cancelled, exited := make(chan bool, 1), make(chan bool, 1)
	returned := make(chan bool)
	go func() {
		handleInterrupts(sigs, done, func() { cancelled <- true }, func() { exited <- true })
		returned <- true
	}()
	sigs <- os.Interrupt
	<-cancelled
	select {
	case <-exited:
		t.Fatal("the first interrupt exited")
	default:
	}
	sigs <- os.Interrupt
	<-exited
	<-returned

	go func() {
		handleInterrupts(sigs, done, func() { cancelled <- true }, func() { exited <- true })
		returned <- true
	}()
	close(done)
	<-returned
	if len(cancelled)+len(exited) > 0 {
		t.Error("the handler acted after stop")
	}
}
