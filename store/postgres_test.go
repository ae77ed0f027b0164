package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// An opener opens a new, empty store for a test and returns it with the
// path or URL that opens it again.
type opener func(t testing.TB) (*Store, string)

// backends are the kinds of store the tests run against: an SQLite file
// and a PostgreSQL database (skipped where there is no server).
var backends = []struct {
	name string
	open opener
}{
	{"sqlite", openTemp},
	{"postgres", openPostgresTemp},
}

// eachBackend runs test against each backend, as a subtest named after it.
func eachBackend(t *testing.T, test func(t *testing.T, open opener)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { test(t, b.open) })
	}
}

// openPostgresTemp opens a store in a new database of the test server.
func openPostgresTemp(t testing.TB) (*Store, string) {
	t.Helper()
	dsn := pgtest.DSN(t)
	s, err := Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s, dsn
}

func TestTranslate(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT id FROM runs WHERE id = ?", "SELECT id FROM runs WHERE id = $1"},
		{"INSERT INTO t (a, b) VALUES (?, ?)", "INSERT INTO t (a, b) VALUES ($1, $2)"},
		{"CREATE TABLE t (a INTEGER NOT NULL, b integer, interval_ms INTEGERS)",
			"CREATE TABLE t (a BIGINT NOT NULL, b BIGINT, interval_ms INTEGERS)"},
		{"SELECT '?', 'it''s ?', \"a?\" FROM t WHERE x = ? -- what?\n AND y = ? /* ? */",
			"SELECT '?', 'it''s ?', \"a?\" FROM t WHERE x = $1 -- what?\n AND y = $2 /* ? */"},
		{"SELECT 'INTEGER', x::INTEGER", "SELECT 'INTEGER', x::BIGINT"},
		{"SELECT 'unterminated ?", "SELECT 'unterminated ?"},
		{"", ""},
	} {
		if got := translate(tc.in); got != tc.want {
			t.Errorf("translate(%q) =\n%q, want\n%q", tc.in, got, tc.want)
		}
	}
}

// TestSchemaSame checks that a PostgreSQL store has the tables and columns,
// in order, of an SQLite store, and the same schema version.
func TestSchemaSame(t *testing.T) {
	lite, _ := openTemp(t)
	pg, _ := openPostgresTemp(t)
	ltables := tables(t, lite.db)
	ptables, err := pg.column(pgTables + " ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ltables, ptables) {
		t.Fatalf("PostgreSQL store has tables %v, SQLite %v", ptables, ltables)
	}
	for _, table := range ltables {
		pcols, err := pg.column(`SELECT column_name FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position`, table)
		if err != nil {
			t.Fatal(err)
		}
		var lcols []string
		for _, c := range columns(t, lite.db, table) {
			name, _, _ := strings.Cut(c, " ")
			lcols = append(lcols, name)
		}
		if !slices.Equal(lcols, pcols) {
			t.Errorf("table %s: PostgreSQL columns %v, SQLite %v", table, pcols, lcols)
		}
	}
	// Every integer column is 64 bits, as SQLite's INTEGER.
	small, err := pg.column(`SELECT table_name || '.' || column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND data_type IN ('integer', 'smallint')`)
	if err != nil {
		t.Fatal(err)
	}
	if len(small) > 0 {
		t.Errorf("PostgreSQL columns narrower than 64 bits: %v", small)
	}
	if lite.version != pg.version {
		t.Errorf("schema versions: SQLite %d, PostgreSQL %d", lite.version, pg.version)
	}
}

