package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefsCheckedFirst checks that a flag naming a stored run that is not
// there fails the command before anything is built or run, naming the
// flag: the packages named do not even exist.
func TestRefsCheckedFirst(t *testing.T) {
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	storeRuns(t, filepath.Join(dir, "s.db"), filepath.Join(testdata, "old.txt"))
	t.Chdir(dir)
	for _, tc := range []struct{ args, want string }{
		{"run -db s.db -shard 1/2 -shard-basis nosuch ./nopkg", `-shard-basis nosuch: no such file, and store: resolve "nosuch"`},
		{"ab -db s.db -old HEAD -resume nosuch ./nopkg", `-resume nosuch: store: resolve "nosuch"`},
		{"ab -db s.db -old HEAD -shard 1/2 -shard-basis nosuch ./nopkg", `-shard-basis nosuch: no such file`},
		{"ab -db s.db -parallel -old-bin a.test -new-bin b.test -shard 1/2 -shard-basis nosuch", `-shard-basis nosuch: no such file`},
	} {
		var stdout, stderr bytes.Buffer
		code := mbench(strings.Fields(tc.args), &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("mbench %s: exit %d, want %d with %q\n%s", tc.args, code, exitUsage, tc.want, &stderr)
		}
	}
	// A stored run and a file pass.
	var stdout, stderr bytes.Buffer
	if code := mbench(strings.Fields("run -db s.db -shard 1/2 -shard-basis old ./nopkg"), &stdout, &stderr); strings.Contains(stderr.String(), "-shard-basis") {
		t.Errorf("a stored basis refused: exit %d\n%s", code, &stderr)
	}
}
