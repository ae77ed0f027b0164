package main

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// TestVersion checks the structure of what 'mbench version' prints, which
// otherwise depends on how the test binary was built.
func TestVersion(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := mbench([]string{"version"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit code %d, want %d; stderr:\n%s", code, exitOK, &stderr)
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr not empty:\n%s", &stderr)
	}
	checkVersionOutput(t, stdout.String(), runtime.Version())
}

// checkVersionOutput checks that out is the three lines of 'mbench
// version', each with a value, the last naming Go release goVersion.
func checkVersionOutput(t *testing.T, out, goVersion string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 || !strings.HasSuffix(out, "\n") {
		t.Fatalf("want three lines, got %q", out)
	}
	for i, prefix := range []string{"mbench ", "revision ", "go "} {
		if v, ok := strings.CutPrefix(lines[i], prefix); !ok || strings.TrimSpace(v) == "" {
			t.Errorf("line %d is %q, want %q and a value", i+1, lines[i], prefix+"...")
		}
	}
	if want := "go " + goVersion + " " + runtime.GOOS + "/" + runtime.GOARCH; lines[2] != want {
		t.Errorf("line 3 is %q, want %q", lines[2], want)
	}
}

func TestVersionArguments(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := mbench([]string{"version", "extra"}, &stdout, &stderr); code != exitUsage {
		t.Errorf("exit code %d, want %d", code, exitUsage)
	}
	if stdout.Len() > 0 {
		t.Errorf("stdout not empty:\n%s", &stdout)
	}
}
