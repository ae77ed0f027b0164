package bisect

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mbench/mbench/ab"
	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/internal/gitrev"
	"github.com/mbench/mbench/run"
	"github.com/mbench/mbench/store"
)

// sessions is the Oracle of a bisection of git revisions: each comparison
// is an interleaved ab session of the two commits, stored under a label
// that names them, "OLD..NEW" by their first 12 hex digits ("OLD..NEW#2"
// for the second session of the pair, and so on). A session stored before
// for the same pair and benchmarks is analysed again instead of measured,
// and an interrupted one is resumed, so that a bisection run again goes on
// where it stopped.
type sessions struct {
	cfg  *Config
	db   *store.Store
	path []gitrev.Commit
	// keys are the benchmarks seen, by the name Row gives them
	// (bench.Key.String).
	keys map[string]bench.Key
	// missing holds, for a comparison that found no benchmark in both
	// commits, what each commit lacked.
	missing *ab.MissingError
	// labels are the stored sessions used, by pair, in repeat order.
	labels map[pair][]string
	// warnings are problems met on the way.
	warnings []string
}

// sessionLabel is the label of the slot-th session of a pair (slot 0 the
// first).
func sessionLabel(old, new gitrev.Commit, slot int) string {
	l := old.Short() + ".." + new.Short()
	if slot > 0 {
		l += fmt.Sprintf("#%d", slot+1)
	}
	return l
}

// versionLabels are the labels of the two versions in the slot-th session
// of a pair: ab labels a session OLD..NEW after them.
func versionLabels(old, new gitrev.Commit, slot int) (string, string) {
	n := new.Short()
	if slot > 0 {
		n += fmt.Sprintf("#%d", slot+1)
	}
	return old.Short(), n
}

// maxSlots bounds the sessions of one pair that a bisection looks for.
const maxSlots = 100

func (s *sessions) Compare(ctx context.Context, q Query) (Outcome, error) {
	old, new := s.path[q.Old], s.path[q.New]
	pattern := s.cfg.Session.Bench
	if q.Bench != nil {
		var parts []string
		for _, name := range q.Bench {
			parts = append(parts, run.Anchored(s.keys[name].Name))
		}
		slices.Sort(parts)
		pattern = strings.Join(slices.Compact(parts), "|")
	}
	infos, err := s.db.Runs()
	if err != nil {
		return Outcome{}, err
	}
	byLabel := map[string]store.RunInfo{}
	for _, ri := range infos { // newest first
		if _, ok := byLabel[ri.Label]; !ok {
			byLabel[ri.Label] = ri
		}
	}
	// The q.Repeat-th usable stored session of the pair, or the first free
	// slot after them.
	usable := 0
	for slot := 0; slot < maxSlots; slot++ {
		label := sessionLabel(old, new, slot)
		ri, stored := byLabel[label]
		if !stored {
			return s.measure(ctx, q, slot, pattern, "")
		}
		stored, r, err := s.usable(ri, old, new, q.Bench, pattern)
		if err != nil {
			return Outcome{}, err
		}
		if !stored {
			continue
		}
		if usable++; usable <= q.Repeat {
			continue
		}
		if ri.Status == store.StatusInterrupted {
			return s.measure(ctx, q, slot, pattern, ri.ID)
		}
		return s.outcome(q, slot, r, nil, nil)
	}
	return Outcome{}, fmt.Errorf("%d sessions of %s..%s are stored, none of them usable", maxSlots, old.Short(), new.Short())
}

// usable reports whether the stored session ri can serve as a comparison
// of old and new: it compares the two commits, holds every benchmark of
// names (or was selected by pattern, when names is nil), and completed
// or was interrupted. It returns the session's run when it completed.
func (s *sessions) usable(ri store.RunInfo, old, new gitrev.Commit, names []string, pattern string) (bool, *bench.Run, error) {
	if ri.Status != store.StatusComplete && ri.Status != store.StatusInterrupted {
		return false, nil, nil
	}
	r, err := s.db.Load(ri.ID)
	if err != nil {
		return false, nil, err
	}
	set := r.Settings
	if set[bench.SettingMode] != bench.ModeInterleaved || set[bench.SettingOldCommit] != old.Hash || set[bench.SettingNewCommit] != new.Hash {
		return false, nil, nil
	}
	if names == nil {
		return set[bench.SettingBench] == pattern, r, nil
	}
	have := map[string]bool{}
	for _, k := range r.Benchmarks {
		have[k.String()] = true
	}
	for _, n := range names {
		if !have[n] {
			return false, nil, nil
		}
	}
	return true, r, nil
}

