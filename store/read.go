package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mbench/mbench/bench"
)

// RunInfo summarises a stored run.
type RunInfo struct {
	ID, Label, Commit string
	Dirty             bool
	// Start and End are in UTC; End is zero while the run is running.
	Start, End time.Time
	// Status is "running", "complete", "interrupted" or "failed". A run
	// whose process died without calling Finish reads as "interrupted"
	// when the process ran on this host, since then its end can be seen;
	// a run from another host stays "running" until it finishes.
	Status string
	// Measurements counts the stored measurements (warm-up included);
	// Benchmarks counts the distinct benchmark keys among them.
	Measurements, Benchmarks int
}

// Runs returns a summary of every stored run, newest (last created) first.
func (s *Store) Runs() ([]RunInfo, error) {
	return s.runsWhere("", nil)
}

// runsWhere lists the runs matching the condition where (on runs r, "" for
// all) with its arguments, newest first.
func (s *Store) runsWhere(where string, args []any) ([]RunInfo, error) {
	if where != "" {
		where = " WHERE " + where
	}
	// Stores before version 3 record no owners.
	owners, join := "NULL, NULL, NULL", ""
	if s.version >= 3 {
		owners, join = "o.host, o.pid, o.process", "LEFT JOIN run_owners o ON o.run = r.num"
	}
	rows, err := s.db.Query(`SELECT r.id, r.label, r.commit_hash, r.dirty, r.start_ns, r.end_ns, r.status,
		(SELECT COUNT(*) FROM measurements m WHERE m.run = r.num),
		(SELECT COUNT(DISTINCT m.bench) FROM measurements m WHERE m.run = r.num),
		`+owners+` FROM runs r `+join+where+` ORDER BY r.num DESC`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: list runs: %w", err)
	}
	defer rows.Close()
	var infos []RunInfo
	for rows.Next() {
		var ri RunInfo
		var dirty int
		var start, end, pid sql.NullInt64
		var host, process sql.NullString
		if err := rows.Scan(&ri.ID, &ri.Label, &ri.Commit, &dirty, &start, &end, &ri.Status,
			&ri.Measurements, &ri.Benchmarks, &host, &pid, &process); err != nil {
			return nil, fmt.Errorf("store: list runs: %w", err)
		}
		ri.Dirty = dirty != 0
		ri.Start, ri.End = fromNanos(start), fromNanos(end)
		if ri.Status == StatusRunning && host.Valid && (owner{host.String, pid.Int64, process.String}).gone() {
			ri.Status = StatusInterrupted
		}
		infos = append(infos, ri)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list runs: %w", err)
	}
	return infos, nil
}

// Load returns run id with all its measurements in the order they were
// appended. Times are in UTC. Measurements with equal configurations share
// one Config slice. Empty settings, units, values and configurations load as
// nil. Load reads one consistent snapshot, so a run being appended to
// concurrently loads with a prefix of its measurements.
func (s *Store) Load(id string) (*bench.Run, error) {
	tx, err := s.db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("store: load run %s: %w", id, err)
	}
	defer tx.Rollback()
	r, err := s.load(tx, id)
	if err != nil {
		return nil, fmt.Errorf("store: load: %w", err)
	}
	return r, nil
}

