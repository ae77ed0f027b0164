package store

import (
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"

	"github.com/mbench/mbench/bench"
)

// schemaSQL creates a store of version schemaVersion from nothing.
//
//go:embed schema.sql
var schemaSQL string

// schemaVersion is the version of schema.sql. Raise it together with a new
// entry in migrations whenever schema.sql changes.
const schemaVersion = 4

// A migration upgrades a store from version from to from+1, inside the
// transaction that then records the new version.
type migration struct {
	from  int
	apply func(tx *sql.Tx) error
}

// migrations upgrades stores written by older versions of mbench, in order:
// migrations[i].from is i+1. A store of version v gets migrations[v-1:]
// applied when it is opened. schema.sql always describes the newest version,
// so a new store never runs a migration.
var migrations = []migration{
	{from: 1, apply: addVersion},
	{from: 2, apply: addRunOwners},
	{from: 3, apply: addPlatform},
}

// addVersion upgrades a store from version 1 to 2: measurements get the
// version coordinate (bench.Coord.Version). Every measurement of a version-1
// store comes from a run of one version, which the default, the empty
// string, says. ADD COLUMN with a constant default is portable and, in
// SQLite and PostgreSQL alike, rewrites no stored row, so it is quick on a
// large store.
func addVersion(tx *sql.Tx) error {
	_, err := tx.Exec("ALTER TABLE measurements ADD COLUMN version TEXT NOT NULL DEFAULT ''")
	return err
}

// addRunOwners upgrades a store from version 2 to 3: runs get an owner
// (table run_owners), by which a reader tells a run whose process died from
// one still going. Runs of a version-2 store have none and keep the status
// they have.
func addRunOwners(tx *sql.Tx) error {
	_, err := tx.Exec(createRunOwners)
	return err
}

// addPlatform upgrades a store from version 3 to 4: runs get the rest of
// their platform (bench.Platform) beside the toolchain, OS, architecture,
// host and CPU model they had, and the order of their benchmarks (table
// run_benchmarks, Run.Benchmarks). Runs of a version-3 store read the
// defaults, which bench.Platform takes for unknown, and no order. The
// columns are those of runs in schema.sql, in its order;
// TestMigrateFromVersion3 checks that both give the same tables.
func addPlatform(tx *sql.Tx) error {
	if _, err := tx.Exec(createRunBenchmarks); err != nil {
		return err
	}
	for _, col := range []string{
		"kernel TEXT NOT NULL DEFAULT ''",
		"cpus INTEGER NOT NULL DEFAULT 0",
		"gomaxprocs INTEGER NOT NULL DEFAULT 0",
		"governor TEXT NOT NULL DEFAULT ''",
		"turbo TEXT NOT NULL DEFAULT ''",
		"instance TEXT NOT NULL DEFAULT ''",
		"load_avg DOUBLE PRECISION",
		"busy DOUBLE PRECISION",
	} {
		if _, err := tx.Exec("ALTER TABLE runs ADD COLUMN " + col); err != nil {
			return err
		}
	}
	return nil
}

// createRunBenchmarks is the statement in schema.sql that creates
// run_benchmarks.
const createRunBenchmarks = `CREATE TABLE IF NOT EXISTS run_benchmarks (
	run   INTEGER NOT NULL REFERENCES runs (num),
	idx   INTEGER NOT NULL,
	bench INTEGER NOT NULL REFERENCES bench_keys (id),
	PRIMARY KEY (run, idx)
)`

// createRunOwners is the statement in schema.sql that creates run_owners;
// TestMigrateFromVersion1 checks that both create the same table.
const createRunOwners = `CREATE TABLE IF NOT EXISTS run_owners (
	run     INTEGER NOT NULL PRIMARY KEY REFERENCES runs (num),
	host    TEXT    NOT NULL,
	pid     BIGINT  NOT NULL,
	process TEXT    NOT NULL
)`

// busyTimeout is how long a statement waits for a lock another connection
// (another mbench process) holds before SQLite gives up with SQLITE_BUSY.
// Writers hold the lock for one short transaction, so a wait this long is
// rare; a writing transaction that meets it waits again (see withTx) rather
// than fail. It is a variable so that tests can shorten it.
var busyTimeout = 10 * time.Second

// busyHook, when set, is called each time a writing transaction has waited
// busyTimeout for the lock and is about to wait again. Tests use it to see
// a writer wait.
var busyHook func()

// SQLite result codes the store tells apart (primary codes, the low byte of
// an extended code).
const (
	sqliteBusy   = 5
	sqliteNotADB = 26
)

