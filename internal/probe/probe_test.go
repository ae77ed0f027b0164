package probe

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// goroot returns the GOROOT of the go command, whose testing package the
// probe patches.
func goroot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	return strings.TrimSpace(string(out))
}

func TestOverlay(t *testing.T) {
	root := goroot(t)
	dir := t.TempDir()
	replace, err := Overlay(root, dir)
	if errors.Is(err, ErrUnsupported) {
		t.Skipf("the probe does not know this toolchain: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	testing := filepath.Join(root, "src", "testing")
	for _, name := range []string{"benchmark.go", "mbench_probe_linux.go", "mbench_probe_other.go", "mbench_profile.go"} {
		path, ok := replace[filepath.Join(testing, name)]
		if !ok {
			t.Errorf("no overlay entry for %s", name)
			continue
		}
		if rel, err := filepath.Rel(dir, path); err != nil || strings.HasPrefix(rel, "..") {
			t.Errorf("%s written to %s, outside %s", name, path, dir)
		}
	}
	patched, err := os.ReadFile(replace[filepath.Join(testing, "benchmark.go")])
	if err != nil {
		t.Fatal(err)
	}
	// Every hook is in, guarded, and the patched file is gofmt-clean.
	for _, call := range []string{"abort(b)", "enter(b, n)", "started(b)", "stopped(b)", "leave(b)", "loopStarted(b)", "result(b, r)"} {
		if !bytes.Contains(patched, []byte("mbenchProbe."+call)) {
			t.Errorf("patched benchmark.go does not call mbenchProbe.%s", call)
		}
	}
	if n := bytes.Count(patched, []byte("if mbenchProbe != nil {")); n != 7 {
		t.Errorf("%d guarded hooks, want 7", n)
	}
	if formatted, err := format.Source(patched); err != nil || !bytes.Equal(formatted, patched) {
		t.Errorf("patched benchmark.go is not gofmt-clean (%v)", err)
	}
	// A second call reuses the same files.
	again, err := Overlay(root, dir)
	if err != nil || len(again) != len(replace) {
		t.Fatalf("second Overlay: %v, %v", again, err)
	}
	for k, v := range replace {
		if again[k] != v {
			t.Errorf("second Overlay wrote %s to %s, first to %s", k, again[k], v)
		}
	}
}

// TestPatchRefuses changes go1.26's benchmark.go the ways a future
// release might: the patch must refuse, naming the version and what it
// did not find.
func TestPatchRefuses(t *testing.T) {
	root := goroot(t)
	src, err := os.ReadFile(filepath.Join(root, "src", "testing", "benchmark.go"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := patch(src, "go1.26"); errors.Is(err, ErrUnsupported) {
		t.Skipf("the toolchain's testing package is not go1.26's: %v", err)
	} else if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"runN changed", "\tb.StartTimer()\n\tb.benchFunc(b)\n", "\tb.StartTimer()\n\tb.benchFunc(b) // changed\n", `anchor "b.parallelism = 1" not found`},
		{"anchor twice", "\t\t\tfmt.Fprintln(b.w, results)\n", "\t\t\tfmt.Fprintln(b.w, results)\n\t\t\tfmt.Fprintln(b.w, results)\n", "found 2 times"},
		{"new field", "\ttimerOn          bool\n", "\ttimerOn          bool\n\tlaps int\n", "type B has field laps"},
		{"field gone", "\tparallelism      int // RunParallel creates parallelism*GOMAXPROCS goroutines\n", "", "type B has no field parallelism"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			changed := strings.Replace(string(src), tc.old, tc.new, 1)
			if changed == string(src) {
				t.Fatalf("%q not in benchmark.go", tc.old)
			}
			_, err := patch([]byte(changed), "go1.99")
			var pe *PatchError
			if !errors.As(err, &pe) || !errors.Is(err, ErrUnsupported) {
				t.Fatalf("patch: %v, want a *PatchError matching ErrUnsupported", err)
			}
			if msg := err.Error(); !strings.Contains(msg, "go1.99") || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q does not name the version and %q", msg, tc.want)
			}
		})
	}
	if _, err := Overlay(t.TempDir(), t.TempDir()); err == nil || errors.Is(err, ErrUnsupported) {
		t.Errorf("Overlay of an empty GOROOT: %v, want an error reading the source", err)
	}
}

// TestProbeSourceFormatted keeps the embedded files gofmt-clean: the go
// command compiles them, but no tool in this module formats or vets them.
func TestProbeSourceFormatted(t *testing.T) {
	for name, src := range map[string][]byte{"mbench_probe_linux.go": probeLinux, "mbench_probe_other.go": probeOther, "mbench_profile.go": probeProfile} {
		if formatted, err := format.Source(src); err != nil || !bytes.Equal(formatted, src) {
			t.Errorf("_testing/%s is not gofmt-clean (%v)", name, err)
		}
	}
}

// TestProbeCompilesElsewhere builds the patched testing package for
// another operating system (the stub) and another architecture (the
// system calls).
func TestProbeCompilesElsewhere(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the standard library for other platforms")
	}
	root := goroot(t)
	replace, err := Overlay(root, t.TempDir())
	if errors.Is(err, ErrUnsupported) {
		t.Skipf("the probe does not know this toolchain: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(struct{ Replace map[string]string }{replace})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "overlay.json")
	if err := os.WriteFile(file, data, 0o666); err != nil {
		t.Fatal(err)
	}
	for _, target := range [][2]string{{"linux", "arm64"}, {"darwin", runtime.GOARCH}} {
		cmd := exec.Command("go", "build", "-overlay="+file, "testing")
		cmd.Env = append(os.Environ(), "GOOS="+target[0], "GOARCH="+target[1])
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s/%s: %v\n%s", target[0], target[1], err, out)
		}
	}
}
