package store

import (
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
const schemaVersion = 2

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

// busyTimeout is how long a statement waits for a lock another connection
// (another mbench process) holds before failing. Writers hold the lock for
// one short transaction, so waiting this long means something is stuck.
const busyTimeout = 10 * time.Second

// sqliteNotADB is SQLite's result code SQLITE_NOTADB.
const sqliteNotADB = 26

// A Store is an open result store. Its methods are safe for concurrent use.
type Store struct {
	db    *sql.DB
	path  string
	stmts statements

	// mu guards the caches below, which map names to the keys of rows
	// that are committed and never change or go away, so they stay valid
	// while other processes write to the same file.
	mu      sync.Mutex
	runs    map[string]int64    // run id -> runs.num
	keys    map[bench.Key]int64 // -> bench_keys.id
	configs map[string]int64    // config digest -> config_sets.id
}

// Open opens the store at path, creating the file, its parent directories
// and the schema when they do not exist, and upgrading the schema of a store
// an older mbench wrote.
func Open(path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("store: open: empty path")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	db, err := sql.Open("sqlite", dsn(abs))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// One connection: the pragmas, prepared statements and transactions
	// of a Store all live on it, and SQLite has one writer at a time
	// anyway. Goroutines of one process queue for it; other processes
	// wait for the file lock (busyTimeout).
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	s := &Store{
		db:      db,
		path:    path,
		runs:    make(map[string]int64),
		keys:    make(map[bench.Key]int64),
		configs: make(map[string]int64),
	}
	if err := s.init(); err != nil {
		db.Close()
		var e *sqlite.Error
		if errors.As(err, &e) && e.Code()&0xff == sqliteNotADB {
			return nil, fmt.Errorf("store: open %s: not an SQLite database (%v)", path, err)
		}
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return s, nil
}

// dsn returns the modernc.org/sqlite data source name for the file at the
// absolute path abs. The file: URI form lets the path contain '?' and '#'.
// synchronous is a per-connection setting, so it is part of every
// connection's DSN; _txlock=immediate makes every writing transaction take
// the write lock at BEGIN, when busy_timeout can still wait for it, instead
// of failing with SQLITE_BUSY when a read turns into a write.
func dsn(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows: file:/C:/dir/mbench.db
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Set("_txlock", "immediate")
	return "file:" + (&url.URL{Path: p}).EscapedPath() + "?" + q.Encode()
}

// init switches the file to WAL mode, creates or upgrades the schema and
// prepares the statements.
func (s *Store) init() error {
	var mode string
	if err := s.db.QueryRow("PRAGMA journal_mode = WAL").Scan(&mode); err != nil {
		return err
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("cannot use write-ahead logging (journal mode is %q)", mode)
	}
	if err := s.migrate(); err != nil {
		return err
	}
	return s.stmts.prepare(s.db)
}

// migrate brings the schema to schemaVersion in one transaction, so that
// two processes opening a new store at once create it only once.
func (s *Store) migrate() error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var hasVersion, tables int
	err = tx.QueryRow(`SELECT
		COALESCE(SUM(CASE WHEN name = 'schema_version' THEN 1 ELSE 0 END), 0), COUNT(*)
		FROM sqlite_master WHERE type = 'table'`).Scan(&hasVersion, &tables)
	if err != nil {
		return err
	}
	if hasVersion == 0 {
		if tables > 0 {
			return errors.New("an SQLite database but not an mbench store (no schema_version table)")
		}
		if _, err := tx.Exec(schemaSQL); err != nil {
			return fmt.Errorf("creating schema: %w", err)
		}
		if _, err := tx.Exec("INSERT INTO schema_version (version) VALUES (?)", schemaVersion); err != nil {
			return err
		}
		return tx.Commit()
	}
	var v sql.NullInt64
	if err := tx.QueryRow("SELECT MAX(version) FROM schema_version").Scan(&v); err != nil {
		return err
	}
	switch {
	case !v.Valid:
		return errors.New("schema_version table is empty")
	case v.Int64 > schemaVersion:
		return fmt.Errorf("schema version %d is newer than this mbench understands (%d); upgrade mbench", v.Int64, schemaVersion)
	case v.Int64 == schemaVersion:
		return nil // Rollback ends the read.
	}
	for _, m := range migrations[v.Int64-1:] {
		if err := m.apply(tx); err != nil {
			return fmt.Errorf("upgrading schema from version %d: %w", m.from, err)
		}
	}
	if _, err := tx.Exec("UPDATE schema_version SET version = ?", schemaVersion); err != nil {
		return err
	}
	return tx.Commit()
}

// Close closes the store. Everything Append and the other writers returned
// from is already durable; Close only releases the file.
func (s *Store) Close() error {
	s.stmts.close()
	if err := s.db.Close(); err != nil {
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
	setSetting *sql.Stmt
	insUnit    *sql.Stmt
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
			goos, goarch, host, cpu, start_ns, end_ns, status)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`},
		{&st.setSetting, `INSERT INTO run_settings (run, name, value) VALUES (?, ?, ?)
			ON CONFLICT (run, name) DO UPDATE SET value = excluded.value`},
		{&st.insUnit, "INSERT INTO run_units (run, idx, unit, name, value) VALUES (?, ?, ?, ?, ?)"},
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