// measure runs the session of slot of the pair q compares, or resumes the
// one stored as resume.
func (s *sessions) measure(ctx context.Context, q Query, slot int, pattern, resume string) (Outcome, error) {
	old, new := s.path[q.Old], s.path[q.New]
	o := s.cfg.Session
	o.OldRev, o.NewRev, o.OldBin, o.NewBin = old.Hash, new.Hash, "", ""
	o.OldLabel, o.NewLabel = versionLabels(old, new, slot)
	o.Bench, o.Resume = pattern, resume
	if n := len(q.Bench); n > 1 {
		// An answer about n benchmarks is wrong when one of theirs is:
		// each is decided at alpha/n, the union at alpha.
		o.Compare.Alpha /= float64(n)
	}
	// Each session of a pair measures anew: its own random order.
	o.Compare.Seed += uint64(slot)
	o.Settings = s.cfg.settings()
	sess, err := ab.RunInterleaved(ctx, o, s.db)
	if ctx.Err() != nil {
		return Outcome{}, ctx.Err()
	}
	var re *ab.RevisionError
	var me *ab.MissingError
	switch {
	case errors.As(err, &re):
		c := q.New
		if re.Rev == old.Hash {
			c = q.Old
		}
		return Outcome{Failed: &Failure{Commit: c, Reason: firstLine(re.Error())}}, nil
	case errors.As(err, &me):
		s.missing = me
		c, why := q.New, "missing"
		if len(me.OnlyOld) == 0 && len(me.OnlyNew) > 0 {
			c = q.Old
		}
		if len(me.Failures) > 0 {
			why = "failed: " + strings.Join(me.Failures, "; ")
		}
		return Outcome{Failed: &Failure{Commit: c, Reason: fmt.Sprintf("no benchmark matching %q: %s", s.cfg.Session.Bench, why)}}, nil
	case sess == nil:
		return Outcome{}, err
	}
	s.warnings = append(s.warnings, sess.Warnings...)
	return s.outcome(q, slot, sess.Run, sess, err)
}

// outcome analyses a session of the pair q compares: its rows for the
// benchmarks q names (all when nil), or the commit that failed. sess is
// the session just run, with its error, nil for one stored before.
func (s *sessions) outcome(q Query, slot int, r *bench.Run, sess *ab.Session, runErr error) (Outcome, error) {
	old, new := s.path[q.Old], s.path[q.New]
	label := sessionLabel(old, new, slot)
	p := pair{q.Old, q.New}
	s.labels[p] = append(s.labels[p], label)
	out := Outcome{Ref: label}
	if sess != nil && runErr != nil {
		// Benchmarks that failed are looked at below; a failure of
		// others (a package whose benchmarks could not be listed) is
		// a warning, as long as some benchmark was measured.
		measured := false
		for _, b := range sess.Benchmarks {
			measured = measured || b.Stop != ab.StopFailed && b.Rounds > 0
		}
		if !measured || errors.Is(runErr, store.ErrConnectionLost) {
			return Outcome{}, runErr
		}
		s.warnings = append(s.warnings, fmt.Sprintf("session %s: %v", label, runErr))
	}
	if sess != nil {
		for _, b := range sess.Benchmarks {
			if b.Stop != ab.StopFailed || q.Bench != nil && !slices.Contains(q.Bench, b.Key.String()) {
				continue
			}
			c := q.New
			if b.FailedOn == sess.Run.Settings[bench.SettingOld] {
				c = q.Old
			}
			if q.Bench != nil {
				return Outcome{Failed: &Failure{Commit: c, Reason: firstLine(b.Err.Error())}, Ref: label}, nil
			}
			s.warnings = append(s.warnings, b.Err.Error())
		}
		if q.Bench != nil {
			for _, k := range sess.OnlyOld {
				if slices.Contains(q.Bench, k.String()) {
					return Outcome{Failed: &Failure{Commit: q.New, Reason: fmt.Sprintf("%s is missing", k)}, Ref: label}, nil
				}
			}
		}
		out.Note = fmt.Sprintf("%d rounds", sess.Rounds)
	}
	oldRun, newRun, err := compare.Split(r)
	if err != nil {
		return Outcome{}, err
	}
	opts := s.cfg.Session.Compare
	opts.Metric = "sec/op"
	if a, ok := compare.LookAlpha(r); ok {
		opts.Alpha = a
	}
	res, err := compare.Compare(oldRun, newRun, opts)
	if err != nil {
		if runErr != nil {
			return Outcome{}, runErr
		}
		return Outcome{}, fmt.Errorf("session %s (%s): %v", r.ID, label, err)
	}
	for _, row := range res.Rows {
		name := row.Key.String()
		if q.Bench != nil && !slices.Contains(q.Bench, name) {
			continue
		}
		s.keys[name] = row.Key
		v := Inconclusive
		switch row.Verdict {
		case compare.NoChange:
			v = NoChange
		case compare.Worse:
			v = Slower
		case compare.Better:
			v = Faster
		}
		out.Rows = append(out.Rows, Row{Name: name, Ratio: row.Ratio.Center, Lo: row.Ratio.Lo, Hi: row.Ratio.Hi, Verdict: v})
	}
	if len(out.Rows) == 0 {
		return Outcome{Failed: &Failure{Commit: q.New, Reason: "no benchmark to compare"}, Ref: label}, nil
	}
	return out, nil
}

// firstLine returns s on one line: its lines joined by " | ", cut after
// maxReason bytes.
func firstLine(s string) string {
	var lines []string
	for l := range strings.Lines(s) {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	s = strings.Join(lines, " | ")
	if len(s) > maxReason {
		s = s[:maxReason] + " ..."
	}
	return s
}

// maxReason is the longest reason the log gives for a commit skipped.
const maxReason = 300
