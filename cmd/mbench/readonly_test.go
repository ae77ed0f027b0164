package main

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/store"
)

// TestReadOnlyCommands runs the commands that only read the result
// database while another process holds its write lock, as a long 'mbench
// run' does for a moment at every iteration: they open the database read
// only, so they neither wait for the lock nor change the file.
func TestReadOnlyCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	for _, label := range []string{"old", "new"} {
		id, err := st.CreateRun(&bench.Run{Label: label, Start: time.Unix(1_800_000_000, 0)})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 6 {
			m := bench.Measurement{
				Key:    bench.Key{Name: "Sum", Procs: 2},
				Coord:  bench.Coord{Iteration: i},
				N:      100,
				Values: []bench.Value{{Value: float64(10+i) * 1e-9, Unit: "sec/op", OrigValue: float64(10 + i), OrigUnit: "ns/op"}},
			}
			if err := st.Append(id, m); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.Finish(id, time.Unix(1_800_000_060, 0), store.StatusComplete); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}

	// Another process's writing transaction, held throughout.
	lock, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	conn, err := lock.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(context.Background(), "ROLLBACK")

	for _, tc := range []struct{ args, want string }{
		{"runs -db " + db, "complete"},
		{"export -db " + db + " old", "BenchmarkSum-2"},
		{"export -db " + db + " -format json latest", `"label":"new"`},
		{"compare -db " + db + " old new", "Sum-2"},
	} {
		var stdout, stderr bytes.Buffer
		if code := mbench(strings.Fields(tc.args), &stdout, &stderr); code != exitOK {
			t.Errorf("mbench %s while the database is locked: exit %d\n%s", tc.args, code, &stderr)
			continue
		}
		if !strings.Contains(stdout.String(), tc.want) {
			t.Errorf("mbench %s: output lacks %q:\n%s", tc.args, tc.want, &stdout)
		}
	}
	after, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("a command that only reads changed the database file")
	}
}

// TestReadOnlyCommandsNoDatabase checks that the reading commands name a
// missing database and create nothing.
func TestReadOnlyCommandsNoDatabase(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".mbench")
	db := filepath.Join(dir, "mbench.db")
	for _, args := range []string{"runs -db " + db, "export -db " + db + " latest", "compare -db " + db + " old new"} {
		var stdout, stderr bytes.Buffer
		if code := mbench(strings.Fields(args), &stdout, &stderr); code != exitError {
			t.Errorf("mbench %s without a database: exit %d, want %d", args, code, exitError)
		}
		if !strings.Contains(stderr.String(), "no result database at "+db) {
			t.Errorf("mbench %s: stderr does not name the missing database:\n%s", args, &stderr)
		}
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("a reading command created %s", dir)
	}
}
