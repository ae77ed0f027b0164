package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/internal/pgtest"
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

	created := false
	for _, tc := range []struct {
		args string
		code int
		want []string
	}{
		// Nothing to copy: nothing is created (checked below until the
		// first copy).
		{"store copy nosuch SRC DST", exitError, []string{`resolve "nosuch"`, "nothing copied"}},
		{"store copy -label pr-43 SRC DST", exitError, []string{`no run has label "pr-43"`, "nothing copied"}},
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
		created = created || code == exitOK
		if _, err := os.Stat(filepath.Dir(dst)); err == nil && !created {
			t.Errorf("mbench %s copied nothing but created %s", tc.args, filepath.Dir(dst))
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

func TestMain(m *testing.M) {
	if dsn := os.Getenv("MBENCH_TEST_TERMINATE"); dsn != "" {
		// A child the fake test binary starts: end the sessions of
		// mbench on the server, as a restart would.
		if err := pgtest.Exec(dsn, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid()`); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	pgtest.Main(m)
}

// buildFake builds the fake test binary (testdata/fakebench) into dir.
func buildFake(t *testing.T, dir string) string {
	t.Helper()
	fake := filepath.Join(dir, "fake.test")
	if out, err := exec.Command("go", "build", "-o", fake, "./testdata/fakebench").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return fake
}

// TestRunsIntoPostgres runs two shards of a suite at once into one
// PostgreSQL store under one label, as two jobs of a CI matrix do: they
// measure disjoint parts, the label gathers the whole suite, and copied
// into an SQLite file the runs export exactly as from the server.
func TestRunsIntoPostgres(t *testing.T) {
	dsn := pgtest.DSN(t)
	dir := t.TempDir()
	fake := buildFake(t, dir)
	parts := []string{"1/2", "2/2"}
	var wg sync.WaitGroup
	outs := make([]bytes.Buffer, len(parts))
	codes := make([]int, len(parts))
	for i, part := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = mbench([]string{"run", "-db", dsn, "-label", "shards", "-criterion", "static", "-f-min", "2", "-f-max", "2",
				"-wi-max", "1", "-mi", "3", "-iter", "5ms", "-seed", "1", "-shard", part, fake}, &outs[i], &outs[i])
		}()
	}
	wg.Wait()
	for i := range parts {
		if codes[i] != exitOK {
			t.Fatalf("mbench run -shard %s: exit code %d\n%s", parts[i], codes[i], &outs[i])
		}
	}
	st, err := store.OpenReadOnly(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	infos, err := st.Runs()
	if err != nil {
		t.Fatal(err)
	}
	seen := make(map[bench.Key]string)
	for _, ri := range infos {
		if ri.Label != "shards" || ri.Status != store.StatusComplete || ri.Measurements == 0 {
			t.Errorf("run %+v, want a complete run labelled shards", ri)
		}
		r, err := st.Load(ri.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range r.Measurements {
			if other, ok := seen[m.Key]; ok && other != ri.ID {
				t.Errorf("%s measured by runs %s and %s", m.Key.Name, other, ri.ID)
			}
			seen[m.Key] = ri.ID
		}
	}
	if len(infos) != 2 || len(seen) != 4 {
		t.Fatalf("%d runs measuring %d benchmarks, want 2 measuring all 4", len(infos), len(seen))
	}

	var gathered bytes.Buffer
	if code := mbench([]string{"export", "-db", dsn, "shards"}, &gathered, &gathered); code != exitOK {
		t.Fatalf("export shards: exit code %d\n%s", code, &gathered)
	}
	for k := range seen {
		if !strings.Contains(gathered.String(), "Benchmark"+k.Name+"-") {
			t.Errorf("export of label shards lacks %s:\n%s", k.Name, &gathered)
		}
	}

	file := filepath.Join(dir, "all.db")
	var out bytes.Buffer
	if code := mbench([]string{"store", "copy", "-label", "shards", dsn, file}, &out, &out); code != exitOK ||
		!strings.Contains(out.String(), "2 runs copied") {
		t.Fatalf("store copy: exit code %d\n%s", code, &out)
	}
	for _, ri := range infos {
		var fromPG, fromFile bytes.Buffer
		mbench([]string{"export", "-db", dsn, "-format", "json", ri.ID}, &fromPG, &fromPG)
		mbench([]string{"export", "-db", file, "-format", "json", ri.ID}, &fromFile, &fromFile)
		if fromPG.Len() == 0 || fromPG.String() != fromFile.String() {
			t.Errorf("run %s exports differently from the server and from the copy:\n%s\n---\n%s", ri.ID, &fromPG, &fromFile)
		}
	}
}

// TestRunLosesConnection ends mbench's session on the server while a run
// measures (the fifth process the run starts does it, before it prints
// its results): the run stops, says which run keeps what was stored, and
// the store has every iteration before the break.
func TestRunLosesConnection(t *testing.T) {
	dsn := pgtest.DSN(t)
	dir := t.TempDir()
	fake := buildFake(t, dir)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "breaking.test")
	counter := filepath.Join(dir, "count")
	err = os.WriteFile(script, []byte(`#!/bin/sh
n=$(cat "`+counter+`" 2>/dev/null || echo 0)
echo $((n + 1)) >"`+counter+`"
if [ "$n" = 5 ]; then
	MBENCH_TEST_TERMINATE='`+dsn+`' "`+self+`" || exit 1
fi
exec "`+fake+`" "$@"
`), 0o777)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	code := mbench([]string{"run", "-db", dsn, "-label", "lost", "-criterion", "static", "-f-min", "8", "-f-max", "8",
		"-wi-max", "1", "-mi", "3", "-iter", "5ms", "-bench", "Sum", script}, &out, &out)
	st, err := store.OpenReadOnly(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	id, err := st.Resolve("lost")
	if err != nil {
		t.Fatalf("%v; mbench run exited with %d:\n%s", err, code, &out)
	}
	r, err := st.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if code != exitError || !strings.Contains(out.String(), "lost the connection to the store") ||
		!strings.Contains(out.String(), "every iteration before it is kept in run "+id) {
		t.Errorf("exit code %d, output:\n%s\nwant exit code %d and an error saying what run %s keeps", code, &out, exitError, id)
	}
	if n := len(r.Measurements); n == 0 || n >= 8*4 {
		t.Errorf("run %s holds %d measurements, want those before the break", id, n)
	}
	if strings.Contains(out.String(), dsn) {
		t.Errorf("the output shows the URL as given rather than the server's name")
	}
	t.Logf("%d measurements kept", len(r.Measurements))
}

// TestStoreCopyHidesPassword copies into a PostgreSQL store named by a URL
// with a password, twice: neither what the copy prints nor the error of a
// copy that fails names the password.
func TestStoreCopyHidesPassword(t *testing.T) {
	dst := pgtest.DSN(t) + "&password=s3cret"
	src := filepath.Join(t.TempDir(), "shard.db")
	s, err := store.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.CreateRun(&bench.Run{Label: "pr-42"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	for i, args := range [][]string{
		{"store", "copy", src, dst},
		{"store", "copy", src, dst},
		{"store", "copy", id, "nosuch", src, dst},
	} {
		var stdout, stderr bytes.Buffer
		code := mbench(args, &stdout, &stderr)
		out := stdout.String() + stderr.String()
		if want := []int{exitOK, exitOK, exitError}[i]; code != want || strings.Contains(out, "s3cret") {
			t.Errorf("mbench %s: exit code %d (want %d), output:\n%s\nwant no password", strings.Join(args, " "), code, want, out)
		}
	}
}

// TestHelpHidesDBPassword checks that help shows the default of -db that
// MBENCH_DB sets without the password of its URL.
func TestHelpHidesDBPassword(t *testing.T) {
	defer func(old string) { defaultDB = old }(defaultDB)
	defaultDB = "postgres://ci:s3cret@db.internal/mbench"
	for _, cmd := range []string{"run", "runs", "compare"} {
		var stdout, stderr bytes.Buffer
		code := mbench([]string{"help", cmd}, &stdout, &stderr)
		out := stdout.String() + stderr.String()
		if code != exitOK || strings.Contains(out, "s3cret") || !strings.Contains(out, "postgres://ci:xxxxx@db.internal/mbench") {
			t.Errorf("mbench help %s: exit code %d, output:\n%s\nwant the URL of MBENCH_DB without the password", cmd, code, out)
		}
	}
}
