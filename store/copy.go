package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/mbench/mbench/bench"
)

// A Copied reports what Copy did with one run.
type Copied struct {
	ID, Label, Status string
	// Measurements is how many measurements the run has in the source.
	Measurements int
	// Skipped is set when the destination had a run with this id
	// already, which then holds Have measurements; Copy leaves it as it
	// is.
	Skipped bool
	Have    int
}

// Copy copies runs from src to dst: the runs refs name (ids, id prefixes
// or "latest", as Resolve reads them, and for a label every run with that
// label, as Gather reads it), or every run of src when refs is empty,
// oldest first. A run keeps its id, label, commit, platform, settings,
// units, benchmarks, times, status and owner, and its measurements bit for
// bit. A run whose id dst already has is skipped and
// reported as such, so that copying again copies only what is new; each
// run is copied in one transaction, so that a copy that fails midway
// leaves whole runs only. src and dst may be SQLite files or PostgreSQL
// databases, in any combination. Copy returns what it did with each run,
// up to the error that stopped it.
func Copy(src, dst *Store, refs ...string) ([]Copied, error) {
	ids, err := src.copyIDs("", refs)
	if err != nil {
		return nil, err
	}
	return copyRuns(src, dst, ids)
}

// CopyLabel copies every run of src with label from src to dst, oldest
// first, as Copy does: the shards of one result, for example.
func CopyLabel(src, dst *Store, label string) ([]Copied, error) {
	ids, err := src.copyIDs(label, nil)
	if err != nil {
		return nil, err
	}
	return copyRuns(src, dst, ids)
}

// copyIDs returns the ids of the runs with label, oldest first, when label
// is not empty, and otherwise those refs name, each once, in the order of
// refs: all runs, oldest first, for no refs.
func (s *Store) copyIDs(label string, refs []string) ([]string, error) {
	var ids []string
	var err error
	switch {
	case label != "":
		if ids, err = s.labelIDs(label); err == nil && len(ids) == 0 {
			err = fmt.Errorf("no run has label %q", label)
		}
	case len(refs) == 0:
		ids, err = s.column("SELECT id FROM runs ORDER BY num")
	}
	for _, ref := range refs {
		t, rerr := s.resolveRef(ref)
		if rerr != nil {
			err = rerr
			break
		}
		named := []string{t.id}
		if t.rev != nil {
			// A revision names the runs of its result.
			named = named[:0]
			for _, ri := range t.rev.group {
				named = append(named, ri.ID)
			}
		}
		if label := t.label; label != "" {
			// A label names all its runs, as it does for Gather.
			if named, err = s.labelIDs(label); err != nil {
				break
			}
		}
		for _, id := range named {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("store: copy from %s: %w", s.path, err)
	}
	return ids, nil
}

// labelIDs returns the ids of the runs with label, oldest first.
func (s *Store) labelIDs(label string) ([]string, error) {
	return s.column("SELECT id FROM runs WHERE label = ? ORDER BY num", label)
}

func copyRuns(src, dst *Store, ids []string) ([]Copied, error) {
	if err := dst.writable("copy"); err != nil {
		return nil, err
	}
	var done []Copied
	for _, id := range ids {
		c, err := copyRun(src, dst, id)
		if err != nil {
			return done, fmt.Errorf("store: copy run %s from %s to %s: %w", id, src.path, dst.path, err)
		}
		done = append(done, c)
	}
	return done, nil
}

// copyRead, when set, is called between reading a run and reading its
// status in copyRun (by tests, to finish the run in between).
var copyRead func()

// copyRun copies run id from src to dst.
func copyRun(src, dst *Store, id string) (Copied, error) {
	r, status, o, err := src.loadStatus(id)
	if err != nil {
		return Copied{}, err
	}
	c := Copied{ID: id, Label: r.Label, Status: status, Measurements: len(r.Measurements)}
	start, err := nanos(r.Start)
	if err != nil {
		return c, err
	}
	end, err := nanos(r.End)
	if err != nil {
		return c, err
	}
	times, err := measurementTimes(r.Measurements)
	if err != nil {
		return c, err
	}

	dst.mu.Lock()
	defer dst.mu.Unlock()
	var a appender
	err = dst.withTx(func(tx *sql.Tx) error {
		c.Skipped, c.Have = false, 0
		if _, ok, err := dst.lookupRun(tx, id); err != nil {
			return err
		} else if ok {
			c.Skipped = true
			return tx.QueryRow(`SELECT COUNT(*) FROM measurements m JOIN runs r ON r.num = m.run
				WHERE r.id = ?`, id).Scan(&c.Have)
		}
		a = appender{s: dst, tx: tx}
		num, err := a.insertRun(id, r, start, end, status)
		if err != nil {
			return err
		}
		if o != nil {
			if _, err := tx.Stmt(dst.stmts.insOwner).Exec(num, o.host, o.pid, o.process); err != nil {
				return err
			}
		}
		return a.insert(num, r.Measurements, times)
	})
	if err != nil {
		return c, err
	}
	maps.Copy(dst.keys, a.keys)
	maps.Copy(dst.configs, a.configs)
	return c, nil
}

// loadStatus loads run id with its stored status and owner from one
// snapshot, so that a run that another process finishes meanwhile is not
// read as complete with only part of its measurements.
func (s *Store) loadStatus(id string) (*bench.Run, string, *owner, error) {
	tx, err := s.db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, "", nil, err
	}
	defer tx.Rollback()
	r, err := s.load(tx, id)
	if err != nil {
		return nil, "", nil, err
	}
	if copyRead != nil {
		copyRead()
	}
	status, o, err := s.statusOwner(tx, id)
	return r, status, o, err
}