func (s *Store) load(tx *sql.Tx, id string) (*bench.Run, error) {
	r := &bench.Run{ID: id}
	p := &r.Platform
	var num int64
	var dirty int
	var start, end sql.NullInt64
	var load, busy sql.NullFloat64
	// Runs of stores before version 4 know only part of their platform.
	platform := "kernel, cpus, gomaxprocs, governor, turbo, instance, load_avg, busy"
	if s.version < 4 {
		platform = "'', 0, 0, '', '', '', NULL, NULL"
	}
	err := tx.QueryRow(`SELECT num, label, commit_hash, dirty, toolchain, goos, goarch, host, cpu,
		start_ns, end_ns, `+platform+` FROM runs WHERE id = ?`, id).Scan(&num, &r.Label, &r.Commit, &dirty,
		&p.Toolchain, &p.GOOS, &p.GOARCH, &p.Host, &p.CPU, &start, &end,
		&p.Kernel, &p.CPUs, &p.GOMAXPROCS, &p.Governor, &p.Turbo, &p.Instance, &load, &busy)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, s.noRun(id)
	} else if err != nil {
		return nil, fmt.Errorf("run %s: %w", id, err)
	}
	r.Dirty = dirty != 0
	r.Start, r.End = fromNanos(start), fromNanos(end)
	p.Load, p.Busy = fromNullFloat(load), fromNullFloat(busy)

	if err := loadSettings(tx, num, r); err != nil {
		return nil, fmt.Errorf("run %s: settings: %w", id, err)
	}
	if err := loadUnits(tx, num, r); err != nil {
		return nil, fmt.Errorf("run %s: units: %w", id, err)
	}
	if s.version >= 4 {
		if err := loadBenchmarks(tx, num, r); err != nil {
			return nil, fmt.Errorf("run %s: benchmarks: %w", id, err)
		}
	}
	keys, err := loadKeys(tx, num)
	if err != nil {
		return nil, fmt.Errorf("run %s: benchmark keys: %w", id, err)
	}
	configs, err := loadConfigs(tx, num)
	if err != nil {
		return nil, fmt.Errorf("run %s: configurations: %w", id, err)
	}
	if err := loadMeasurements(tx, s.version, num, r, keys, configs); err != nil {
		return nil, fmt.Errorf("run %s: measurements: %w", id, err)
	}
	return r, nil
}

func loadSettings(tx *sql.Tx, num int64, r *bench.Run) error {
	rows, err := tx.Query("SELECT name, value FROM run_settings WHERE run = ?", num)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return err
		}
		if r.Settings == nil {
			r.Settings = make(map[string]string)
		}
		r.Settings[k] = v
	}
	return rows.Err()
}

func loadUnits(tx *sql.Tx, num int64, r *bench.Run) error {
	rows, err := tx.Query("SELECT unit, name, value FROM run_units WHERE run = ? ORDER BY idx", num)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var u bench.UnitMeta
		if err := rows.Scan(&u.Unit, &u.Key, &u.Value); err != nil {
			return err
		}
		r.Units = append(r.Units, u)
	}
	return rows.Err()
}

func loadBenchmarks(tx *sql.Tx, num int64, r *bench.Run) error {
	rows, err := tx.Query(`SELECT k.package, k.name, k.procs FROM run_benchmarks b
		JOIN bench_keys k ON k.id = b.bench WHERE b.run = ? ORDER BY b.idx`, num)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var k bench.Key
		if err := rows.Scan(&k.Package, &k.Name, &k.Procs); err != nil {
			return err
		}
		r.Benchmarks = append(r.Benchmarks, k)
	}
	return rows.Err()
}

func loadKeys(tx *sql.Tx, num int64) (map[int64]bench.Key, error) {
	rows, err := tx.Query(`SELECT id, package, name, procs FROM bench_keys
		WHERE id IN (SELECT bench FROM measurements WHERE run = ?)`, num)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	keys := make(map[int64]bench.Key)
	for rows.Next() {
		var id int64
		var k bench.Key
		if err := rows.Scan(&id, &k.Package, &k.Name, &k.Procs); err != nil {
			return nil, err
		}
		keys[id] = k
	}
	return keys, rows.Err()
}

func loadConfigs(tx *sql.Tx, num int64) (map[int64][]bench.Config, error) {
	rows, err := tx.Query(`SELECT config, name, value FROM config_items
		WHERE config IN (SELECT config FROM measurements WHERE run = ?)
		ORDER BY config, idx`, num)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	configs := make(map[int64][]bench.Config)
	for rows.Next() {
		var id int64
		var c bench.Config
		if err := rows.Scan(&id, &c.Key, &c.Value); err != nil {
			return nil, err
		}
		configs[id] = append(configs[id], c)
	}
	return configs, rows.Err()
}

