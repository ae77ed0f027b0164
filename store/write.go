package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/mbench/mbench/bench"
)

// Run statuses. A run is StatusRunning from CreateRun until Finish; Runs
// reports a run whose process died on this host before Finish as
// StatusInterrupted.
const (
	StatusRunning     = "running"
	StatusComplete    = "complete"
	StatusInterrupted = "interrupted"
	StatusFailed      = "failed"
)

// EndStatus is the status to Finish a run with whose work ended with err
// under ctx: StatusInterrupted when ctx was cancelled, StatusFailed on any
// other error, StatusComplete otherwise.
func EndStatus(ctx context.Context, err error) string {
	switch {
	case ctx.Err() != nil:
		return StatusInterrupted
	case err != nil:
		return StatusFailed
	}
	return StatusComplete
}

// Latest is the reference Resolve reads as the newest run. It cannot be used
// as a run id or label.
const Latest = "latest"

// CreateRun stores the metadata of r (everything but its measurements, which
// Append stores), with status "running". When r.ID is empty it assigns a new
// id of 12 hex digits to r.ID. It returns the id.
func (s *Store) CreateRun(r *bench.Run) (string, error) {
	if r.ID == Latest || r.Label == Latest {
		return "", fmt.Errorf("store: create run: %q is reserved for the newest run", Latest)
	}
	start, err := nanos(r.Start)
	if err != nil {
		return "", fmt.Errorf("store: create run: start %w", err)
	}
	end, err := nanos(r.End)
	if err != nil {
		return "", fmt.Errorf("store: create run: end %w", err)
	}

	if err := s.writable("create run"); err != nil {
		return "", err
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	var id string
	var num int64
	var a appender
	err = s.withTx(func(tx *sql.Tx) error {
		id = r.ID
		if id == "" {
			// Collisions are unlikely (48 random bits) but cheap to avoid.
			for {
				id = newID()
				_, ok, err := s.lookupRun(tx, id)
				if err != nil {
					return err
				}
				if !ok {
					break
				}
			}
		} else if _, ok, err := s.lookupRun(tx, id); err != nil {
			return err
		} else if ok {
			return errors.New("a run with this id exists")
		}
		a = appender{s: s, tx: tx}
		var err error
		if num, err = a.insertRun(id, r, start, end, StatusRunning); err != nil {
			return err
		}
		return s.own(tx, num)
	})
	if err != nil {
		if id == "" {
			return "", fmt.Errorf("store: create run: %w", err)
		}
		return "", fmt.Errorf("store: create run %s: %w", id, err)
	}
	s.runs[id] = num
	s.owned[id] = true
	maps.Copy(s.keys, a.keys) // committed now
	r.ID = id
	return id, nil
}

// insertRun inserts run r, everything but its measurements and owner, with
// id, times and status, in a's transaction, and returns its key.
func (a *appender) insertRun(id string, r *bench.Run, start, end sql.NullInt64, status string) (int64, error) {
	s, tx := a.s, a.tx
	var num int64
	if err := tx.Stmt(s.stmts.nextRun).QueryRow().Scan(&num); err != nil {
		return 0, err
	}
	p := &r.Platform
	_, err := tx.Stmt(s.stmts.insRun).Exec(num, id, r.Label, r.Commit, boolInt(r.Dirty), p.Toolchain,
		p.GOOS, p.GOARCH, p.Host, p.CPU, start, end, status,
		p.Kernel, p.CPUs, p.GOMAXPROCS, p.Governor, p.Turbo, p.Instance, nullFloat(p.Load), nullFloat(p.Busy))
	if err != nil {
		return 0, err
	}
	if err := setSettings(tx.Stmt(s.stmts.setSetting), num, r.Settings); err != nil {
		return 0, err
	}
	insUnit := tx.Stmt(s.stmts.insUnit)
	for i, u := range r.Units {
		if _, err := insUnit.Exec(num, i, u.Unit, u.Key, u.Value); err != nil {
			return 0, err
		}
	}
	insBench := tx.Stmt(s.stmts.insBench)
	for i, k := range r.Benchmarks {
		key, err := a.keyID(k)
		if err != nil {
			return 0, err
		}
		if _, err := insBench.Exec(num, i, key); err != nil {
			return 0, err
		}
	}
	return num, nil
}

// own records this process as the owner of run num, the process whose end
// ends the run (see Runs).
func (s *Store) own(tx *sql.Tx, num int64) error {
	o := self()
	_, err := tx.Stmt(s.stmts.insOwner).Exec(num, o.host, o.pid, o.process)
	return err
}

// newID returns a run id: 12 hex digits of a hash of the time and random
// bits. Hashing spreads the digits evenly, so that short prefixes of ids
// created close together still differ.
func newID() string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(time.Now().UnixNano()))
	rand.Read(b[8:])
	sum := sha256.Sum256(b[:])
	return hex.EncodeToString(sum[:6])
}

