// Package store keeps benchmark results durably in an embedded SQLite
// database (modernc.org/sqlite, pure Go), by default .mbench/mbench.db, or
// in a PostgreSQL database that many machines share (github.com/jackc/pgx,
// through database/sql), named by a postgres:// URL or a keyword/value
// connection string ("host=db dbname=bench"). Both have the same
// schema, migrations and guarantees; the sections below say where they
// differ. Copy moves runs from one store to another.
//
// A run is written in three steps: CreateRun stores its metadata with status
// "running", Append stores its measurements as they arrive, and Finish
// records the end time and final status. Runs, Load and Resolve read them
// back, while the run is still being written too. Commands that only read
// open the store with OpenReadOnly, which never creates or upgrades the
// store nor waits for its write lock.
//
// # Durability
//
// Every Append is one transaction; when it returns nil its measurements are
// committed. The database is in WAL mode with synchronous=FULL, so each
// commit ends with an fsync of the write-ahead log:
//
//   - A crash or SIGKILL of the process loses nothing Append returned from.
//     The run loads with every measurement committed before the kill; a
//     transaction cut off midway leaves no trace. Its stored status stays
//     "running", but the store records the process that owns the run, the
//     last to create or append to it (host, pid and, on Linux, what tells
//     the process from a later one with the same pid), and Runs reports a
//     running run whose owner has ended on this host as "interrupted".
//   - A power failure or kernel crash loses nothing either, as far as the
//     disk honours fsync. (synchronous=NORMAL would skip that fsync and could
//     lose the last commits on power loss, though never corrupt the file; it
//     saves little here, since an iteration lasts far longer than an fsync.)
//
// Nearly all of an Append's time is that fsync (BenchmarkAppend times
// one). Iterations last 50 ms or more, far longer than an fsync, so
// durability per iteration costs a small part of the run's time.
//
// # Sharing the file
//
// Two mbench processes can use one store at once: readers never block in
// WAL mode, and a writer waits for another's transaction to finish.
// Writing transactions begin with BEGIN IMMEDIATE so that they wait for the
// lock up front instead of failing midway; SQLite waits up to 10 s
// (busy_timeout) for it, and a transaction still without the lock then
// waits again, for as long as it takes, so that a long run never fails for
// want of the lock. A Store holds a single connection; its methods are safe
// for concurrent use.
//
// # PostgreSQL
//
// A PostgreSQL store keeps the promises above with the server's means:
// each Append is one transaction, committed with synchronous_commit=on
// (set on every connection), so that it is on the server's disk when
// Append returns. Writing transactions first take an advisory lock that
// all writers of the database share, the counterpart of SQLite's write
// lock, so that shards writing at once from many machines take turns and
// never lose or duplicate a row; readers do not wait for it, and a
// read-only transaction (Load) reads one snapshot (REPEATABLE READ). The
// store's SQL is written once, with ? placeholders; the connection turns
// them into $1, $2, ..., and INTEGER into BIGINT (postgres.go). Strings
// that PostgreSQL's text cannot hold (NUL bytes, invalid UTF-8) are stored
// escaped and load back byte for byte.
//
// Open fails at once, naming the server and database but never the
// password, when the server cannot be reached (after at most 10 s unless
// the URL sets connect_timeout), refuses the login, or the database holds
// other tables but no store. When a write loses the connection, it fails
// with an error wrapping ErrConnectionLost; everything committed before is
// kept, and the Store refuses later writes, so that a run stops rather
// than go on with a gap. A run owned by a process on another host is never
// taken for interrupted, since its process cannot be seen from here.
//
// # Schema
//
// The schema (schema.sql, embedded) uses only SQL that PostgreSQL accepts
// too, so that a PostgreSQL backend can share it; integer keys are assigned
// by the store inside the writing transaction rather than by a dialect's
// auto-increment. Its version is in table schema_version; Open creates a new
// store from schema.sql and upgrades an older one with the migrations in
// store.go, and OpenReadOnly reads an older store as it is. Both refuse,
// naming the file and the versions, a database that is not an mbench store
// (no schema version) or was written by a newer mbench.
//
// Measurements stay small by normalisation: runs (metadata and status, with
// run_settings and run_units), bench_keys (each package, name and GOMAXPROCS
// once, shared by all runs), config_sets and config_items (each distinct
// configuration once, found by a SHA-256 digest), measurements (coordinates,
// the version among them, N, times, a key id and a configuration id) and measurement_values (one row
// per value, in order).
//
// Everything round-trips exactly: floats bit for bit (NaN and -0, which
// SQLite's REAL cannot hold, keep their bits in an extra column), times to
// the nanosecond as BIGINT nanoseconds since 1970 (Load returns them in
// UTC; zero times are NULL), strings byte for byte. Empty settings, units,
// values and configurations load as nil.
package store