// A Store is an open result store. Its methods are safe for concurrent use.
type Store struct {
	db *sql.DB
	// path names the store in messages: the file, or the PostgreSQL
	// server and database without the password.
	path     string
	readOnly bool
	pg       bool // a PostgreSQL store; an SQLite file otherwise
	// lost, once a write has lost the connection to a PostgreSQL server,
	// is the error every later write fails with.
	lost atomic.Pointer[error]
	// version is the schema version of the file: schemaVersion when the
	// store is open for writing (Open upgrades older stores), possibly
	// older when it is open read-only, and reads adapt to it.
	version int
	stmts   statements
	// repo is the directory whose git repository resolves revisions
	// (SetRepository), "" for the current directory.
	repo string

	// mu guards the caches below, which map names to the keys of rows
	// that are committed and never change or go away, so they stay valid
	// while other processes write to the same file.
	mu      sync.Mutex
	runs    map[string]int64    // run id -> runs.num
	owned   map[string]bool     // run ids this process owns
	keys    map[bench.Key]int64 // -> bench_keys.id
	configs map[string]int64    // config digest -> config_sets.id
}

// Open opens the store at path for reading and writing, creating the file,
// its parent directories and the schema when they do not exist, and
// upgrading the schema of a store an older mbench wrote.
//
// A path of the form postgres://... or postgresql://... (a libpq URL, such
// as postgres://user:pass@host:5432/db or postgres:///db?host=/run/dir),
// or a libpq keyword/value string ("host=db.example dbname=bench user=ci")
// opens a store in that PostgreSQL database instead: the schema and its
// version, the migrations and the durability of each write are those of
// an SQLite store. Open fails at once, naming the server but not the
// password, when the server cannot be reached, refuses the login, or the
// database holds tables but no mbench store.
//
// An empty file is taken for a new store: SQLite creates the file before it
// writes the schema, so an empty file is also what a concurrent Open of a
// new store shows for an instant.
func Open(path string) (*Store, error) {
	return open(path, false)
}

// OpenReadOnly opens the existing store at path for reading only. It never
// creates the store, writes to it, upgrades its schema or takes the write
// lock, so it works while other processes write to the store and on a store
// an older mbench wrote (which stays as it is). SQLite may create the
// -wal and -shm files beside the store that all readers of a WAL database
// share; they hold no results, and the next writer to close removes them.
// OpenReadOnly fails, naming path, when path does not exist (the error
// wraps fs.ErrNotExist) or holds no mbench store; the Store's writing
// methods fail.
func OpenReadOnly(path string) (*Store, error) {
	return open(path, true)
}

