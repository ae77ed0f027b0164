package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputSparesOwnFiles checks that every command that writes a file
// refuses, as a usage error and before any work, an output that is the
// result database (under any name), its log, an input, a test binary, the
// plan or the other output, and leaves that file as it was.
func TestOutputSparesOwnFiles(t *testing.T) {
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	storeRuns(t, filepath.Join(dir, "s.db"), filepath.Join(testdata, "old.txt"), filepath.Join(testdata, "new.txt"))
	storeRuns(t, filepath.Join(dir, "fig.svg"), filepath.Join(testdata, "old.txt"), filepath.Join(testdata, "new.txt"))
	t.Chdir(dir)
	plan := `{"format":"mbench-plan/v1","levels":{"s":1,"i":1,"d":3},"iter_time":"1s","metric":"cv","threshold":0.1,"bootstrap":{"level":0.95,"replicates":100},"seed":0,"benchmarks":[{"name":"A","s":1,"i":1,"d":1}]}`
	for name, text := range map[string]string{"old.txt": "old", "x.test": "binary", "plan.json": plan} {
		if err := os.WriteFile(name, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args string
		want string // in stderr
	}{
		{"export -db s.db -o s.db old", "-o s.db is the result database"},
		{"export -db s.db -format json -o ./s.db old", "-o ./s.db is the result database"},
		{"export -db s.db -o s.db-wal old", "-o s.db-wal is the result database's write-ahead log"},
		{"export -db ./s.db -o " + filepath.Join(dir, "s.db") + " old", "is the same file as ./s.db, the result database"},
		{"report -db s.db -o s.db old new", "-o s.db is the result database"},
		{"report -db s.db -format text -o s.db old new", "-o s.db is the result database"},
		{"report -db s.db -format markdown -o old.txt old.txt new", "-o old.txt is the input old.txt"},
		{"optimize -db s.db -o s.db old", "-o s.db is the result database"},
		{"plot -db fig.svg -kind comparison -o fig.svg old new", "-o fig.svg is the result database"},
		{"run -db s.db -o s.db .", "-o s.db is the result database"},
		{"run -db s.db -json s.db .", "-json s.db is the result database"},
		{"run -db s.db -json s.db-shm .", "-json s.db-shm is the result database's shared-memory index"},
		{"run -db s.db -o x.test a=x.test", "-o x.test is the test binary x.test"},
		{"run -db s.db -json plan.json -plan plan.json .", "-json plan.json is the plan"},
		{"run -db s.db -json out.txt -o out.txt .", "-o out.txt is the output of -json"},
		// A store that does not exist yet is spared too: run creates it.
		{"run -db new.db -o new.db .", "-o new.db is the result database"},
	} {
		before := map[string][]byte{}
		for _, f := range []string{"s.db", "fig.svg", "old.txt", "x.test", "plan.json"} {
			before[f], _ = os.ReadFile(f)
		}
		var stdout, stderr bytes.Buffer
		code := mbench(strings.Fields(tc.args), &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("mbench %s: exit %d, want %d with %q\n%s", tc.args, code, exitUsage, tc.want, &stderr)
		}
		for f, b := range before {
			if now, _ := os.ReadFile(f); !bytes.Equal(now, b) {
				t.Errorf("mbench %s changed %s", tc.args, f)
			}
		}
		for _, f := range []string{"new.db", "out.txt", "s.db-wal", "s.db-shm"} {
			if _, err := os.Stat(f); err == nil {
				t.Errorf("mbench %s created %s", tc.args, f)
			}
		}
	}
	// Another file of the same name elsewhere is no conflict.
	var stdout, stderr bytes.Buffer
	if code := mbench([]string{"export", "-db", "s.db", "-o", filepath.Join(t.TempDir(), "s.db"), "old"}, &stdout, &stderr); code != exitOK {
		t.Errorf("export to another s.db: exit %d\n%s", code, &stderr)
	}
}

// TestOutputUnwritable checks that an output mbench cannot write fails
// the command at once, naming the flag, before anything is measured or
// stored.
func TestOutputUnwritable(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("folder", 0o777); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ args, want string }{
		{"run -db s.db -o /proc/x.txt .", "-o /proc/x.txt: cannot write in /proc"},
		{"run -db s.db -json folder .", "-json folder is a directory"},
		{"run -db s.db -o missing/x.txt .", "-o missing/x.txt: cannot write in missing: no such file or directory"},
		{"export -db s.db -o missing/x.txt latest", "-o missing/x.txt: cannot write in missing"},
		{"report -db s.db -o folder", "-o folder is a directory"},
		{"plot -db s.db -kind trace -o missing/x.svg old", "-o missing/x.svg: cannot write in missing"},
		{"optimize -db s.db -o /proc/plan.json old", "-o /proc/plan.json: cannot write in /proc"},
	} {
		var stdout, stderr bytes.Buffer
		code := mbench(strings.Fields(tc.args), &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("mbench %s: exit %d, want %d with %q\n%s", tc.args, code, exitUsage, tc.want, &stderr)
		}
		if ents, _ := os.ReadDir("."); len(ents) != 1 {
			t.Errorf("mbench %s left files: %v", tc.args, ents)
		}
	}
}
