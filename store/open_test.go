package store

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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

// TestMigrateFromVersion1 opens a store that an mbench of schema version 1
// wrote (testdata/schema-v1.sql is that schema, frozen) and checks that it
// is upgraded in place: its measurements load with no version, new ones
// keep theirs, and the upgraded table is the one a new store has.
func TestMigrateFromVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	writeV1Store(t, path)

	s, err := Open(path)
	if err != nil {
		t.Fatalf("opening a version-1 store: %v", err)
	}
	defer s.Close()
	var v int
	if err := s.db.QueryRow("SELECT version FROM schema_version").Scan(&v); err != nil || v != schemaVersion {
		t.Errorf("schema_version = %d, %v after the upgrade, want %d", v, err, schemaVersion)
	}
	run, err := s.Load("a1b2c3d4e5f6")
	if err != nil {
		t.Fatal(err)
	}
	old := bench.Measurement{
		Key:    bench.Key{Package: "example.com/p", Name: "Decode", Procs: 2},
		Coord:  bench.Coord{Instance: "ci-7", SuiteRun: 1, Fork: 2, Iteration: 3},
		N:      1000,
		Values: []bench.Value{{Value: 1.5e-6, Unit: "sec/op", OrigValue: 1500, OrigUnit: "ns/op"}},
	}
	if len(run.Measurements) != 1 || !reflect.DeepEqual(run.Measurements[0], old) {
		t.Errorf("the version-1 measurement loads as %+v, want %+v", run.Measurements, old)
	}

	// The upgraded store takes measurements with versions.
	m := old
	m.Coord.Version = "new"
	if err := s.Append("a1b2c3d4e5f6", m); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(path) // a second Open finds version 2 and changes nothing
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	run, err = s.Load("a1b2c3d4e5f6")
	if err != nil {
		t.Fatal(err)
	}
	if got := run.Versions(); !slices.Equal(got, []string{"", "new"}) {
		t.Errorf("versions after appending to the upgraded store: %q, want [\"\" \"new\"]", got)
	}

	checkAsNew(t, s.db)
}

