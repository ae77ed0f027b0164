package browser

import (
	"bytes"
	"context"
	"errors"
	stdpng "image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestClean(t *testing.T) {
	page := OpenForTest(t, "testdata/clean.html")
	if problems := page.Check("top", "first", "second"); problems != nil {
		t.Errorf("Check: %q, want none", problems)
	}
	if page.Title != "Clean page" {
		t.Errorf("Title = %q", page.Title)
	}
	if want := []string{"top", "first", "second"}; !slices.Equal(page.IDs, want) {
		t.Errorf("IDs = %q, want %q", page.IDs, want)
	}
	// The sizes are the ones the fixture gives: attributes for the first
	// figure, a CSS width and the viewBox's aspect ratio for the second.
	// The <svg> nested in the second is part of it, not a figure.
	want := []SVG{
		{Section: "first", Label: "bars", Width: 200, Height: 100},
		{Section: "second", Label: "line", Width: 300, Height: 150},
	}
	if !slices.Equal(page.SVGs, want) {
		t.Errorf("SVGs = %+v, want %+v", page.SVGs, want)
	}
	if got := page.SVGsIn("second"); len(got) != 1 || got[0].Label != "line" {
		t.Errorf(`SVGsIn("second") = %+v`, got)
	}
	if !strings.HasPrefix(page.URL, "file:///") || !strings.HasSuffix(page.URL, "/testdata/clean.html") {
		t.Errorf("URL = %q", page.URL)
	}
}

// TestOddPath opens a file whose path needs escaping in a URL: the page
// must load, and loading it is no request.
func TestOddPath(t *testing.T) {
	html, err := os.ReadFile("testdata/clean.html")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "a dir %20")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "päge #1?.html")
	if err := os.WriteFile(file, html, 0o666); err != nil {
		t.Fatal(err)
	}
	page := OpenForTest(t, file)
	if problems := page.Check("first", "second"); problems != nil {
		t.Errorf("Check: %q, want none", problems)
	}
	if page.Title != "Clean page" {
		t.Errorf("Title = %q: not the file's", page.Title)
	}
}

func TestErrors(t *testing.T) {
	page := OpenForTest(t, "testdata/errors.html")
	if len(page.Errors) != 2 {
		t.Fatalf("Errors = %q, want the console.error and the exception", page.Errors)
	}
	for i, want := range []string{"error: drawing failed: 42", "exception: Uncaught Error: no data for the figure"} {
		if !strings.HasPrefix(page.Errors[i], want+" (file:///") || !strings.Contains(page.Errors[i], "errors.html:") {
			t.Errorf("Errors[%d] = %q, want %q at its place in errors.html", i, page.Errors[i], want)
		}
	}
	if problems := page.Check("only"); len(problems) != 2 {
		t.Errorf("Check = %q, want the two errors", problems)
	}
	if len(page.Requests) != 0 {
		t.Errorf("Requests = %q, want none", page.Requests)
	}
}

func TestExternal(t *testing.T) {
	page := OpenForTest(t, "testdata/external.html")
	got := slices.Sorted(slices.Values(page.Requests))
	want := []string{"https://example.com/logo.png", "https://example.com/style.css"}
	if !slices.Equal(got, want) {
		t.Errorf("Requests = %q, want %q (the data: image is no request)", page.Requests, want)
	}
	if problems := page.Check("pictures"); len(problems) < 2 {
		t.Errorf("Check = %q, want at least the two requests", problems)
	}
}

// TestExternalBlocked serves the external resources from a local server
// and checks that the requests are reported and that none reaches it, with
// each of the two defences alone and with both.
func TestExternalBlocked(t *testing.T) {
	Require(t)
	html, err := os.ReadFile("testdata/external.html")
	if err != nil {
		t.Fatal(err)
	}
	saved := offline
	defer func() { offline = saved }()
	for _, tc := range []struct {
		name                      string
		intercept, resolveNothing bool
	}{
		{"both", true, true},
		{"interception", true, false},
		{"resolver", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			offline.intercept, offline.resolveNothing = tc.intercept, tc.resolveNothing
			var hits atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				hits.Add(1)
				t.Errorf("the server got %s %s", r.Method, r.URL)
			}))
			defer srv.Close()
			file := filepath.Join(t.TempDir(), "external.html")
			local := strings.ReplaceAll(string(html), "https://example.com", srv.URL)
			if err := os.WriteFile(file, []byte(local), 0o666); err != nil {
				t.Fatal(err)
			}
			page := OpenForTest(t, file)
			got := slices.Sorted(slices.Values(page.Requests))
			want := []string{srv.URL + "/logo.png", srv.URL + "/style.css"}
			if !slices.Equal(got, want) {
				t.Errorf("Requests = %q, want %q", page.Requests, want)
			}
			if n := hits.Load(); n != 0 {
				t.Errorf("%d requests reached the server", n)
			}
		})
	}
}

