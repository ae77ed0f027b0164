-- Schema of the mbench result store, version 4.
--
-- The SQL is portable: it uses only types and constructs that SQLite and
-- PostgreSQL both accept, and a PostgreSQL store runs this file with one
-- translation (postgres.go): INTEGER becomes BIGINT, the width of SQLite's
-- INTEGER. Tables come after the tables they refer to. Keys are assigned by the store (not by AUTOINCREMENT, SERIAL or
-- IDENTITY, whose spellings differ) inside the writing transaction.
-- Booleans are INTEGER 0/1 and times are BIGINT nanoseconds since the Unix
-- epoch (UTC), NULL when unknown.
--
-- A float column that cannot hold a value exactly (SQLite turns NaN into
-- NULL and -0 into 0) is paired with a *_bits column holding the IEEE 754
-- bits of the value; the bits column is NULL otherwise, so SQL queries over
-- the float columns see ordinary numbers.

CREATE TABLE IF NOT EXISTS schema_version (
	version INTEGER NOT NULL
);

-- runs holds one row per run. num is the internal key other tables use;
-- it also orders runs by creation (the newest has the largest num).
-- The platform (bench.Platform) is in toolchain ... cpu and in the columns
-- from kernel on, which version 4 added (ALTER TABLE ADD COLUMN appends, so
-- they come last, with the defaults that runs of older stores read as
-- unknown); load_avg and busy are NULL when unknown.
CREATE TABLE IF NOT EXISTS runs (
	num         INTEGER PRIMARY KEY,
	id          TEXT    NOT NULL UNIQUE,
	label       TEXT    NOT NULL,
	commit_hash TEXT    NOT NULL,
	dirty       INTEGER NOT NULL,
	toolchain   TEXT    NOT NULL,
	goos        TEXT    NOT NULL,
	goarch      TEXT    NOT NULL,
	host        TEXT    NOT NULL,
	cpu         TEXT    NOT NULL,
	start_ns    BIGINT,
	end_ns      BIGINT,
	status      TEXT    NOT NULL,
	kernel      TEXT    NOT NULL DEFAULT '',
	cpus        INTEGER NOT NULL DEFAULT 0,
	gomaxprocs  INTEGER NOT NULL DEFAULT 0,
	governor    TEXT    NOT NULL DEFAULT '',
	turbo       TEXT    NOT NULL DEFAULT '',
	instance    TEXT    NOT NULL DEFAULT '',
	load_avg    DOUBLE PRECISION,
	busy        DOUBLE PRECISION
);
CREATE INDEX IF NOT EXISTS runs_label ON runs (label);

-- run_owners names the process that owns a run, the last to create or
-- append to it: its host, pid and a token that tells it from a later
-- process with the same pid (see owner.go). A reader on the same host
-- reads a run that is still 'running' but whose process is gone as
-- interrupted. Version 3 added it.
CREATE TABLE IF NOT EXISTS run_owners (
	run     INTEGER NOT NULL PRIMARY KEY REFERENCES runs (num),
	host    TEXT    NOT NULL,
	pid     BIGINT  NOT NULL,
	process TEXT    NOT NULL
);

-- bench_keys holds each distinct bench.Key once, shared by all runs. It
-- comes before the tables that refer to it, as PostgreSQL requires.
CREATE TABLE IF NOT EXISTS bench_keys (
	id      INTEGER PRIMARY KEY,
	package TEXT    NOT NULL,
	name    TEXT    NOT NULL,
	procs   INTEGER NOT NULL,
	UNIQUE (package, name, procs)
);

-- run_benchmarks holds Run.Benchmarks in order: the benchmarks a run set
-- out to measure, in the order of the source. Version 4 added it.
CREATE TABLE IF NOT EXISTS run_benchmarks (
	run   INTEGER NOT NULL REFERENCES runs (num),
	idx   INTEGER NOT NULL,
	bench INTEGER NOT NULL REFERENCES bench_keys (id),
	PRIMARY KEY (run, idx)
);

-- run_settings holds Run.Settings.
CREATE TABLE IF NOT EXISTS run_settings (
	run   INTEGER NOT NULL REFERENCES runs (num),
	name  TEXT    NOT NULL,
	value TEXT    NOT NULL,
	PRIMARY KEY (run, name)
);

-- run_units holds Run.Units in order.
CREATE TABLE IF NOT EXISTS run_units (
	run   INTEGER NOT NULL REFERENCES runs (num),
	idx   INTEGER NOT NULL,
	unit  TEXT    NOT NULL,
	name  TEXT    NOT NULL,
	value TEXT    NOT NULL,
	PRIMARY KEY (run, idx)
);

-- config_sets holds each distinct configuration (an ordered list of
-- key/value pairs) once, shared by all runs; digest is the hex SHA-256 of
-- its length-prefixed pairs. config_items holds the pairs.
CREATE TABLE IF NOT EXISTS config_sets (
	id     INTEGER PRIMARY KEY,
	digest TEXT    NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS config_items (
	config INTEGER NOT NULL REFERENCES config_sets (id),
	idx    INTEGER NOT NULL,
	name   TEXT    NOT NULL,
	value  TEXT    NOT NULL,
	PRIMARY KEY (config, idx)
);

-- measurements holds one row per iteration; id orders them by insertion.
-- phase is bench.Phase: 0 measure, 1 warm-up. config is NULL for an empty
-- configuration. version is bench.Coord.Version, '' when the run measured
-- one version; it comes last because version 2 added it (ALTER TABLE ADD
-- COLUMN appends), so that new and upgraded stores have the same table.
CREATE TABLE IF NOT EXISTS measurements (
	id        INTEGER PRIMARY KEY,
	run       INTEGER NOT NULL REFERENCES runs (num),
	bench     INTEGER NOT NULL REFERENCES bench_keys (id),
	instance  TEXT    NOT NULL,
	suite_run INTEGER NOT NULL,
	fork      INTEGER NOT NULL,
	iteration INTEGER NOT NULL,
	phase     INTEGER NOT NULL,
	n         BIGINT  NOT NULL,
	start_ns  BIGINT,
	end_ns    BIGINT,
	config    INTEGER REFERENCES config_sets (id),
	version   TEXT    NOT NULL DEFAULT ''
);
-- measurements_run lets Load read a run in insertion order without sorting;
-- measurements_bench lets Runs count a run's benchmarks from the index.
CREATE INDEX IF NOT EXISTS measurements_run ON measurements (run, id);
CREATE INDEX IF NOT EXISTS measurements_bench ON measurements (run, bench);

-- measurement_values holds Measurement.Values in order.
CREATE TABLE IF NOT EXISTS measurement_values (
	measurement     INTEGER          NOT NULL REFERENCES measurements (id),
	idx             INTEGER          NOT NULL,
	unit            TEXT             NOT NULL,
	value           DOUBLE PRECISION,
	value_bits      BIGINT,
	orig_unit       TEXT             NOT NULL,
	orig_value      DOUBLE PRECISION,
	orig_value_bits BIGINT,
	PRIMARY KEY (measurement, idx)
);
