package run

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckBinary checks what mbench doctor says of files that are test
// binaries and of files that are not: each named, with what could not be
// checked.
func TestCheckBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the fixture and two programs")
	}
	test, err := fixtureBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write("go.mod", "module example.com/prog\n\ngo 1.22\n", 0o666)
	write("main.go", "package main\n\nfunc main() {}\n", 0o666)
	build := func(out string, flags ...string) string {
		args := append(append([]string{"build", "-o", out}, flags...), ".")
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %v: %v\n%s", args, err, b)
		}
		return filepath.Join(dir, out)
	}
	prog, stripped := build("prog"), build("stripped", "-ldflags=-s")
	exe, err := os.ReadFile(test.Path)
	if err != nil {
		t.Fatal(err)
	}
	noexec := write("noexec.test", string(exe), 0o644)
	text := write("passwd", "root:x:0:0:root:/root:/bin/sh\n", 0o644)

	for _, tc := range []struct {
		name, path         string
		problem, unchecked string // "" for none
	}{
		{"test binary", test.Path, "", ""},
		{"text", text, "not a Go test binary: not an executable file", "how it was built"},
		{"directory", dir, "a directory, not a Go test binary", ""},
		{"device", os.DevNull, "not a regular file", ""},
		{"program", prog, "not a Go test binary: a Go program (example.com/prog) without the testing package's main", ""},
		{"stripped program", stripped, "", "whether it is a test binary: its main package, example.com/prog, is not a test's, and it has no symbol table"},
		{"not executable", noexec, "not executable (its mode is -rw-r--r--; chmod +x)", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := CheckBinary(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			check := func(what string, got []string, want string) {
				if want == "" {
					if len(got) > 0 {
						t.Errorf("%s %q, want none", what, got)
					}
					return
				}
				if len(got) != 1 || !strings.HasPrefix(got[0], tc.path+": ") || !strings.Contains(got[0], want) {
					t.Errorf("%s %q, want one naming %s and saying %q", what, got, tc.path, want)
				}
			}
			check("problems", c.Problems, tc.problem)
			check("unchecked", c.Unchecked, tc.unchecked)
		})
	}
	if _, err := CheckBinary(filepath.Join(dir, "nope.test")); !os.IsNotExist(err) {
		t.Errorf("CheckBinary of a missing file: %v, want it not to exist", err)
	}
	// An executable of another language has no Go build information.
	if _, err := os.Stat("/bin/sh"); err == nil {
		c, _ := CheckBinary("/bin/sh")
		if len(c.Problems) != 1 || !strings.Contains(c.Problems[0], "an executable without Go build information") {
			t.Errorf("/bin/sh: problems %q", c.Problems)
		}
	}
}
