package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestGenInterrupted interrupts mbench gen while the package's tests run
// for recording: it exits 1 saying so, claims no benchmark generated,
// writes nothing into the package, and leaves no temporary file.
func TestGenInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mbench and runs the go command")
	}
	exe := buildMbench(t)
	root := t.TempDir()
	dir := filepath.Join(root, "m")
	ready := filepath.Join(root, "ready")
	scratch := filepath.Join(root, "tmp")
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.24\n",
		"m.go":   "package m\n\nfunc Twice(x int) int {\n\ty := 0\n\t//mbench:bench Twice\n\ty = 2 * x\n\treturn y\n}\n",
		"m_test.go": `package m

import (
	"os"
	"testing"
	"time"
)

func TestBlocks(t *testing.T) {
	Twice(3)
	os.WriteFile(os.Getenv("MBENCH_TEST_READY"), nil, 0o666)
	time.Sleep(time.Hour)
}
`,
	}
	for name, content := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(scratch, 0o777); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "gen", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOTMPDIR=", "TMPDIR="+scratch, "MBENCH_TEST_READY="+ready)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// Wait for the tests to run, not for a time; the deadline only
	// guards against a hang.
	for deadline := time.Now().Add(5 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the tests did not start in 5 minutes\n%s", &out)
		}
		select {
		case err := <-exited:
			t.Fatalf("mbench gen ended before the interrupt: %v\n%s", err, &out)
		default:
		}
		if _, err := os.Stat(ready); err == nil {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := <-exited
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitError {
		t.Errorf("interrupted gen: %v, want exit %d\n%s", err, exitError, &out)
	}
	if !strings.Contains(out.String(), "interrupted") || strings.Contains(out.String(), "generated") {
		t.Errorf("interrupted gen says:\n%s\nwant that it was interrupted, and no segment generated", &out)
	}
	var left []string
	for _, d := range []string{dir, scratch} {
		filepath.Walk(d, func(path string, info os.FileInfo, err error) error {
			rel, _ := filepath.Rel(d, path)
			if err == nil && !info.IsDir() && files[rel] == "" {
				left = append(left, path)
			}
			return nil
		})
	}
	if len(left) > 0 {
		t.Errorf("interrupted gen left %s", strings.Join(left, ", "))
	}
}
