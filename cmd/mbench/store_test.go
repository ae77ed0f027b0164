package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/store"
)

// TestStoreCopy copies runs between two SQLite files with mbench store
// copy: by label, then all, which skips what is there.
func TestStoreCopy(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "shard.db"), filepath.Join(dir, "all", "all.db")
	s, err := store.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, label := range []string{"pr-42", "pr-42", "main"} {
		id, err := s.CreateRun(&bench.Run{Label: label})
		if err != nil {
			t.Fatal(err)
		}
		m := bench.Measurement{Key: bench.Key{Name: "Sum"}, N: 10, Values: []bench.Value{{Value: 1.5e-9, Unit: "sec/op"}}}
		if err := s.Append(id, m, m); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	s.Close()

	for _, tc := range []struct {
		args string
		code int
		want []string
	}{
		{"store copy -label pr-42 SRC DST", exitOK, []string{"copied  " + ids[0] + " (pr-42): running, 2 measurements", "2 runs copied (4 measurements), 0 skipped"}},
		{"store copy SRC DST", exitOK, []string{"skipped " + ids[1] + " (pr-42): already in DST", "1 runs copied (2 measurements), 2 skipped"}},
		{"store copy main SRC DST", exitOK, []string{"0 runs copied (0 measurements), 1 skipped"}},
		{"store copy nosuch SRC DST", exitError, []string{`resolve "nosuch"`}},
		{"store copy -label x " + ids[0] + " SRC DST", exitUsage, []string{"-label and runs: give one"}},
		{"store copy SRC", exitUsage, []string{"want the source and destination"}},
		{"store move SRC DST", exitUsage, []string{"want a subcommand: copy"}},
		{"store copy DST-missing DST", exitError, []string{"no result database at"}},
	} {
		args := strings.Fields(strings.NewReplacer("DST-missing", filepath.Join(dir, "none.db"), "SRC", src, "DST", dst).Replace(tc.args))
		var stdout, stderr bytes.Buffer
		code := mbench(args, &stdout, &stderr)
		out := strings.ReplaceAll(stdout.String()+stderr.String(), dst, "DST")
		if code != tc.code {
			t.Errorf("mbench %s: exit code %d, want %d\n%s", tc.args, code, tc.code, out)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("mbench %s: output does not contain %q:\n%s", tc.args, w, out)
			}
		}
	}
}

// TestUnreachableStore checks that run and ab fail at once, naming the
// server but not the password, when the PostgreSQL store cannot be
// reached: before they build or measure anything (the package does not
// exist, which would be the error otherwise).
func TestUnreachableStore(t *testing.T) {
	const url = "postgres://mbench:s3cret@127.0.0.1:1/results?connect_timeout=5"
	for _, args := range [][]string{
		{"run", "-db", url, "./nosuchpkg"},
		{"ab", "-db", url, "-old", "HEAD~1", "./nosuchpkg"},
	} {
		var stdout, stderr bytes.Buffer
		code := mbench(args, &stdout, &stderr)
		out := stdout.String() + stderr.String()
		if code != exitError || !strings.Contains(out, "postgres://mbench@127.0.0.1:1/results: cannot connect") ||
			strings.Contains(out, "s3cret") || strings.Contains(out, "nosuchpkg") {
			t.Errorf("mbench %s: exit code %d, output:\n%s\nwant exit code %d and an error naming the server only", strings.Join(args, " "), code, out, exitError)
		}
	}
}