// statusOwner returns the stored status of run id and its owner, nil when
// it has none, as q reads them.
func (s *Store) statusOwner(q querier, id string) (string, *owner, error) {
	var status string
	if s.version < 3 {
		err := q.QueryRow("SELECT status FROM runs WHERE id = ?", id).Scan(&status)
		return status, nil, err
	}
	var host, process sql.NullString
	var pid sql.NullInt64
	err := q.QueryRow(`SELECT r.status, o.host, o.pid, o.process FROM runs r
		LEFT JOIN run_owners o ON o.run = r.num WHERE r.id = ?`, id).Scan(&status, &host, &pid, &process)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil, s.noRun(id)
	} else if err != nil || !host.Valid {
		return status, nil, err
	}
	return status, &owner{host: host.String, pid: pid.Int64, process: process.String}, nil
}

// WriteCopied writes what Copy did, one line per run, and a total.
func WriteCopied(w io.Writer, cs []Copied, dst string) error {
	var copied, skipped, ms int
	for _, c := range cs {
		label := ""
		if c.Label != "" {
			label = " (" + c.Label + ")"
		}
		if c.Skipped {
			skipped++
			note := ""
			if c.Have != c.Measurements {
				note = fmt.Sprintf("; it has %d measurements there, %d here", c.Have, c.Measurements)
			}
			fmt.Fprintf(w, "skipped %s%s: already in %s%s\n", c.ID, label, dst, note)
			continue
		}
		copied++
		ms += c.Measurements
		fmt.Fprintf(w, "copied  %s%s: %s, %d measurements\n", c.ID, label, c.Status, c.Measurements)
	}
	_, err := fmt.Fprintf(w, "%d runs copied (%d measurements), %d skipped\n", copied, ms, skipped)
	return err
}

// CopyFiles is mbench store copy: it opens the store src names
// read-only, finds the runs of label, or those refs name (Copy), and only
// then opens the store dst names (an SQLite file is created when
// missing), copies them and writes what it did to w. A missing SQLite
// destination that gets no run is removed again: a copy that found
// nothing to copy, or failed before its first run was in, leaves no empty
// store behind. The error of a copy that stopped midway says that the same
// call copies the rest; no message shows a password.
func CopyFiles(w io.Writer, src, dst, label string, refs ...string) error {
	if label != "" && len(refs) > 0 {
		return errors.New("store: copy: a label and runs: give one")
	}
	from, err := OpenReadOnly(src)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("store: copy: no result database at %s", src)
	} else if err != nil {
		return err
	}
	defer from.Close()
	ids, err := from.copyIDs(label, refs)
	if err != nil {
		return fmt.Errorf("%w; nothing copied", err)
	}
	if len(ids) == 0 {
		return WriteCopied(w, nil, Redact(dst)) // an empty store
	}
	created := toCreate(dst)
	to, err := Open(dst)
	if err != nil {
		created.remove()
		return err
	}
	copied, err := copyRuns(from, to, ids)
	cerr := to.Close()
	if !slices.ContainsFunc(copied, func(c Copied) bool { return !c.Skipped }) {
		created.remove()
	}
	// to.Name, not dst: a PostgreSQL URL may hold a password.
	if werr := WriteCopied(w, copied, to.Name()); err == nil {
		err = werr
	}
	switch {
	case err != nil && len(copied) == 0:
		return fmt.Errorf("%w; nothing copied", err)
	case err != nil:
		return fmt.Errorf("%w (the runs listed as copied are complete in %s; the same command copies the rest)", err, to.Name())
	}
	return cerr
}

// createdFiles are files and folders that Open creates for a new SQLite
// store.
type createdFiles []string

// toCreate returns what Open(path) would create: the store's files and
// the folders above it that do not exist yet, deepest first; none when
// the store exists or is a PostgreSQL database.
func toCreate(path string) createdFiles {
	files := Files(path)
	if files == nil {
		return nil
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var dirs []string
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) || dir == filepath.Dir(dir) {
			break
		}
		dirs = append(dirs, dir)
	}
	return append(files, dirs...)
}

// remove removes the files and folders, as far as they exist.
func (n createdFiles) remove() {
	for _, f := range n {
		os.Remove(f)
	}
}
