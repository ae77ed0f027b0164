package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
)

func TestOpenReadOnlyMissing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".mbench")
	path := filepath.Join(dir, "mbench.db")
	s, err := OpenReadOnly(path)
	if err == nil {
		s.Close()
		t.Fatal("OpenReadOnly of a missing file succeeded")
	}
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), path) {
		t.Errorf("OpenReadOnly of a missing file: err = %v, want one that names %s and wraps fs.ErrNotExist", err, path)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenReadOnly created %s (stat: %v)", dir, err)
	}
}

// TestOpenNotAStore checks the errors of both opens for files that are not
// stores this mbench can use: each names the file and says why.
func TestOpenNotAStore(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, path string)
		// want is in the error of both opens, wantRO of OpenReadOnly's;
		// "" for wantRW means that Open accepts the file.
		want, wantRO, wantRW string
	}{
		{
			name:   "empty file",
			setup:  func(t *testing.T, path string) { writeFile(t, path, "") },
			wantRO: "empty file, not an mbench store (no schema version)",
		},
		{
			name:   "database without tables",
			setup:  func(t *testing.T, path string) { execSQL(t, path, "PRAGMA user_version = 7") },
			wantRO: "without tables, not an mbench store (no schema version)",
		},
		{
			name:  "foreign database",
			setup: func(t *testing.T, path string) { execSQL(t, path, "CREATE TABLE people (name TEXT)") },
			want:  "not an mbench store (no schema_version table)",
		},
		{
			name: "no schema version",
			setup: func(t *testing.T, path string) {
				newStore(t, path)
				execSQL(t, path, "DELETE FROM schema_version")
			},
			want: fmt.Sprintf("no schema version (table schema_version is empty); this mbench reads versions 1 to %d", schemaVersion),
		},
		{
			name: "newer schema",
			setup: func(t *testing.T, path string) {
				newStore(t, path)
				execSQL(t, path, fmt.Sprintf("UPDATE schema_version SET version = %d", schemaVersion+1))
			},
			want: fmt.Sprintf("schema version %d is newer than this mbench understands (%d); upgrade mbench", schemaVersion+1, schemaVersion),
		},
		{
			name: "invalid schema version",
			setup: func(t *testing.T, path string) {
				newStore(t, path)
				execSQL(t, path, "UPDATE schema_version SET version = 0")
			},
			want: fmt.Sprintf("schema version 0 is not one mbench writes (1 to %d)", schemaVersion),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "mbench.db")
			tc.setup(t, path)
			before := readFile(t, path)
			wantRO := tc.wantRO
			if wantRO == "" {
				wantRO = tc.want
			}
			s, err := OpenReadOnly(path)
			if err == nil {
				s.Close()
				t.Errorf("OpenReadOnly succeeded, want an error saying %q", wantRO)
			} else if !strings.Contains(err.Error(), wantRO) || !strings.Contains(err.Error(), path) {
				t.Errorf("OpenReadOnly: err = %v, want it to name %s and say %q", err, path, wantRO)
			}
			if !bytes.Equal(readFile(t, path), before) {
				t.Errorf("OpenReadOnly changed the file")
			}
			s, err = Open(path)
			if tc.want == "" {
				if err != nil {
					t.Errorf("Open: %v, want it to create a store", err)
				} else {
					s.Close()
				}
				return
			}
			if err == nil {
				s.Close()
				t.Errorf("Open succeeded, want an error saying %q", tc.want)
			} else if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("Open: err = %v, want it to name %s and say %q", err, path, tc.want)
			}
		})
	}
}