// loadMeasurements reads the measurements of run num with their values, one
// row per value (or one row with NULL value columns for a measurement without
// values), in insertion order. version is the store's schema version.
func loadMeasurements(tx *sql.Tx, version int, num int64, r *bench.Run, keys map[int64]bench.Key, configs map[int64][]bench.Config) error {
	// Measurements of a version-1 store have no version: they are of a
	// run of one version, which the empty string says.
	versionCol := "m.version"
	if version < 2 {
		versionCol = "''"
	}
	rows, err := tx.Query(`SELECT m.id, m.bench, `+versionCol+`, m.instance, m.suite_run, m.fork, m.iteration,
		m.phase, m.n, m.start_ns, m.end_ns, m.config,
		v.unit, v.value, v.value_bits, v.orig_unit, v.orig_value, v.orig_value_bits
		FROM measurements m LEFT JOIN measurement_values v ON v.measurement = m.id
		WHERE m.run = ? ORDER BY m.id, v.idx`, num)
	if err != nil {
		return err
	}
	defer rows.Close()
	// One string per instance name and per version, rather than one per
	// measurement.
	instances := make(map[string]string)
	versions := make(map[string]string)
	last := int64(-1)
	for rows.Next() {
		var (
			id, keyID            int64
			version, instance    string
			phase                int64
			start, end, config   sql.NullInt64
			unit, origUnit       sql.NullString
			val, orig            sql.NullFloat64
			valBits, origBits    sql.NullInt64
			suiteRun, fork, iter int
			n                    int
		)
		if err := rows.Scan(&id, &keyID, &version, &instance, &suiteRun, &fork, &iter, &phase, &n,
			&start, &end, &config, &unit, &val, &valBits, &origUnit, &orig, &origBits); err != nil {
			return err
		}
		if id != last {
			last = id
			key, ok := keys[keyID]
			if !ok {
				return fmt.Errorf("measurement %d: missing benchmark key %d", id, keyID)
			}
			instance, version = intern(instances, instance), intern(versions, version)
			m := bench.Measurement{
				Key: key,
				Coord: bench.Coord{Version: version, Instance: instance, SuiteRun: suiteRun, Fork: fork,
					Iteration: iter, Phase: bench.Phase(phase)},
				N:     n,
				Start: fromNanos(start),
				End:   fromNanos(end),
			}
			if config.Valid {
				cfg, ok := configs[config.Int64]
				if !ok {
					return fmt.Errorf("measurement %d: missing configuration %d", id, config.Int64)
				}
				m.Config = cfg
			}
			r.Measurements = append(r.Measurements, m)
		}
		if unit.Valid {
			m := &r.Measurements[len(r.Measurements)-1]
			m.Values = append(m.Values, bench.Value{
				Value:     fromFloatCols(val, valBits),
				Unit:      unit.String,
				OrigValue: fromFloatCols(orig, origBits),
				OrigUnit:  origUnit.String,
			})
		}
	}
	return rows.Err()
}

// intern returns the string in seen equal to s, adding s when there is none.
func intern(seen map[string]string, s string) string {
	if in, ok := seen[s]; ok {
		return in
	}
	seen[s] = s
	return s
}

// Resolve returns the id of the run ref names. ref is, in order of
// precedence: an exact run id; "latest", the newest run; a label, naming the
// newest run with that label; a prefix of at least 4 characters of
// exactly one run id; or a git revision (a branch, a tag, HEAD~1, a
// commit or the start of its hash), naming the newest complete run of its
// commit (see revision). A label that is also the prefix of the id of a
// run it does not label is ambiguous, an error listing both: more of the
// id names the run, "label:" and the label names the label. LoadRef loads
// what ref names, gathering all the runs of a label, and of a revision
// the result its run is part of.
func (s *Store) Resolve(ref string) (string, error) {
	t, err := s.resolveRef(ref)
	return t.id, err
}

