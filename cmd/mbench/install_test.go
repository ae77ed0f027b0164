package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestInstall follows the README's set-up for a team that pins mbench as a
// tool of its module: go get -tool, then go tool mbench. The scratch module
// requires mbench through a replace directive pointing at this checkout,
// and holds a copy of mbench's go.sum, so the go command checks every
// dependency against sums it already has.
//
// The go command runs with the module proxy off (GOPROXY=off), from the
// local module cache: building this test has put every module mbench
// needs there. With a proxy, go get also asks it whether
// github.com/mbench/mbench/cmd/mbench is a module of its own; a proxy
// that answers 403 rather than 404 for an unknown module (as
// restricted networks do) makes that question, and the test, fail.
func TestInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mbench as a tool of a scratch module; skipped under -short")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go command not found: %v", err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(mod, []byte("module github.com/mbench/mbench\n")) {
		t.Fatalf("%s is not the root of module github.com/mbench/mbench", root)
	}
	goLine := regexp.MustCompile(`(?m)^go \S+$`).Find(mod)
	if goLine == nil {
		t.Fatalf("%s/go.mod has no go directive", root)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	scratch := "module example.com/scratch\n\n" + string(goLine) + "\n\n" +
		"require github.com/mbench/mbench v0.0.0-00010101000000-000000000000\n\n" +
		"replace github.com/mbench/mbench => " + root + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(scratch), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o666); err != nil {
		t.Fatal(err)
	}
	goRun := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = dir
		// The caches come from the environment; GOTOOLCHAIN=local
		// keeps the go command from fetching another Go, and
		// GOWORK=off from any workspace around the directory.
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, &stderr)
		}
		return stdout.String()
	}

	goRun("get", "-tool", "github.com/mbench/mbench/cmd/mbench")
	got, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^tool github.com/mbench/mbench/cmd/mbench$`).Match(got) {
		t.Errorf("go get -tool did not add the tool directive:\n%s", got)
	}

	out := goRun("tool", "mbench", "version")
	goVersion := strings.TrimSpace(goRun("env", "GOVERSION"))
	checkVersionOutput(t, out, goVersion)
	if first, _, _ := strings.Cut(out, "\n"); !strings.Contains(first, " => "+root) {
		t.Errorf("first line %q does not name the replacement %s", first, root)
	}
}
