package store

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
)

func TestOpenNotADatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.txt")
	text := strings.Repeat("BenchmarkX-8  100  12345 ns/op\n", 200)
	if err := os.WriteFile(path, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err == nil {
		s.Close()
		t.Fatalf("Open(%s) of a text file succeeded", path)
	}
	for _, want := range []string{path, "not an SQLite database"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Open of a text file: err = %v, want it to contain %q", err, want)
		}
	}
	// The file is left as it was.
	if b, err := os.ReadFile(path); err != nil || string(b) != text {
		t.Errorf("Open changed the file it could not open (err %v)", err)
	}
}

func TestOpenForeignDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "other.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE people (name TEXT)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(path)
	if err == nil {
		s.Close()
		t.Fatalf("Open(%s) of another application's database succeeded", path)
	}
	for _, want := range []string{path, "not an mbench store"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Open of a foreign database: err = %v, want it to contain %q", err, want)
		}
	}
}

func TestOpenNewerSchema(t *testing.T) {
	s, path := openTemp(t)
	if _, err := s.db.Exec("UPDATE schema_version SET version = ?", schemaVersion+1); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path)
	if err == nil {
		s2.Close()
		t.Fatal("Open of a store with a newer schema succeeded")
	}
	if !strings.Contains(err.Error(), "newer") || !strings.Contains(err.Error(), path) {
		t.Errorf("Open of a newer store: err = %v, want it to name the path and say the schema is newer", err)
	}
}

func TestOpenSettings(t *testing.T) {
	s, path := openTemp(t)
	if filepath.Base(filepath.Dir(path)) != ".mbench" {
		t.Fatalf("openTemp path %s", path)
	}
	for _, tc := range []struct{ pragma, want string }{
		{"journal_mode", "wal"},
		{"synchronous", "2"}, // FULL
		{"busy_timeout", "10000"},
		{"foreign_keys", "1"},
	} {
		var got string
		if err := s.db.QueryRow("PRAGMA " + tc.pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("PRAGMA %s = %s, want %s", tc.pragma, got, tc.want)
		}
	}
	var v int
	if err := s.db.QueryRow("SELECT version FROM schema_version").Scan(&v); err != nil || v != schemaVersion {
		t.Errorf("schema_version = %d, %v, want %d", v, err, schemaVersion)
	}
}

// TestOpenOddPath checks that characters with a meaning in URIs stay part of
// the file name.
func TestOpenOddPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a dir?x=1#frag%20", "mbench.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateRun(&bench.Run{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("store not at %s: %v", path, err)
	}
}

func TestMigrations(t *testing.T) {
	if len(migrations) != schemaVersion-1 {
		t.Fatalf("%d migrations for schema version %d, want %d", len(migrations), schemaVersion, schemaVersion-1)
	}
	for i, m := range migrations {
		if m.from != i+1 {
			t.Errorf("migrations[%d].from = %d, want %d", i, m.from, i+1)
		}
	}
}

// TestSchemaPortable keeps SQLite-only constructs out of schema.sql, which a
// PostgreSQL backend is to run unchanged.
func TestSchemaPortable(t *testing.T) {
	for _, bad := range []string{"AUTOINCREMENT", "WITHOUT ROWID", "STRICT", "PRAGMA", "BLOB",
		"DATETIME", "INSERT OR", "SERIAL", "IDENTITY", "`"} {
		for line := range strings.Lines(schemaSQL) {
			code, _, _ := strings.Cut(line, "--")
			if strings.Contains(strings.ToUpper(code), bad) {
				t.Errorf("schema.sql uses %s: %s", bad, strings.TrimSpace(line))
			}
		}
	}
}