// Append stores measurements of run id, in order, in one transaction. When it
// returns nil they are committed and durable: a crash of the process right
// after loses none of them, and neither does a power failure (see the
// package comment). When it returns an error none of them are stored.
func (s *Store) Append(id string, ms ...bench.Measurement) error {
	return s.AppendBatches(Batch{Run: id, Measurements: ms})
}

// A Batch is measurements of one run, for AppendBatches.
type Batch struct {
	Run          string
	Measurements []bench.Measurement
}

// AppendBatches stores the batches, in order, in one transaction, as
// Append stores one: all of them or, when it returns an error, none. The
// two halves of a paired measurement, stored in two runs, are kept whole
// this way.
func (s *Store) AppendBatches(batches ...Batch) error {
	// Convert times first, so that bad input fails before any lock is taken.
	times := make([][]sql.NullInt64, len(batches))
	for b, batch := range batches {
		var err error
		if times[b], err = measurementTimes(batch.Measurements); err != nil {
			return fmt.Errorf("store: append to run %s: %w", batch.Run, err)
		}
	}

	if err := s.writable("append"); err != nil {
		return err
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	var a appender
	err := s.withTx(func(tx *sql.Tx) error {
		a = appender{s: s, tx: tx}
		for b, batch := range batches {
			if err := a.append(batch.Run, batch.Measurements, times[b]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: append: %w", err)
	}
	// Only committed rows may enter the caches.
	maps.Copy(s.keys, a.keys)
	maps.Copy(s.configs, a.configs)
	for _, batch := range batches {
		s.owned[batch.Run] = true
	}
	return nil
}

// measurementTimes returns the start and end times of ms as nanos converts
// them, two for each measurement.
func measurementTimes(ms []bench.Measurement) ([]sql.NullInt64, error) {
	times := make([]sql.NullInt64, 2*len(ms))
	for i := range ms {
		var err error
		if times[2*i], err = nanos(ms[i].Start); err != nil {
			return nil, fmt.Errorf("measurement %d: start %w", i, err)
		}
		if times[2*i+1], err = nanos(ms[i].End); err != nil {
			return nil, fmt.Errorf("measurement %d: end %w", i, err)
		}
	}
	return times, nil
}

// append inserts measurements ms of run id, with their start and end times
// as nanos converted them, in a's transaction.
func (a *appender) append(id string, ms []bench.Measurement, times []sql.NullInt64) error {
	s, tx := a.s, a.tx
	num, err := s.runNum(tx, id)
	if err != nil {
		return err
	}
	// A process that appends to a run another created (resuming a
	// session) becomes its owner.
	if !s.owned[id] {
		if err := s.own(tx, num); err != nil {
			return err
		}
	}
	return a.insert(num, ms, times)
}

// insert inserts measurements ms of run num, with their times, in a's
// transaction.
func (a *appender) insert(num int64, ms []bench.Measurement, times []sql.NullInt64) error {
	s, tx := a.s, a.tx
	var next int64
	if len(ms) > 0 {
		if err := tx.Stmt(s.stmts.nextMeas).QueryRow().Scan(&next); err != nil {
			return err
		}
	}
	insMeas, insValue := tx.Stmt(s.stmts.insMeas), tx.Stmt(s.stmts.insValue)
	for i := range ms {
		m := &ms[i]
		key, err := a.keyID(m.Key)
		if err != nil {
			return err
		}
		config, err := a.configID(m.Config)
		if err != nil {
			return err
		}
		c := &m.Coord
		_, err = insMeas.Exec(next, num, key, c.Version, c.Instance, c.SuiteRun, c.Fork, c.Iteration,
			int64(c.Phase), m.N, times[2*i], times[2*i+1], config)
		if err != nil {
			return err
		}
		for j, v := range m.Values {
			val, valBits := floatCols(v.Value)
			orig, origBits := floatCols(v.OrigValue)
			_, err := insValue.Exec(next, j, v.Unit, val, valBits, v.OrigUnit, orig, origBits)
			if err != nil {
				return err
			}
		}
		next++
	}
	return nil
}

// An appender finds or creates the key and configuration rows of one Append.
// It remembers the rows it creates until the transaction commits.
type appender struct {
	s       *Store
	tx      *sql.Tx
	keys    map[bench.Key]int64
	configs map[string]int64
}

func (a *appender) keyID(k bench.Key) (int64, error) {
	if id, ok := a.s.keys[k]; ok {
		return id, nil
	}
	if id, ok := a.keys[k]; ok {
		return id, nil
	}
	var id int64
	err := a.tx.Stmt(a.s.stmts.keyID).QueryRow(k.Package, k.Name, k.Procs).Scan(&id)
	switch {
	case err == nil:
		a.s.keys[k] = id // committed by another Append or process
		return id, nil
	case !errors.Is(err, sql.ErrNoRows):
		return 0, err
	}
	if err := a.tx.Stmt(a.s.stmts.nextKey).QueryRow().Scan(&id); err != nil {
		return 0, err
	}
	if _, err := a.tx.Stmt(a.s.stmts.insKey).Exec(id, k.Package, k.Name, k.Procs); err != nil {
		return 0, err
	}
	if a.keys == nil {
		a.keys = make(map[bench.Key]int64)
	}
	a.keys[k] = id
	return id, nil
}

// configID returns the id of the configuration set cfg, or NULL for an
// empty configuration.
func (a *appender) configID(cfg []bench.Config) (sql.NullInt64, error) {
	if len(cfg) == 0 {
		return sql.NullInt64{}, nil
	}
	d := digest(cfg)
	if id, ok := a.s.configs[d]; ok {
		return sql.NullInt64{Int64: id, Valid: true}, nil
	}
	if id, ok := a.configs[d]; ok {
		return sql.NullInt64{Int64: id, Valid: true}, nil
	}
	var id int64
	err := a.tx.Stmt(a.s.stmts.configID).QueryRow(d).Scan(&id)
	switch {
	case err == nil:
		a.s.configs[d] = id
		return sql.NullInt64{Int64: id, Valid: true}, nil
	case !errors.Is(err, sql.ErrNoRows):
		return sql.NullInt64{}, err
	}
	if err := a.tx.Stmt(a.s.stmts.nextConfig).QueryRow().Scan(&id); err != nil {
		return sql.NullInt64{}, err
	}
	if _, err := a.tx.Stmt(a.s.stmts.insConfig).Exec(id, d); err != nil {
		return sql.NullInt64{}, err
	}
	insItem := a.tx.Stmt(a.s.stmts.insItem)
	for i, c := range cfg {
		if _, err := insItem.Exec(id, i, c.Key, c.Value); err != nil {
			return sql.NullInt64{}, err
		}
	}
	if a.configs == nil {
		a.configs = make(map[string]int64)
	}
	a.configs[d] = id
	return sql.NullInt64{Int64: id, Valid: true}, nil
}

// digest identifies a configuration by the SHA-256 of its pairs, each string
// prefixed by its length so that no two configurations encode alike.
func digest(cfg []bench.Config) string {
	h := sha256.New()
	var buf []byte
	for _, c := range cfg {
		buf = strconv.AppendInt(buf[:0], int64(len(c.Key)), 10)
		buf = append(buf, ':')
		buf = append(buf, c.Key...)
		buf = strconv.AppendInt(buf, int64(len(c.Value)), 10)
		buf = append(buf, ':')
		buf = append(buf, c.Value...)
		h.Write(buf)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Finish records the end time and final status of run id: "complete",
// "interrupted" or "failed". A run can be finished again, for example after
// more measurements were appended to resume it.
func (s *Store) Finish(id string, end time.Time, status string) error {
	switch status {
	case StatusComplete, StatusInterrupted, StatusFailed:
	default:
		return fmt.Errorf("store: finish run %s: invalid status %q (want %s, %s or %s)",
			id, status, StatusComplete, StatusInterrupted, StatusFailed)
	}
	e, err := nanos(end)
	if err != nil {
		return fmt.Errorf("store: finish run %s: end %w", id, err)
	}
	if err := s.writable("finish run"); err != nil {
		return err
	}
	var n int64
	err = s.withTx(func(tx *sql.Tx) error {
		res, err := tx.Exec("UPDATE runs SET end_ns = ?, status = ? WHERE id = ?", e, status, id)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return fmt.Errorf("store: finish run %s: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("store: finish: %w", s.noRun(id))
	}
	return nil
}

// SetSettings merges kv into the settings of run id: keys in kv get the
// values in kv, other keys keep theirs.
func (s *Store) SetSettings(id string, kv map[string]string) error {
	if err := s.writable("set settings"); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.withTx(func(tx *sql.Tx) error {
		num, err := s.runNum(tx, id)
		if err != nil {
			return err
		}
		return setSettings(tx.Stmt(s.stmts.setSetting), num, kv)
	})
	if err != nil {
		return fmt.Errorf("store: set settings of run %s: %w", id, err)
	}
	return nil
}

func setSettings(stmt *sql.Stmt, num int64, kv map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(kv)) {
		if _, err := stmt.Exec(num, k, kv[k]); err != nil {
			return err
		}
	}
	return nil
}

// runNum returns the internal key of run id, which must exist. The caller
// holds s.mu.
func (s *Store) runNum(tx *sql.Tx, id string) (int64, error) {
	num, ok, err := s.lookupRun(tx, id)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, s.noRun(id)
	}
	return num, nil
}

// lookupRun returns the internal key of run id and whether it exists. The
// caller holds s.mu.
func (s *Store) lookupRun(tx *sql.Tx, id string) (int64, bool, error) {
	if num, ok := s.runs[id]; ok {
		return num, true, nil
	}
	var num int64
	err := tx.Stmt(s.stmts.runNum).QueryRow(id).Scan(&num)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, false, nil
	case err != nil:
		return 0, false, err
	}
	s.runs[id] = num
	return num, true, nil
}

func (s *Store) noRun(id string) error {
	return fmt.Errorf("no run with id %q in %s", id, s.path)
}

// nanos converts t to nanoseconds since the Unix epoch, NULL for the zero
// time. It fails for times that int64 nanoseconds cannot hold (before 1678
// or after 2262), which no benchmark can have run at.
func nanos(t time.Time) (sql.NullInt64, error) {
	if t.IsZero() {
		return sql.NullInt64{}, nil
	}
	ns := t.UnixNano()
	if !time.Unix(0, ns).Equal(t) {
		return sql.NullInt64{}, fmt.Errorf("time %s is outside the years 1678 to 2262 the store can hold", t)
	}
	return sql.NullInt64{Int64: ns, Valid: true}, nil
}

// fromNanos inverts nanos, returning times in UTC.
func fromNanos(ns sql.NullInt64) time.Time {
	if !ns.Valid {
		return time.Time{}
	}
	return time.Unix(0, ns.Int64).UTC()
}

// floatCols splits f into a DOUBLE PRECISION column and a *_bits column.
// SQLite stores NaN as NULL and -0 as 0, so those keep their exact bits in
// the second column; other values are stored as they are.
func floatCols(f float64) (v sql.NullFloat64, bits sql.NullInt64) {
	switch {
	case math.IsNaN(f):
		return sql.NullFloat64{}, sql.NullInt64{Int64: int64(math.Float64bits(f)), Valid: true}
	case f == 0 && math.Signbit(f):
		return sql.NullFloat64{Valid: true}, sql.NullInt64{Int64: int64(math.Float64bits(f)), Valid: true}
	}
	return sql.NullFloat64{Float64: f, Valid: true}, sql.NullInt64{}
}

// fromFloatCols inverts floatCols.
func fromFloatCols(v sql.NullFloat64, bits sql.NullInt64) float64 {
	if bits.Valid {
		return math.Float64frombits(uint64(bits.Int64))
	}
	return v.Float64
}

// nullFloat is f as a nullable column, NULL for nil (unknown). The values
// it stores, load averages and fractions, are finite.
func nullFloat(f *float64) sql.NullFloat64 {
	if f == nil {
		return sql.NullFloat64{}
	}
	return sql.NullFloat64{Float64: *f, Valid: true}
}

// fromNullFloat inverts nullFloat.
func fromNullFloat(f sql.NullFloat64) *float64 {
	if !f.Valid {
		return nil
	}
	return &f.Float64
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