// TestPostgresOpenFaults opens stores that cannot be used: each fails at
// once, naming the server and never the password.
func TestPostgresOpenFaults(t *testing.T) {
	base := pgtest.Server(t)
	const secret = "s3cr3t-pw"
	wrongUser, err := pgtest.WithDatabase(base, "mbench")
	if err != nil {
		t.Fatal(err)
	}
	wrongUser = strings.Replace(wrongUser, "user=postgres", "user=nosuchuser&password="+secret, 1)
	notAStore := pgtest.DSN(t)
	nowhere := filepath.Join(t.TempDir(), "none")
	if err := pgtest.Exec(notAStore, "CREATE TABLE accounts (id BIGINT)"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dsn string
		want      []string
	}{
		{"refused", "postgres://mbench:" + secret + "@127.0.0.1:1/results?connect_timeout=5",
			[]string{"postgres://mbench@127.0.0.1:1/results", "cannot connect"}},
		{"no such socket", "postgres:///results?host=" + nowhere,
			[]string{"/results?host=" + nowhere, "cannot connect"}},
		{"not a URL", "postgres://u:" + secret + "@[::1/x", []string{"postgres://u:xxxxx@"}},
		{"no such database", strings.Replace(notAStore, "mbench_test", "nosuchdb", 1), []string{"nosuchdb", "cannot connect"}},
		{"not an mbench store", notAStore, []string{"a PostgreSQL database but not an mbench store"}},
	} {
		for _, ro := range []bool{false, true} {
			s, err := open(tc.dsn, ro)
			if err == nil {
				s.Close()
				t.Errorf("%s (read-only %v): opened %s", tc.name, ro, tc.dsn)
				continue
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s (read-only %v): err = %v, want it to contain %q", tc.name, ro, err, w)
				}
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("%s: the error shows the password: %v", tc.name, err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: the error takes several lines: %q", tc.name, err)
			}
		}
	}
	// A role that does not exist: trust authentication still checks it.
	if _, err := Open(wrongUser); err == nil || !strings.Contains(err.Error(), "nosuchuser") || strings.Contains(err.Error(), secret) {
		t.Errorf("Open as an unknown role: err = %v, want one naming the role but not the password", err)
	}
	// A new, empty database is a new store, and read-only it is none.
	empty := pgtest.DSN(t)
	if _, err := OpenReadOnly(empty); err == nil || !strings.Contains(err.Error(), "not an mbench store") {
		t.Errorf("OpenReadOnly of an empty database: err = %v, want one saying it is not a store", err)
	}
}