func TestZeroSize(t *testing.T) {
	page := OpenForTest(t, "testdata/zero.html")
	want := []SVG{
		{Section: "figures", Label: "sized", Width: 120, Height: 80},
		{Section: "figures", Label: "empty"},
		{Label: "outside"}, // display: none
	}
	if !slices.Equal(page.SVGs, want) {
		t.Errorf("SVGs = %+v, want %+v", page.SVGs, want)
	}
	problems := page.Check("figures")
	if len(problems) != 2 || !strings.Contains(problems[0], `"empty"`) || !strings.Contains(problems[1], `"outside"`) {
		t.Errorf("Check = %q, want the two figures without area", problems)
	}
}

// TestNoLeftovers checks that Open leaves no browser process and no
// profile behind, after a page that loads and after one that never does.
func TestNoLeftovers(t *testing.T) {
	Require(t)
	for _, tc := range []struct {
		file    string
		timeout time.Duration
		err     error
	}{
		{"testdata/clean.html", DefaultTimeout, nil},
		{"testdata/hang.html", 3 * time.Second, context.DeadlineExceeded},
	} {
		t.Run(tc.file, func(t *testing.T) {
			// Where the temporary profile goes: not t.TempDir(), whose
			// long name makes the path of Chromium's socket in it too
			// long for a Unix socket.
			tmp, err := os.MkdirTemp("", "nl")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(tmp) })
			t.Setenv("TMPDIR", tmp)
			ctx, cancel := context.WithTimeout(t.Context(), tc.timeout)
			defer cancel()
			if _, err = Open(ctx, tc.file); !errors.Is(err, tc.err) {
				t.Fatalf("Open: %v, want %v", err, tc.err)
			}
			procs, err := filepath.Glob("/proc/[0-9]*/cmdline")
			if err != nil || len(procs) == 0 {
				if runtime.GOOS == "linux" {
					t.Fatalf("no processes found in /proc: %v", err)
				}
				t.Skipf("no /proc on %s to look for processes in", runtime.GOOS)
			}
			for _, p := range procs {
				cmdline, err := os.ReadFile(p)
				if err == nil && strings.Contains(string(cmdline), tmp) {
					t.Errorf("%s is still running: %q", filepath.Dir(p), strings.ReplaceAll(string(cmdline), "\x00", " "))
				}
			}
			left, err := os.ReadDir(tmp)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range left {
				t.Errorf("left in TMPDIR: %s", e.Name())
			}
		})
	}
}

func TestOpenMissingFile(t *testing.T) {
	_, err := Open(t.Context(), "testdata/no-such-file.html")
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open of a missing file: %v, want a not-exist error", err)
	}
}

func TestFindMBENCHCHROME(t *testing.T) {
	t.Setenv("MBENCH_CHROME", filepath.Join(t.TempDir(), "no-such-chrome"))
	if _, err := Find(); !errors.Is(err, ErrNoChromium) {
		t.Errorf("Find with MBENCH_CHROME naming nothing: %v, want ErrNoChromium", err)
	}
	fake := filepath.Join(t.TempDir(), "chrome")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MBENCH_CHROME", fake)
	if got, err := Find(); err != nil || got != fake {
		t.Errorf("Find with MBENCH_CHROME=%s: %q, %v", fake, got, err)
	}
}

func TestCheck(t *testing.T) {
	page := &Page{
		IDs:      []string{"a", "b"},
		SVGs:     []SVG{{Section: "a", Label: "ok", Width: 1, Height: 1}, {Section: "b", Label: "flat", Width: 10}},
		Errors:   []string{"error: x"},
		Requests: []string{"https://example.com/x.js"},
	}
	want := []string{
		"console: error: x",
		"request to https://example.com/x.js",
		`no element with id "c"`,
		`svg 1 "flat" in section "b" is 10x0`,
	}
	if got := page.Check("a", "c"); !slices.Equal(got, want) {
		t.Errorf("Check = %q, want %q", got, want)
	}
	if got := (&Page{IDs: []string{"a"}}).Check("a"); got != nil {
		t.Errorf("Check of a good page = %q, want nil", got)
	}
}