// A target is what a reference names: a run, the newest of a label's
// runs, or the newest complete run of a git revision's commit.
type target struct {
	id    string
	label string    // the label named, "" when ref names none
	rev   *revision // the revision named, nil when ref names none
}

// resolveRef is Resolve, returning all the reference names.
func (s *Store) resolveRef(ref string) (target, error) {
	if ref == "" {
		return target{}, errors.New("store: resolve: empty run reference")
	}
	t, err := s.resolve(ref)
	if err != nil {
		return target{}, fmt.Errorf("store: resolve %q: %w", ref, err)
	}
	return t, nil
}

// minPrefix is the shortest id prefix Resolve accepts, so that a short typo
// does not silently pick some run.
const minPrefix = 4

// LabelPrefix, before a label, makes a reference name that label only,
// never a run whose id begins with it.
const LabelPrefix = "label:"

func (s *Store) resolve(ref string) (target, error) {
	if id, err := s.resolveID(ref); err != nil || id != "" {
		return target{id: id}, err
	}
	label, only := strings.CutPrefix(ref, LabelPrefix)
	if !only {
		label = ref
	}
	var id string
	err := s.db.QueryRow("SELECT id FROM runs WHERE label = ? ORDER BY num DESC LIMIT 1", label).Scan(&id)
	switch {
	case err == nil && only:
		return target{id: id, label: label}, nil
	case err == nil:
		return target{id: id, label: label}, s.labelOrPrefix(ref)
	case !errors.Is(err, sql.ErrNoRows):
		return target{}, err
	case only:
		return target{}, fmt.Errorf("no run in %s has label %q", s.path, label)
	}
	if id, err := s.resolvePrefix(ref); err != nil || id != "" {
		return target{id: id}, err
	}
	rev, why, err := s.resolveRevision(ref)
	if err != nil {
		return target{}, err
	}
	if rev == nil {
		return target{}, s.unknownRef(ref, why)
	}
	return target{id: rev.run.ID, rev: rev}, nil
}

// labelOrPrefix fails when the label ref is also the prefix of the id of
// a run it does not label, naming the runs of both.
func (s *Store) labelOrPrefix(ref string) error {
	if len(ref) < minPrefix {
		return nil
	}
	prefixed, err := s.column(`SELECT id FROM runs WHERE substr(id, 1, ?) = ? AND label <> ?
		ORDER BY num DESC`, len(ref), ref, ref)
	if err != nil || len(prefixed) == 0 {
		return err
	}
	labelled, err := s.column("SELECT id FROM runs WHERE label = ? ORDER BY num DESC", ref)
	if err != nil {
		return err
	}
	return fmt.Errorf("ambiguous: the label of %s and the start of the id of %s; give more of the id for the run, or %s%s for the label",
		runList(labelled), runList(prefixed), LabelPrefix, ref)
}

// runList names the runs with ids, "run ID" or "runs ID, ID, ...".
func runList(ids []string) string {
	if len(ids) == 1 {
		return "run " + ids[0]
	}
	if len(ids) > maxListed {
		return fmt.Sprintf("runs %s, ... (%d more)", strings.Join(ids[:maxListed], ", "), len(ids)-maxListed)
	}
	return "runs " + strings.Join(ids, ", ")
}

// resolveID returns ref when it is a run's id, the newest run's id when it
// is "latest", and "" otherwise.
func (s *Store) resolveID(ref string) (string, error) {
	var id string
	err := s.db.QueryRow("SELECT id FROM runs WHERE id = ?", ref).Scan(&id)
	if err == nil {
		return id, nil
	} else if !errors.Is(err, sql.ErrNoRows) {
		return "", err
	}
	if ref == Latest {
		err := s.db.QueryRow("SELECT id FROM runs ORDER BY num DESC LIMIT 1").Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return "", fmt.Errorf("no runs in %s", s.path)
		}
		return id, err
	}
	return "", nil
}