func open(path string, readOnly bool) (*Store, error) {
	if path == "" {
		return nil, errors.New("store: open: empty path")
	}
	if isPostgres(path) {
		return openPostgres(path, readOnly)
	}
	if readOnly {
		fi, err := os.Stat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("store: open %s: no store: %w", path, fs.ErrNotExist)
		case err != nil:
			return nil, fmt.Errorf("store: open %s: %w", path, err)
		case fi.IsDir():
			return nil, fmt.Errorf("store: open %s: a directory, not a store", path)
		case fi.Size() == 0:
			return nil, fmt.Errorf("store: open %s: empty file, not an mbench store (no schema version)", path)
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	s, err := openSQLite(abs, path, readOnly, false)
	if err != nil && readOnly && immutableReadable(path, err) {
		s, err = openSQLite(abs, path, readOnly, true)
	}
	if err != nil {
		var e *sqlite.Error
		if errors.As(err, &e) && e.Code()&0xff == sqliteNotADB {
			return nil, fmt.Errorf("store: open %s: not an SQLite database (%v)", path, err)
		}
		return nil, fmt.Errorf("store: open %s: %w", path, explain(path, err))
	}
	return s, nil
}

// openSQLite opens the SQLite store at the absolute path abs, which path
// names in messages; immutable opens it as a file nobody writes (see dsn).
func openSQLite(abs, path string, readOnly, immutable bool) (*Store, error) {
	db, err := sql.Open("sqlite", dsn(abs, readOnly, immutable))
	if err != nil {
		return nil, err
	}
	return openStore(db, path, readOnly, false)
}

// immutableReadable reports whether the store at path, which a read-only
// open failed to read with err, can be read as immutable: a store in WAL
// mode is read through its -shm file, which SQLite must create beside it
// when it is missing, and cannot in a folder or on a file system that is
// read-only. There nobody can write the store either (a writer needs its
// -wal file), so that it may be read as it is, unless a -wal file that a
// writer left holds commits, which only SQLite with its -shm file reads.
func immutableReadable(path string, err error) bool {
	var e *sqlite.Error
	if !errors.As(err, &e) || (e.Code()&0xff != sqliteCantOpen && e.Code()&0xff != sqliteReadOnly) {
		return false
	}
	if readOnly(path) == "" {
		return false
	}
	fi, serr := os.Stat(path + "-wal")
	return errors.Is(serr, fs.ErrNotExist) || serr == nil && fi.Size() == 0
}

// openStore readies the store in db, which path names, and closes db when
// it fails.
//
// It keeps one connection: the pragmas, prepared statements and
// transactions of a Store all live on it, and SQLite has one writer at a
// time anyway, as a PostgreSQL store has through its write lock.
// Goroutines of one process queue for it; other processes wait for the
// file lock (busyTimeout) or the PostgreSQL write lock.
func openStore(db *sql.DB, path string, readOnly, pg bool) (*Store, error) {
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	s := &Store{
		db:       db,
		path:     path,
		readOnly: readOnly,
		pg:       pg,
		runs:     make(map[string]int64),
		owned:    make(map[string]bool),
		keys:     make(map[bench.Key]int64),
		configs:  make(map[string]int64),
	}
	if err := s.init(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// dsn returns the modernc.org/sqlite data source name for the file at the
// absolute path abs. The file: URI form lets the path contain '?' and '#'.
//
// A writing store's connection has synchronous=FULL, a per-connection
// setting (see the package comment), and _txlock=immediate, which makes
// every writing transaction take the write lock at BEGIN, when
// busy_timeout can still wait for it, instead of failing with SQLITE_BUSY
// when a read turns into a write. A read-only store's connection opens the
// file with mode=ro, so that SQLite neither creates nor writes it, and sets
// query_only as a second guard; immutable tells SQLite that nobody writes
// the file, so that it reads it without locks or a -shm file (see
// immutableReadable).
func dsn(abs string, readOnly, immutable bool) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows: file:/C:/dir/mbench.db
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	if readOnly {
		q.Set("mode", "ro")
		q.Add("_pragma", "query_only(1)")
		if immutable {
			q.Set("immutable", "1")
		}
	} else {
		q.Add("_pragma", "foreign_keys(1)")
		q.Add("_pragma", "synchronous(FULL)")
		q.Set("_txlock", "immediate")
	}
	return "file:" + (&url.URL{Path: p}).EscapedPath() + "?" + q.Encode()
}

// init readies a new connection. For writing, it switches an SQLite file
// to WAL mode, creates or upgrades the schema and prepares the statements;
// read only, it checks that the database is a store this mbench can read.
func (s *Store) init() error {
	if s.readOnly {
		v, err := s.storedVersion(s.db)
		if err != nil {
			return err
		}
		if v == 0 {
			return fmt.Errorf("%s without tables, not an mbench store (no schema version)", s.dialect())
		}
		s.version = v
		return nil
	}
	if !s.pg {
		var mode string
		err := retryBusy(func() error {
			return s.db.QueryRow("PRAGMA journal_mode = WAL").Scan(&mode)
		})
		if err != nil {
			return err
		}
		if !strings.EqualFold(mode, "wal") {
			return fmt.Errorf("cannot use write-ahead logging (journal mode is %q)", mode)
		}
	}
	if err := s.withTx(s.migrate); err != nil {
		return err
	}
	s.version = schemaVersion
	return s.stmts.prepare(s.db)
}

// A querier is a *sql.DB or *sql.Tx.
type querier interface {
	QueryRow(query string, args ...any) *sql.Row
}

// dialect names the kind of database of s in messages.
func (s *Store) dialect() string {
	if s.pg {
		return "a PostgreSQL database"
	}
	return "an SQLite database"
}

// storedVersion returns the schema version of the database q reads, or 0
// when it has no tables at all (a new store). It fails when the database is
// not an mbench store or one newer than this mbench.
func (s *Store) storedVersion(q querier) (int, error) {
	tables := "SELECT name FROM sqlite_master WHERE type = 'table'"
	if s.pg {
		tables = pgTables
	}
	var hasVersion, n int
	err := q.QueryRow(`SELECT COUNT(CASE WHEN name = 'schema_version' THEN 1 END), COUNT(*)
		FROM (`+tables+`) t`).Scan(&hasVersion, &n)
	if err != nil {
		return 0, err
	}
	if hasVersion == 0 {
		if n > 0 {
			return 0, fmt.Errorf("%s but not an mbench store (no schema_version table)", s.dialect())
		}
		return 0, nil
	}
	var v sql.NullInt64
	if err := q.QueryRow("SELECT MAX(version) FROM schema_version").Scan(&v); err != nil {
		return 0, err
	}
	switch {
	case !v.Valid:
		return 0, fmt.Errorf("no schema version (table schema_version is empty); this mbench reads versions 1 to %d", schemaVersion)
	case v.Int64 > schemaVersion:
		return 0, fmt.Errorf("schema version %d is newer than this mbench understands (%d); upgrade mbench", v.Int64, schemaVersion)
	case v.Int64 < 1:
		return 0, fmt.Errorf("schema version %d is not one mbench writes (1 to %d)", v.Int64, schemaVersion)
	}
	return int(v.Int64), nil
}

// migrate brings the schema to schemaVersion in transaction tx, so that
// two processes opening a new store at once create it only once.
func (s *Store) migrate(tx *sql.Tx) error {
	v, err := s.storedVersion(tx)
	if err != nil {
		return err
	}
	if v == 0 {
		if _, err := tx.Exec(schemaSQL); err != nil {
			return fmt.Errorf("creating schema: %w", err)
		}
		_, err := tx.Exec("INSERT INTO schema_version (version) VALUES (?)", schemaVersion)
		return err
	}
	if v == schemaVersion {
		return nil
	}
	for _, m := range migrations[v-1:] {
		if err := m.apply(tx); err != nil {
			return fmt.Errorf("upgrading schema from version %d: %w", m.from, err)
		}
	}
	_, err = tx.Exec("UPDATE schema_version SET version = ?", schemaVersion)
	return err
}

// withTx runs f in a writing transaction and commits it. When another
// process holds the write lock for longer than busyTimeout, the
// transaction waits for it again, as long as it takes: a run that has
// measured for an hour must not fail because another mbench, or someone
// with the sqlite3 shell, held the lock for a while. f may run more than
// once, each time in a new transaction.
//
// On PostgreSQL the transaction first takes an advisory lock that all
// writers of the database share, as BEGIN IMMEDIATE takes SQLite's write
// lock: writers of many processes and hosts take turns, so that the keys
// the store assigns (the largest so far plus one) never collide and the
// interned benchmark keys and configurations are stored once. Readers do
// not take it. A transaction that loses the connection fails with
// ErrConnectionLost, and so does every later write of s.
func (s *Store) withTx(f func(tx *sql.Tx) error) error {
	if p := s.lost.Load(); p != nil {
		return *p
	}
	err := retryBusy(func() error {
		tx, err := s.db.Begin()
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if s.pg {
			if _, err := tx.Exec(fmt.Sprintf("SELECT pg_advisory_xact_lock(%d)", writeLock)); err != nil {
				return err
			}
		}
		if err := f(tx); err != nil {
			return err
		}
		return tx.Commit()
	})
	if s.pg && connectionLost(err) {
		err = fmt.Errorf("%w %s: %w", ErrConnectionLost, s.path, err)
		s.lost.CompareAndSwap(nil, &err)
	}
	if !s.pg && err != nil {
		err = explain(s.path, err)
	}
	return err
}

// retryBusy calls f until it does not fail with SQLITE_BUSY, or, on
// PostgreSQL, with a serialization failure or deadlock.
func retryBusy(f func() error) error {
	for {
		err := f()
		var e *sqlite.Error
		if !pgRetry(err) && (!errors.As(err, &e) || e.Code()&0xff != sqliteBusy) {
			return err
		}
		if busyHook != nil {
			busyHook()
		}
	}
}

// Dir returns the directory of the store Open would open at path, where
// files that belong with its results are kept (mbench doctor -noise keeps
// the machine's noise there), or "" for a PostgreSQL store, which has no
// directory and which many machines may share.
func Dir(path string) string {
	if isPostgres(path) || path == "" {
		return ""
	}
	return filepath.Dir(path)
}

// Files returns the files of the SQLite store Open would open at path:
// the database and, beside it, the -wal and -shm files in which SQLite
// keeps its newest commits until they reach the database; nil for a
// PostgreSQL store. None of them may be overwritten without losing
// results, whether they exist yet or not.
func Files(path string) []string {
	if isPostgres(path) || path == "" {
		return nil
	}
	return []string{path, path + "-wal", path + "-shm"}
}

// Name names the store for messages: its file, or its PostgreSQL server
// and database without the password.
func (s *Store) Name() string { return s.path }

// writable fails for a store opened read-only, and for one that lost its
// connection.
func (s *Store) writable(op string) error {
	if s.readOnly {
		return fmt.Errorf("store: %s: %s is open read-only", op, s.path)
	}
	if p := s.lost.Load(); p != nil {
		return fmt.Errorf("store: %s: %w", op, *p)
	}
	return nil
}

// Close closes the store. Everything Append and the other writers returned
// from is already durable; Close only releases the file.
func (s *Store) Close() error {
	s.stmts.close()
	if err := s.db.Close(); err != nil {
		if !s.pg {
			err = explain(s.path, err)
		}
		return fmt.Errorf("store: close %s: %w", s.path, err)
	}
	return nil
}

// statements are the store's prepared statements. Writers use them through
// tx.Stmt, which on the store's single connection costs no new prepare.
type statements struct {
	runNum     *sql.Stmt
	nextRun    *sql.Stmt
	insRun     *sql.Stmt
	insOwner   *sql.Stmt
	setSetting *sql.Stmt
	insUnit    *sql.Stmt
	insBench   *sql.Stmt
	keyID      *sql.Stmt
	nextKey    *sql.Stmt
	insKey     *sql.Stmt
	configID   *sql.Stmt
	nextConfig *sql.Stmt
	insConfig  *sql.Stmt
	insItem    *sql.Stmt
	nextMeas   *sql.Stmt
	insMeas    *sql.Stmt
	insValue   *sql.Stmt
}

func (st *statements) list() []struct {
	p     **sql.Stmt
	query string
} {
	return []struct {
		p     **sql.Stmt
		query string
	}{
		{&st.runNum, "SELECT num FROM runs WHERE id = ?"},
		{&st.nextRun, "SELECT COALESCE(MAX(num), 0) + 1 FROM runs"},
		{&st.insRun, `INSERT INTO runs (num, id, label, commit_hash, dirty, toolchain,
			goos, goarch, host, cpu, start_ns, end_ns, status,
			kernel, cpus, gomaxprocs, governor, turbo, instance, load_avg, busy)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`},
		{&st.insOwner, `INSERT INTO run_owners (run, host, pid, process) VALUES (?, ?, ?, ?)
			ON CONFLICT (run) DO UPDATE SET host = excluded.host, pid = excluded.pid, process = excluded.process`},
		{&st.setSetting, `INSERT INTO run_settings (run, name, value) VALUES (?, ?, ?)
			ON CONFLICT (run, name) DO UPDATE SET value = excluded.value`},
		{&st.insUnit, "INSERT INTO run_units (run, idx, unit, name, value) VALUES (?, ?, ?, ?, ?)"},
		{&st.insBench, "INSERT INTO run_benchmarks (run, idx, bench) VALUES (?, ?, ?)"},
		{&st.keyID, "SELECT id FROM bench_keys WHERE package = ? AND name = ? AND procs = ?"},
		{&st.nextKey, "SELECT COALESCE(MAX(id), 0) + 1 FROM bench_keys"},
		{&st.insKey, "INSERT INTO bench_keys (id, package, name, procs) VALUES (?, ?, ?, ?)"},
		{&st.configID, "SELECT id FROM config_sets WHERE digest = ?"},
		{&st.nextConfig, "SELECT COALESCE(MAX(id), 0) + 1 FROM config_sets"},
		{&st.insConfig, "INSERT INTO config_sets (id, digest) VALUES (?, ?)"},
		{&st.insItem, "INSERT INTO config_items (config, idx, name, value) VALUES (?, ?, ?, ?)"},
		{&st.nextMeas, "SELECT COALESCE(MAX(id), 0) + 1 FROM measurements"},
		{&st.insMeas, `INSERT INTO measurements (id, run, bench, version, instance, suite_run, fork,
			iteration, phase, n, start_ns, end_ns, config)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`},
		{&st.insValue, `INSERT INTO measurement_values (measurement, idx, unit, value, value_bits,
			orig_unit, orig_value, orig_value_bits) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`},
	}
}

func (st *statements) prepare(db *sql.DB) error {
	for _, s := range st.list() {
		p, err := db.Prepare(s.query)
		if err != nil {
			st.close()
			return fmt.Errorf("preparing %q: %w", s.query, err)
		}
		*s.p = p
	}
	return nil
}

func (st *statements) close() {
	for _, s := range st.list() {
		if *s.p != nil {
			(*s.p).Close()
			*s.p = nil
		}
	}
}