// deps runs the install script with the environment env added to this
// process's.
func deps(t *testing.T, env []string, args ...string) (string, error) {
	t.Helper()
	script, err := findScript()
	if err != nil {
		t.Fatal(err)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	cmd := exec.Command(bash, append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestDepsScript(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "chrome")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()

	out, err := deps(t, []string{"MBENCH_CHROME=" + fake}, "chromium")
	if err != nil || !strings.Contains(out, "chromium: already installed") {
		t.Errorf("with a browser there: %v\n%s", err, out)
	}
	out, err = deps(t, []string{"MBENCH_CHROME=", "PATH=" + empty}, "chromium")
	if err == nil || !strings.Contains(out, "no apt-get") {
		t.Errorf("with no browser and no apt-get: %v, want a failure that says so\n%s", err, out)
	}
	out, err = deps(t, nil, "no-such-thing")
	if err == nil || !strings.Contains(out, "unknown dependency no-such-thing") {
		t.Errorf("an unknown dependency: %v, want a failure that says so\n%s", err, out)
	}
}

// TestRequireSkips runs this test binary again with no browser on $PATH
// and checks that Require skips the test, saying what to run: once where
// the script is not found, once where it runs but cannot install.
func TestRequireSkips(t *testing.T) {
	if os.Getenv("MBENCH_BROWSER_CHILD") == "1" {
		Require(t)
		t.Fatal("Require returned without a browser")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	// A $PATH with bash, for the script, and no browser and no apt-get.
	bin := t.TempDir()
	for _, name := range []string{"bash", "env"} {
		path, err := exec.LookPath(name)
		if err != nil {
			t.Skipf("no %s", name)
		}
		if err := os.Symlink(path, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, dir, want string
	}{
		{"no script", t.TempDir(), "no .ci/deps in the working directory or above it"},
		{"no apt-get", wd, "chromium: no apt-get here"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(exe, "-test.run=^TestRequireSkips$", "-test.v")
			cmd.Dir = tc.dir
			cmd.Env = append(os.Environ(), "MBENCH_BROWSER_CHILD=1", "MBENCH_CHROME=", "PATH="+bin)
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "--- SKIP") ||
				!strings.Contains(string(out), "run .ci/deps chromium") || !strings.Contains(string(out), tc.want) {
				t.Errorf("%v; want a skip that says %q and what to run:\n%s", err, tc.want, out)
			}
		})
	}
}

// TestTab looks closer at an open page: a script's value, the layout after
// the viewport is resized, and a screenshot of one element at its size.
func TestTab(t *testing.T) {
	var widths []float64
	var png []byte
	page := OpenWithForTest(t, "testdata/clean.html", func(tab *Tab) error {
		var title string
		if err := tab.Eval("document.title", &title); err != nil {
			return err
		}
		if title != "Clean page" {
			t.Errorf("Eval(document.title) = %q", title)
		}
		for _, w := range []int{900, 400} {
			if err := tab.Resize(w, 600); err != nil {
				return err
			}
			var width float64
			if err := tab.Eval("document.documentElement.clientWidth", &width); err != nil {
				return err
			}
			widths = append(widths, width)
		}
		var err error
		png, err = tab.Screenshot("#first svg")
		if err != nil {
			return err
		}
		if _, err := tab.Screenshot("#nothing"); err == nil {
			t.Errorf("Screenshot of a selector that matches nothing: no error")
		}
		if err := tab.Eval("no such thing", nil); err == nil {
			t.Errorf("Eval of a script that throws: no error")
		}
		return nil
	})
	if page.Title != "Clean page" {
		t.Errorf("Title = %q", page.Title)
	}
	if !slices.Equal(widths, []float64{900, 400}) {
		t.Errorf("viewport widths after resizing %v, want [900 400]", widths)
	}
	img, err := stdpng.Decode(bytes.NewReader(png))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	// The figure is 200×100 CSS pixels, one device pixel each.
	if size := img.Bounds().Size(); size.X != 200 || size.Y != 100 {
		t.Errorf("screenshot of the 200x100 figure is %v", size)
	}
}

// TestOpenWithError: an error of the function that looks is Open's, and
// the browser stops all the same.
func TestOpenWithError(t *testing.T) {
	Require(t)
	want := errors.New("seen enough")
	_, err := OpenWith(t.Context(), "testdata/clean.html", func(*Tab) error { return want })
	if !errors.Is(err, want) {
		t.Errorf("OpenWith = %v, want %v", err, want)
	}
}
