package browser

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// DepsScript is the script, relative to the repository's root, that
// installs Chromium: `.ci/deps chromium`.
const DepsScript = ".ci/deps"

var install struct {
	once sync.Once
	out  []byte
	err  error
}

// Require returns the path of Chromium for the test t. If [Find] finds
// none, Require runs `.ci/deps chromium` once per test binary, which
// installs it, and looks again. It skips t, naming the script, when
// Chromium is missing and cannot be installed here (no apt-get, no
// network, not root and no sudo).
func Require(t testing.TB) string {
	t.Helper()
	if path, err := Find(); err == nil {
		return path
	} else if !errors.Is(err, ErrNoChromium) || os.Getenv("MBENCH_CHROME") != "" {
		t.Fatal(err)
	}
	install.once.Do(func() {
		script, err := findScript()
		if err != nil {
			install.err = err
			return
		}
		cmd := exec.Command(script, "chromium")
		cmd.Dir = filepath.Dir(filepath.Dir(script))
		install.out, install.err = cmd.CombinedOutput()
	})
	if len(install.out) > 0 {
		t.Logf("%s chromium:\n%s", DepsScript, bytes.TrimSpace(install.out))
	}
	if install.err != nil {
		t.Skipf("Chromium is missing and %s chromium could not install it (%v): run %s chromium, or set MBENCH_CHROME", DepsScript, install.err, DepsScript)
	}
	path, err := Find()
	if err != nil {
		t.Fatalf("%s chromium installed Chromium, but: %v", DepsScript, err)
	}
	return path
}

// OpenForTest opens the file at path as [Open] does, for the test t, with
// Chromium from [Require]: it skips t if there is no Chromium and it cannot
// be installed, and fails it if the page cannot be opened. The test then
// looks at the page; typically:
//
//	page := browser.OpenForTest(t, file)
//	for _, problem := range page.Check("summary", "changes") {
//		t.Error(problem)
//	}
func OpenForTest(t testing.TB, path string) *Page {
	t.Helper()
	Require(t)
	page, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// findScript finds DepsScript in the working directory or the closest of
// its parents that has it: a test runs in its package's directory, in the
// repository.
func findScript() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		script := filepath.Join(dir, DepsScript)
		if _, err := os.Stat(script); err == nil {
			return script, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no " + DepsScript + " in the working directory or above it")
		}
		dir = parent
	}
}

// OpenWithForTest opens the file at path as [OpenWith] does, for the test
// t, with Chromium from [Require]: it skips t if there is no Chromium and
// it cannot be installed, and fails it if the page cannot be opened or look
// returns an error.
func OpenWithForTest(t testing.TB, path string, look func(*Tab) error) *Page {
	t.Helper()
	Require(t)
	page, err := OpenWith(t.Context(), path, look)
	if err != nil {
		t.Fatal(err)
	}
	return page
}