// TestOpenKeyValue opens a store through a keyword/value connection
// string, as libpq writes them, and names it without the password.
func TestOpenKeyValue(t *testing.T) {
	cfg, err := pgx.ParseConfig(pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	kv := fmt.Sprintf("host=%s port=%d dbname=%s user=%s password='not used'", cfg.Host, cfg.Port, cfg.Database, cfg.User)
	s, err := Open(kv)
	if err != nil {
		t.Fatalf("Open(%q): %v", Redact(kv), err)
	}
	defer s.Close()
	if !s.pg || !strings.Contains(s.Name(), cfg.Database) || strings.Contains(s.Name(), "not used") {
		t.Errorf("store %q (PostgreSQL %v), want the database %s without the password", s.Name(), s.pg, cfg.Database)
	}
	if _, err := s.CreateRun(&bench.Run{Label: "kv"}); err != nil {
		t.Error(err)
	}
}

// TestConnectionLost ends the server's session of a store between two
// Appends, as a restarted server or a broken network would: the Append
// fails with ErrConnectionLost, naming the server; so does every later
// write, and what was committed before stays.
func TestConnectionLost(t *testing.T) {
	s, dsn := openPostgresTemp(t)
	id, err := s.CreateRun(&bench.Run{Label: "lost"})
	if err != nil {
		t.Fatal(err)
	}
	m := func(i int) bench.Measurement {
		return bench.Measurement{Key: bench.Key{Name: "B"}, N: 1, Coord: bench.Coord{Iteration: i},
			Values: []bench.Value{{Value: float64(i), Unit: "sec/op"}}}
	}
	for i := range 3 {
		if err := s.Append(id, m(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := pgtest.Exec(dsn, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid()`); err != nil {
		t.Fatal(err)
	}
	err = s.Append(id, m(3))
	if !errors.Is(err, ErrConnectionLost) || !strings.Contains(err.Error(), s.path) {
		t.Fatalf("Append after the server ended the session: err = %v, want ErrConnectionLost naming %s", err, s.path)
	}
	if err := s.Append(id, m(4)); !errors.Is(err, ErrConnectionLost) {
		t.Errorf("a later Append: err = %v, want ErrConnectionLost", err)
	}
	if err := s.Finish(id, m(0).End, StatusComplete); !errors.Is(err, ErrConnectionLost) {
		t.Errorf("a later Finish: err = %v, want ErrConnectionLost", err)
	}
	r, err := OpenReadOnly(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	run, err := r.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Measurements) != 3 {
		t.Errorf("after the lost connection the run has %d measurements, want the 3 committed", len(run.Measurements))
	}
}

// TestManyWriters writes through several stores at once, each on its own
// connection, as shards on several machines do: no measurement is lost or
// stored twice, and each benchmark key and configuration is stored once.
func TestManyWriters(t *testing.T) { eachBackend(t, testManyWriters) }

func testManyWriters(t *testing.T, open opener) {
	first, path := open(t)
	const writers, n = 4, 60
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	ids := make([]string, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(path)
			if err != nil {
				errs <- err
				return
			}
			defer s.Close()
			id, err := s.CreateRun(&bench.Run{Label: "shared", Benchmarks: []bench.Key{{Name: fmt.Sprint("B", w)}}})
			if err != nil {
				errs <- err
				return
			}
			ids[w] = id
			for i := range n {
				m := bench.Measurement{Key: bench.Key{Name: fmt.Sprint("B", i%5)}, N: i + 1,
					Coord:  bench.Coord{Iteration: i, Instance: fmt.Sprint("shard", w)},
					Values: []bench.Value{{Value: float64(w*1000 + i), Unit: "sec/op"}},
					Config: config("k", fmt.Sprint(i%3))}
				if err := s.Append(id, m); err != nil {
					errs <- fmt.Errorf("writer %d, append %d: %w", w, i, err)
					return
				}
			}
			errs <- s.Finish(id, time.Now(), StatusComplete)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for w, id := range ids {
		r, err := first.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Measurements) != n {
			t.Errorf("writer %d: %d measurements stored, want %d", w, len(r.Measurements), n)
			continue
		}
		for i, m := range r.Measurements {
			if m.Coord.Iteration != i || m.Values[0].Value != float64(w*1000+i) {
				t.Errorf("writer %d: measurement %d is %+v", w, i, m)
				break
			}
		}
	}
	var keys, configs, dup int
	for q, p := range map[string]*int{
		"SELECT COUNT(*) FROM bench_keys":  &keys,
		"SELECT COUNT(*) FROM config_sets": &configs,
		"SELECT COUNT(*) FROM (SELECT id FROM measurements GROUP BY id HAVING COUNT(*) > 1) d": &dup,
	} {
		if err := first.db.QueryRow(q).Scan(p); err != nil {
			t.Fatal(err)
		}
	}
	if keys != 5 || configs != 3 || dup != 0 {
		t.Errorf("%d benchmark keys, %d configurations, %d duplicate ids; want 5, 3, 0", keys, configs, dup)
	}
}

func TestEscapeText(t *testing.T) {
	for _, s := range []string{"", "plain", "ünïcode", "nul\x00byte", "bad\xffutf8", textEscape, textEscape + `"x"`, "\x01", "q"} {
		e := escapeText(s)
		if !utf8.ValidString(e) || strings.ContainsRune(e, 0) {
			t.Errorf("escapeText(%q) = %q, which PostgreSQL's text cannot hold", s, e)
		}
		if got := e; strings.HasPrefix(e, textEscape) {
			got = unescapeText(e)
			if got != s {
				t.Errorf("unescapeText(escapeText(%q)) = %q", s, got)
			}
		} else if e != s {
			t.Errorf("escapeText(%q) = %q, want it unchanged", s, e)
		}
	}
}

// TestWriterWaitsAndLosesConnection holds the store's write lock from
// another connection, so that an Append waits for it inside its
// transaction, and ends the Append's session there: the Append fails with
// ErrConnectionLost and stores nothing, and another writer goes on.
func TestWriterWaitsAndLosesConnection(t *testing.T) {
	s, dsn := openPostgresTemp(t)
	id, err := s.CreateRun(&bench.Run{Label: "waits"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	holder, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(ctx)
	if _, err := holder.Exec(ctx, fmt.Sprintf("SELECT pg_advisory_lock(%d)", int64(writeLock))); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- s.Append(id, bench.Measurement{Key: bench.Key{Name: "B"}, N: 1, Values: []bench.Value{{Value: 1, Unit: "sec/op"}}})
	}()
	// Wait until the Append waits for the lock, then end its session.
	for {
		var n int
		err := holder.QueryRow(ctx, `SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("Append returned while another connection held the write lock: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := <-done; !errors.Is(err, ErrConnectionLost) {
		t.Fatalf("Append whose session ended while it waited: err = %v, want ErrConnectionLost", err)
	}
	if _, err := holder.Exec(ctx, fmt.Sprintf("SELECT pg_advisory_unlock(%d)", int64(writeLock))); err != nil {
		t.Fatal(err)
	}
	other, err := Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.Append(id, bench.Measurement{Key: bench.Key{Name: "B"}, N: 2}); err != nil {
		t.Fatal(err)
	}
	r, err := other.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Measurements) != 1 || r.Measurements[0].N != 2 {
		t.Errorf("run holds %+v, want only the second writer's measurement", r.Measurements)
	}
}

// TestOpenNewAtOnce opens one new PostgreSQL store from several
// connections at once, as the shards of a first CI job do: one creates the
// schema, the others find it.
func TestOpenNewAtOnce(t *testing.T) {
	dsn := pgtest.DSN(t)
	const n = 4
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(dsn)
			if err == nil {
				_, err = s.CreateRun(&bench.Run{Label: "first"})
				s.Close()
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	s, err := OpenReadOnly(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var versions int
	if err := s.db.QueryRow("SELECT COUNT(*) FROM schema_version").Scan(&versions); err != nil {
		t.Fatal(err)
	}
	if infos, err := s.Runs(); err != nil || len(infos) != n || versions != 1 {
		t.Errorf("%d runs (%v) and %d schema versions, want %d and 1", len(infos), err, versions, n)
	}
}

// TestMigratePostgres upgrades a PostgreSQL store of schema version 1 (as
// testdata/schema-v1.sql, frozen, and the translation make it) with the
// migrations an SQLite store takes: it ends with the tables of a new
// store, and its run loads.
func TestMigratePostgres(t *testing.T) {
	dsn := pgtest.DSN(t)
	schema, err := os.ReadFile(filepath.Join("testdata", "schema-v1.sql"))
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{translate(string(schema)),
		"INSERT INTO schema_version (version) VALUES (1)",
		`INSERT INTO runs (num, id, label, commit_hash, dirty, toolchain, goos, goarch, host, cpu, start_ns, end_ns, status)
			VALUES (1, 'a1b2c3d4e5f6', 'main', 'abc', 0, 'go1.26.8', 'linux', 'amd64', 'h', 'c', NULL, NULL, 'complete')`,
		"INSERT INTO bench_keys (id, package, name, procs) VALUES (1, 'example.com/p', 'Decode', 2)",
		`INSERT INTO measurements (id, run, bench, instance, suite_run, fork, iteration, phase, n, start_ns, end_ns, config)
			VALUES (1, 1, 1, 'ci-7', 1, 2, 3, 0, 1000, NULL, NULL, NULL)`,
	} {
		if err := pgtest.Exec(dsn, stmt); err != nil {
			t.Fatalf("writing a version-1 store: %v\n%s", err, stmt)
		}
	}
	old, err := OpenReadOnly(dsn)
	if err != nil {
		t.Fatal(err)
	}
	if old.version != 1 {
		t.Errorf("read-only, the old store has version %d, want 1", old.version)
	}
	if r, err := old.Load(v1RunID); err != nil || len(r.Measurements) != 1 {
		t.Errorf("the version-1 store read as it is: %+v, %v", r, err)
	}
	old.Close()

	s, err := Open(dsn)
	if err != nil {
		t.Fatalf("upgrading a version-1 store: %v", err)
	}
	defer s.Close()
	fresh, _ := openPostgresTemp(t)
	names, err := fresh.column(pgTables + " ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range names {
		want := pgColumns(t, fresh, table)
		if got := pgColumns(t, s, table); !slices.Equal(got, want) {
			t.Errorf("table %s after the upgrade:\n%v\nwant, as in a new store,\n%v", table, got, want)
		}
	}
	r, err := s.Load(v1RunID)
	if err != nil || len(r.Measurements) != 1 || r.Measurements[0].Coord.Instance != "ci-7" {
		t.Errorf("the upgraded run loads as %+v, %v", r, err)
	}
}

// pgColumns describes the columns of table in a PostgreSQL store: name,
// type, nullability and default, in order.
func pgColumns(t *testing.T, s *Store, table string) []string {
	t.Helper()
	cols, err := s.column(`SELECT column_name || ' ' || data_type || ' ' || is_nullable || ' ' || COALESCE(column_default, '')
		FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?
		ORDER BY ordinal_position`, table)
	if err != nil {
		t.Fatal(err)
	}
	return cols
}

// TestIdleInTransaction checks that the server ends a session of the store
// that sits idle inside a transaction, which would hold the write lock
// from every other writer, unless the URL says otherwise.
func TestIdleInTransaction(t *testing.T) {
	s, dsn := openPostgresTemp(t)
	var got string
	if err := s.db.QueryRow("SHOW idle_in_transaction_session_timeout").Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != idleInTx {
		t.Errorf("idle_in_transaction_session_timeout = %s, want %s", got, idleInTx)
	}
	o, err := Open(dsn + "&idle_in_transaction_session_timeout=5min")
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if err := o.db.QueryRow("SHOW idle_in_transaction_session_timeout").Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != "5min" {
		t.Errorf("idle_in_transaction_session_timeout = %s with the URL's 5min, want 5min", got)
	}
}

func TestConnectionLostErrors(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{&pgconn.PgError{Code: "57P01"}, true},                           // admin_shutdown
		{&pgconn.PgError{Code: "08006"}, true},                           // connection_failure
		{fmt.Errorf("append: %w", &pgconn.PgError{Code: "25P03"}), true}, // idle_in_transaction_session_timeout
		{&pgconn.PgError{Code: "23505"}, false},                          // unique_violation
		{&pgconn.PgError{Code: "40001"}, false},                          // serialization_failure
		{io.ErrUnexpectedEOF, true},
		{errors.New("no such run"), false},
	} {
		if got := connectionLost(tc.err); got != tc.want {
			t.Errorf("connectionLost(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