// resolvePrefix returns the one run whose id ref begins, "" when there is
// none, or an error when there are several.
func (s *Store) resolvePrefix(ref string) (string, error) {
	if len(ref) >= minPrefix {
		rows, err := s.db.Query(`SELECT id, label FROM runs WHERE substr(id, 1, ?) = ?
			ORDER BY num DESC`, len(ref), ref)
		if err != nil {
			return "", err
		}
		defer rows.Close()
		var ids, described []string
		for rows.Next() {
			var id, label string
			if err := rows.Scan(&id, &label); err != nil {
				return "", err
			}
			ids = append(ids, id)
			if label != "" {
				id += " (" + label + ")"
			}
			described = append(described, id)
		}
		if err := rows.Err(); err != nil {
			return "", err
		}
		rows.Close()
		switch len(ids) {
		case 0:
		case 1:
			return ids[0], nil
		default:
			return "", fmt.Errorf("ambiguous id prefix: matches runs %s", strings.Join(described, ", "))
		}
	}
	return "", nil
}

// maxListed is how many labels an error message lists.
const maxListed = 20

// unknownRef explains that ref names no run, listing the labels that do;
// notRev says why it is no git revision either.
func (s *Store) unknownRef(ref, notRev string) error {
	labels, err := s.column(`SELECT label FROM runs WHERE label <> ''
		GROUP BY label ORDER BY MAX(num) DESC`)
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "no run in %s has this id", s.path)
	if len(ref) >= minPrefix {
		b.WriteString(", id prefix")
	}
	b.WriteString(" or label")
	if len(ref) < minPrefix {
		fmt.Fprintf(&b, " (id prefixes need at least %d characters)", minPrefix)
	}
	b.WriteString(", " + notRev)
	switch {
	case len(labels) == 0:
		b.WriteString("; no run has a label; use a run id, \"latest\" or a git revision")
	case len(labels) > maxListed:
		fmt.Fprintf(&b, "; labels: %s, ... (%d more)", strings.Join(labels[:maxListed], ", "), len(labels)-maxListed)
	default:
		fmt.Fprintf(&b, "; labels: %s", strings.Join(labels, ", "))
	}
	return errors.New(b.String())
}

// column returns the values of the single string column query selects.
func (s *Store) column(query string, args ...any) ([]string, error) {
	rows, err := s.db.Query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// WriteRuns writes runs as a table, one line each: id, label, commit, start,
// duration, status and how many benchmarks and measurements it holds.
func WriteRuns(w io.Writer, runs []RunInfo) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "id\tlabel\tcommit\tstart\tduration\tstatus\tbenchmarks\tmeasurements\n")
	for _, r := range runs {
		dur := "-"
		if !r.End.IsZero() {
			dur = r.End.Sub(r.Start).Round(time.Second).String()
		}
		commit := r.Commit
		if len(commit) > 12 {
			commit = commit[:12]
		}
		if r.Dirty {
			commit += "-dirty"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\n", r.ID, r.Label, commit,
			r.Start.Local().Format("2006-01-02 15:04:05"), dur, r.Status, r.Benchmarks, r.Measurements)
	}
	return tw.Flush()
}

// dropImpossible removes from r, just loaded, the measurements with a
// value that cannot be (bench.CheckValue: negative times, bytes or
// allocations, zero or absurd times per op), which the readers of result
// files skip as well, and returns a warning naming the store, the run,
// how many were skipped and the first of them. The store keeps what was
// written to it; only what analyses read leaves them out.
func (s *Store) dropImpossible(r *bench.Run) []error {
	var (
		first   error
		dropped int
	)
	kept := r.Measurements[:0]
	for _, m := range r.Measurements {
		if err := m.CheckValues(); err != nil {
			if dropped == 0 {
				first = fmt.Errorf("%s, fork %d, iteration %d: %v", m.Key, m.Coord.Fork, m.Coord.Iteration, err)
			}
			dropped++
			continue
		}
		kept = append(kept, m)
	}
	r.Measurements = kept
	if dropped == 0 {
		return nil
	}
	return []error{fmt.Errorf("%s: run %s: %d measurements skipped, with values that cannot be; the first: %v", s.path, r.ID, dropped, first)}
}
