package codec

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(b)
	}
	return files
}

func TestRecorderDistinct(t *testing.T) {
	dir := t.TempDir()
	r := &Recorder{Name: "Sum", Dir: dir, Max: 2}
	for _, xs := range [][]int{{1, 2}, {1, 2}, {3}, {4}, {5}} {
		c := r.Begin(xs, len(xs))
		xs[0] = 0 // the segment mutates its input
		c.End(xs[0], xs)
	}
	got := readDir(t, filepath.Join(dir, "Sum"))
	want := map[string]string{
		"reached":    "",
		"set-1.json": `{"inputs":[[1,2],2],"outputs":[0,[0,2]]}` + "\n",
		"set-2.json": `{"inputs":[[3],1],"outputs":[0,[0]]}` + "\n",
	}
	if len(got) != len(want) {
		t.Errorf("files %v, want %v", got, want)
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s = %q, want %q", name, got[name], w)
		}
	}
}

func TestRecorderErrorsAndLimits(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(RecordDirEnv, dir)
	r := &Recorder{Name: "F", Max: 5, MaxCalls: 3}
	c := r.Begin(func() {})
	c.End()
	for i := 0; i < 10; i++ {
		c := r.Begin(i)
		c.End(i)
		c.End(-1) // ignored
	}
	if r.Active() {
		t.Errorf("recorder still active after MaxCalls executions")
	}
	if c := r.Begin(99); c.Recording() {
		t.Errorf("a call after MaxCalls is recorded")
	}
	got := readDir(t, filepath.Join(dir, "F"))
	var names []string
	for n := range got {
		names = append(names, n)
	}
	sort.Strings(names)
	// The call whose inputs cannot be encoded is skipped and counts
	// among MaxCalls; two more fit.
	if strings.Join(names, " ") != "error reached set-1.json set-2.json skipped" {
		t.Errorf("files %v", names)
	}
	if want := "input 0: value (func()): cannot record a non-nil func"; got["error"] != want {
		t.Errorf("error = %q, want %q", got["error"], want)
	}
	if got["skipped"] != "1" {
		t.Errorf("skipped = %q, want 1", got["skipped"])
	}
}

// TestRecorderErrors checks that an error variable passed as a Ref is
// recorded as null when nil and with its dynamic type otherwise, and
// that an execution holding a value that cannot be encoded (a func) is
// skipped without taking the place of a set.
func TestRecorderErrors(t *testing.T) {
	dir := t.TempDir()
	r := &Recorder{Name: "Parse", Dir: dir, Max: 2}
	for _, s := range []string{"f", "x", "f", "1", "2"} {
		n, err := strconv.Atoi(s)
		var out any = n
		if s == "f" {
			out = func() {}
		}
		c := r.Begin(s)
		c.End(out, Ref{&err})
	}
	got := readDir(t, filepath.Join(dir, "Parse"))
	want := map[string]string{
		"reached":    "",
		"set-2.json": `{"inputs":["x"],"outputs":[0,{"$type":"*strconv.NumError","$v":{"Func":"Atoi","Num":"x","Err":{"$type":"*errors.errorString","$v":{"s":"invalid syntax"}}}}]}` + "\n",
		"set-3.json": `{"inputs":["1"],"outputs":[1,null]}` + "\n",
		// "f" again is not examined a second time.
		"skipped": "1",
		"error":   "output 0: value (func()): cannot record a non-nil func",
	}
	if len(got) != len(want) {
		t.Errorf("files %v, want %v", got, want)
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s = %q, want %q", name, got[name], w)
		}
	}
	if r.Active() {
		t.Errorf("recorder active with Max sets kept")
	}

	var nilErr error
	if b, err := encodeArg(Ref{&nilErr}); err != nil || string(b) != "null" {
		t.Errorf("nil error: %s, %v; want null", b, err)
	}
}

func TestRecorderConcurrent(t *testing.T) {
	dir := t.TempDir()
	r := &Recorder{Name: "P", Dir: dir, Max: 50}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				c := r.Begin(i)
				c.End(i * i)
			}
		}()
	}
	wg.Wait()
	got := readDir(t, filepath.Join(dir, "P"))
	if len(got) != 21 {
		t.Errorf("%d files, want 20 sets and reached", len(got))
	}
}