// checkAsNew checks that the upgraded store db has the tables and columns
// of a new store.
func checkAsNew(t *testing.T, db *sql.DB) {
	t.Helper()
	fresh, _ := openTemp(t)
	if got, want := tables(t, db), tables(t, fresh.db); !slices.Equal(got, want) {
		t.Errorf("upgraded store's tables: %q, want, as in a new store: %q", got, want)
	}
	for _, table := range tables(t, fresh.db) {
		if got, want := columns(t, db, table), columns(t, fresh.db, table); !slices.Equal(got, want) {
			t.Errorf("upgraded %s table:\n%s\nwant, as in a new store:\n%s", table, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestMigrateFromVersion3 opens a store that an mbench of schema version 3
// wrote (testdata/schema-v3.sql is that schema, frozen) and checks that it
// is upgraded in place: its run keeps the platform it had and reads the
// rest as unknown, new runs keep their whole platform, and the upgraded
// table is the one a new store has.
func TestMigrateFromVersion3(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v3.db")
	writeV3Store(t, path)

	// Read-only, the store stays at version 3 and its run loads.
	ro, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	old := bench.Platform{Toolchain: "go1.26.8", GOOS: "linux", GOARCH: "amd64", Host: "h", CPU: "c"}
	run, err := ro.Load(v3RunID)
	if err != nil {
		t.Fatalf("loading from a read-only version-3 store: %v", err)
	}
	if !reflect.DeepEqual(run.Platform, old) {
		t.Errorf("read-only version-3 run's platform %+v, want %+v", run.Platform, old)
	}
	ro.Close()

	s, err := Open(path)
	if err != nil {
		t.Fatalf("opening a version-3 store: %v", err)
	}
	defer s.Close()
	var v int
	if err := s.db.QueryRow("SELECT version FROM schema_version").Scan(&v); err != nil || v != schemaVersion {
		t.Errorf("schema_version = %d, %v after the upgrade, want %d", v, err, schemaVersion)
	}
	run, err = s.Load(v3RunID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(run.Platform, old) {
		t.Errorf("version-3 run's platform after the upgrade %+v, want %+v", run.Platform, old)
	}
	if len(run.Measurements) != 1 || run.Measurements[0].N != 1000 {
		t.Errorf("version-3 run's measurements after the upgrade: %+v", run.Measurements)
	}

	full := bench.Platform{Toolchain: "go1.26.8", GOOS: "linux", GOARCH: "arm64", Kernel: "6.8.0",
		CPU: "Neoverse-N1", CPUs: 4, GOMAXPROCS: 4, Governor: "performance", Turbo: "off",
		Host: "ip-10-0-0-7", Instance: "ci-arm", Load: new(0.0), Busy: new(0.125)}
	order := []bench.Key{{Package: "example.com/p", Name: "Encode", Procs: 2}, {Package: "example.com/p", Name: "Decode", Procs: 2}}
	id, err := s.CreateRun(&bench.Run{Label: "new", Platform: full, Benchmarks: order})
	if err != nil {
		t.Fatal(err)
	}
	run, err = s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(run.Platform, full) || !reflect.DeepEqual(run.Benchmarks, order) {
		t.Errorf("platform and benchmarks stored in the upgraded store load as %+v, %v, want %+v, %v", run.Platform, run.Benchmarks, full, order)
	}
	checkAsNew(t, s.db)
}

// v3RunID is the run writeV3Store stores.
const v3RunID = "0a1b2c3d4e5f"

// writeV3Store writes a store at path as an mbench of schema version 3
// wrote it, with one finished run of one measurement.
func writeV3Store(t *testing.T, path string) {
	t.Helper()
	writeOldStore(t, path, "schema-v3.sql",
		"INSERT INTO schema_version (version) VALUES (3)",
		`INSERT INTO runs (num, id, label, commit_hash, dirty, toolchain, goos, goarch, host, cpu, start_ns, end_ns, status)
			VALUES (1, '0a1b2c3d4e5f', 'main', 'abc', 0, 'go1.26.8', 'linux', 'amd64', 'h', 'c', NULL, NULL, 'complete')`,
		"INSERT INTO run_owners (run, host, pid, process) VALUES (1, 'h', 1, 'p')",
		"INSERT INTO bench_keys (id, package, name, procs) VALUES (1, 'example.com/p', 'Decode', 2)",
		`INSERT INTO measurements (id, run, bench, instance, suite_run, fork, iteration, phase, n, start_ns, end_ns, config, version)
			VALUES (1, 1, 1, 'h', 1, 1, 0, 0, 1000, NULL, NULL, NULL, '')`,
		`INSERT INTO measurement_values (measurement, idx, unit, value, value_bits, orig_unit, orig_value, orig_value_bits)
			VALUES (1, 0, 'sec/op', 1.5e-6, NULL, 'ns/op', 1500, NULL)`)
}

// v1RunID is the run writeV1Store stores.
const v1RunID = "a1b2c3d4e5f6"

// writeV1Store writes a store at path as an mbench of schema version 1
// wrote it (testdata/schema-v1.sql is that schema, frozen), with one run
// of one measurement.
func writeV1Store(t *testing.T, path string) {
	t.Helper()
	writeOldStore(t, path, "schema-v1.sql",
		"INSERT INTO schema_version (version) VALUES (1)",
		`INSERT INTO runs (num, id, label, commit_hash, dirty, toolchain, goos, goarch, host, cpu, start_ns, end_ns, status)
			VALUES (1, 'a1b2c3d4e5f6', 'main', 'abc', 0, 'go1.26.8', 'linux', 'amd64', 'h', 'c', NULL, NULL, 'complete')`,
		"INSERT INTO bench_keys (id, package, name, procs) VALUES (1, 'example.com/p', 'Decode', 2)",
		`INSERT INTO measurements (id, run, bench, instance, suite_run, fork, iteration, phase, n, start_ns, end_ns, config)
			VALUES (1, 1, 1, 'ci-7', 1, 2, 3, 0, 1000, NULL, NULL, NULL)`,
		`INSERT INTO measurement_values (measurement, idx, unit, value, value_bits, orig_unit, orig_value, orig_value_bits)
			VALUES (1, 0, 'sec/op', 1.5e-6, NULL, 'ns/op', 1500, NULL)`)
}

// writeOldStore writes a store at path with the frozen schema in
// testdata/ddl and the statements stmts, as an older mbench wrote it.
func writeOldStore(t *testing.T, path, ddl string, stmts ...string) {
	t.Helper()
	schema, err := os.ReadFile(filepath.Join("testdata", ddl))
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, stmt := range append([]string{string(schema)}, stmts...) {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("writing a store of %s: %v\n%s", ddl, err, stmt)
		}
	}
}

// tables lists the tables of db.
func tables(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return names
}

// columns describes the columns of table: name, type, NOT NULL, default and
// primary key, in order.
func columns(t *testing.T, db *sql.DB, table string) []string {
	t.Helper()
	rows, err := db.Query("SELECT name, type, \"notnull\", COALESCE(dflt_value, 'NULL'), pk FROM pragma_table_info(?)", table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var name, typ, dflt string
		var notNull, pk int
		if err := rows.Scan(&name, &typ, &notNull, &dflt, &pk); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, fmt.Sprintf("%s %s notnull=%d default=%s pk=%d", name, typ, notNull, dflt, pk))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return cols
}

func TestDir(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{".mbench/mbench.db", ".mbench"},
		{"m.db", "."},
		{"/var/lib/ci/results.db", "/var/lib/ci"},
		{"postgres://ci:secret@db.example:5432/bench", ""},
		{"postgresql:///bench?host=/run/postgresql", ""},
		{"", ""},
	} {
		if got := Dir(tc.path); got != tc.want {
			t.Errorf("Dir(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

func TestFiles(t *testing.T) {
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"m.db", []string{"m.db", "m.db-wal", "m.db-shm"}},
		{"postgres://ci:secret@db.example:5432/bench", nil},
		{"", nil},
	} {
		if got := Files(tc.path); !slices.Equal(got, tc.want) {
			t.Errorf("Files(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

// TestKeyValue checks that keyword/value connection strings are taken for
// PostgreSQL, so that none becomes the name of an SQLite file, and that
// Redact hides their password, quoted or not.
func TestKeyValue(t *testing.T) {
	for _, tc := range []struct {
		dsn    string
		pg     bool
		redact string
	}{
		{"host=db.example password=secret dbname=bench", true, "host=db.example password=xxxxx dbname=bench"},
		{"dbname=bench", true, "dbname=bench"},
		{"  user = ci password = 'a b\\' c' host=/run/postgresql", true, "  user = ci password = xxxxx host=/run/postgresql"},
		{"password=secret", true, "password=xxxxx"},
		// Server settings may come first in a string with several pairs.
		{"search_path=x host=db", true, "search_path=x host=db"},
		// Files.
		{"results=1.db", false, "results=1.db"},
		{"m.db", false, "m.db"},
		{".mbench/host=x.db", false, ".mbench/host=x.db"},
	} {
		if got := isPostgres(tc.dsn); got != tc.pg {
			t.Errorf("isPostgres(%q) = %v, want %v", tc.dsn, got, tc.pg)
		}
		if tc.pg && (Dir(tc.dsn) != "" || Files(tc.dsn) != nil) {
			t.Errorf("%q: Dir %q, Files %q: a PostgreSQL store has no files", tc.dsn, Dir(tc.dsn), Files(tc.dsn))
		}
		if got := Redact(tc.dsn); got != tc.redact {
			t.Errorf("Redact(%q) = %q, want %q", tc.dsn, got, tc.redact)
		}
	}
}

// TestOpenKeyValueNowhere opens a keyword/value string naming a server
// that is not there: the error names the server without the password, and
// no file is created.
func TestOpenKeyValueNowhere(t *testing.T) {
	t.Chdir(t.TempDir())
	const secret = "s3cr3t-pw"
	for _, ro := range []bool{false, true} {
		_, err := open("host=127.0.0.1 port=1 user=ci password="+secret+" dbname=bench connect_timeout=5", ro)
		if err == nil || !strings.Contains(err.Error(), "postgres://ci@127.0.0.1:1/bench") || !strings.Contains(err.Error(), "cannot connect") {
			t.Errorf("open (read-only %v): %v, want it to name the server and say it cannot connect", ro, err)
		}
		if err != nil && strings.Contains(err.Error(), secret) {
			t.Errorf("open (read-only %v): the error shows the password: %v", ro, err)
		}
	}
	if ents, _ := os.ReadDir("."); len(ents) > 0 {
		t.Errorf("opening a keyword/value string created %v", ents)
	}
}