// TestOpenReadOnlyOldStore reads a version-1 store without upgrading it.
func TestOpenReadOnlyOldStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	writeV1Store(t, path)
	before := readFile(t, path)

	s, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	infos, err := s.Runs()
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 1 || infos[0].ID != v1RunID || infos[0].Measurements != 1 || infos[0].Status != StatusComplete {
		t.Errorf("Runs of a version-1 store: %+v", infos)
	}
	id, err := s.Resolve("latest")
	if err != nil || id != v1RunID {
		t.Errorf("Resolve(latest) = %q, %v, want %s", id, err, v1RunID)
	}
	run, err := s.Load(v1RunID)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Measurements) != 1 || run.Measurements[0].Coord.Version != "" || run.Measurements[0].N != 1000 {
		t.Errorf("Load of a version-1 store: %+v", run.Measurements)
	}
	var v int
	if err := s.db.QueryRow("SELECT version FROM schema_version").Scan(&v); err != nil || v != 1 {
		t.Errorf("schema_version = %d, %v after a read-only open, want 1", v, err)
	}
	s.Close()
	if !bytes.Equal(readFile(t, path), before) {
		t.Errorf("a read-only open changed the store")
	}
}

func TestOpenReadOnlyRefusesWrites(t *testing.T) { eachBackend(t, testOpenReadOnlyRefusesWrites) }

func testOpenReadOnlyRefusesWrites(t *testing.T, open opener) {
	w, path := open(t)
	id, err := w.CreateRun(&bench.Run{Label: "main"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m := bench.Measurement{Key: bench.Key{Name: "X"}, N: 1, Values: []bench.Value{{Value: 1, Unit: "sec/op"}}}
	for name, err := range map[string]error{
		"CreateRun":   func() error { _, err := s.CreateRun(&bench.Run{}); return err }(),
		"Append":      s.Append(id, m),
		"Finish":      s.Finish(id, time.Now(), StatusComplete),
		"SetSettings": s.SetSettings(id, map[string]string{"k": "v"}),
	} {
		if err == nil || !strings.Contains(err.Error(), "read-only") {
			t.Errorf("%s on a read-only store: err = %v, want one saying it is read-only", name, err)
		}
	}
	// query_only guards the connection itself too.
	if _, err := s.db.Exec("DELETE FROM runs"); err == nil {
		t.Error("a read-only store's connection deleted runs")
	}
	if infos, err := w.Runs(); err != nil || len(infos) != 1 || infos[0].Measurements != 0 {
		t.Errorf("after the refused writes: %+v, %v", infos, err)
	}
}

// TestOpenReadOnlyWhileLocked opens and reads a store while another
// connection holds its write lock, as 'mbench runs' does while a run is
// being stored. A read-only open neither waits nor fails: Open, which
// takes the write lock to check the schema, would wait.
func TestOpenReadOnlyWhileLocked(t *testing.T) {
	w, path := openTemp(t)
	id, err := w.CreateRun(&bench.Run{Label: "main"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(id, bench.Measurement{Key: bench.Key{Name: "X"}, N: 1, Values: []bench.Value{{Value: 1, Unit: "sec/op"}}}); err != nil {
		t.Fatal(err)
	}
	release := holdWriteLock(t, path)
	defer release()
	defer setBusy(t, time.Millisecond, func() { t.Fatal("the read-only store waited for the write lock") })()

	s, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if infos, err := s.Runs(); err != nil || len(infos) != 1 {
		t.Errorf("Runs while locked: %+v, %v", infos, err)
	}
	if r, err := s.Load(id); err != nil || len(r.Measurements) != 1 {
		t.Errorf("Load while locked: %v", err)
	}
}

// holdWriteLock takes the write lock of the store at path on a connection
// of its own, until the returned function is called.
func holdWriteLock(t *testing.T, path string) (release func()) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	return func() {
		if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
			t.Error(err)
		}
		conn.Close()
		db.Close()
	}
}

// setBusy sets the busy timeout of stores opened from now on and the hook
// called when a writer has waited that long, and returns a function that
// restores them.
func setBusy(t *testing.T, timeout time.Duration, hook func()) (restore func()) {
	oldTimeout, oldHook := busyTimeout, busyHook
	busyTimeout, busyHook = timeout, hook
	return func() { busyTimeout, busyHook = oldTimeout, oldHook }
}

func newStore(t *testing.T, path string) {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func execSQL(t *testing.T, path, stmt string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(stmt); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
