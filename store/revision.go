package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/internal/gitrev"
)

// A revision names what a git revision stands for in the store: the
// newest complete result of its commit.
//
// Runs record the commit they measured (bench.Run.Commit, with Dirty for
// uncommitted changes), and an interleaved A/B session records the
// commit of each of its two versions (bench.SettingOldCommit and
// bench.SettingNewCommit) besides its new one's as the run's. A
// revision resolves to a commit with git, in the repository that holds
// the store's repository directory (SetRepository; the current directory
// by default); a name git does not know, or that it finds ambiguous, or
// any name outside a repository, is read as the start of a commit hash
// the store records (at least minPrefix hex digits), so that a store
// copied from elsewhere still answers to commit prefixes.
//
// Of the runs that measured the commit, the newest (by start) complete
// one names the result: the runs sharing its label and commit, gathered
// (Gather), or the run alone when it has no label. Runs of the commit
// with uncommitted changes count only when no clean run measured it, with
// a warning. When the run is a session and the commit one of its
// versions, the result is that version (bench.Run.Version), so that two
// revisions naming the two sides of one session compare as the session.
type revision struct {
	commit  string
	run     RunInfo   // the newest complete run of commit
	group   []RunInfo // the runs gathered as its result, oldest first
	version string    // the session's version that commit is, "" for the whole run
	warning error
}

// SetRepository sets the directory whose git repository resolves the
// revisions that references name (see Resolve): by default the current
// directory.
func (s *Store) SetRepository(dir string) { s.repo = dir }

// resolveRevision resolves ref as a git revision (see revision). When
// ref names no commit, it returns a nil revision and error, and why says,
// to follow "no run has this id, id prefix or label", what git answered.
func (s *Store) resolveRevision(ref string) (rev *revision, why string, err error) {
	if ref == gitrev.WorkingTree {
		return nil, "and the working tree (.) is no stored result", nil
	}
	commits, why, err := s.revisionCommits(ref)
	if err != nil || len(commits) == 0 {
		return nil, why, err
	}
	rev, err = s.revisionOf(ref, commits)
	return rev, "", err
}

// revisionOf returns the revision of ref, which names one of commits.
func (s *Store) revisionOf(ref string, commits []string) (*revision, error) {
	if len(commits) > 1 {
		return nil, s.ambiguousCommit(ref, commits)
	}
	rev := &revision{commit: commits[0]}
	infos, err := s.runsOfCommit(rev.commit)
	if err != nil {
		return nil, err
	}
	var complete, clean []sideRun
	for _, sr := range infos {
		if sr.info.Status == StatusComplete {
			complete = append(complete, sr)
			if !sr.dirty {
				clean = append(clean, sr)
			}
		}
	}
	pick := clean
	if len(pick) == 0 {
		pick = complete
	}
	if len(pick) == 0 {
		if len(infos) == 0 {
			return nil, fmt.Errorf("git revision %s is commit %s, which no run in %s measured", ref, short(rev.commit), s.path)
		}
		var runs []string
		for _, sr := range infos {
			runs = append(runs, sr.info.ID+" ("+sr.info.Status+")")
		}
		return nil, fmt.Errorf("git revision %s is commit %s, which no run in %s measured to the end: %s; name one of them by id",
			ref, short(rev.commit), s.path, strings.Join(runs, ", "))
	}
	// The newest is the one that started last; runsOfCommit lists the
	// newest created first, which breaks ties.
	newest := pick[0]
	for _, sr := range pick[1:] {
		if sr.info.Start.After(newest.info.Start) {
			newest = sr
		}
	}
	if len(newest.versions) > 1 {
		return nil, fmt.Errorf("git revision %s is commit %s, which both versions of session %s (%s) measured: %s and %s; name the session instead",
			ref, short(rev.commit), newest.info.ID, newest.info.Label, newest.versions[0], newest.versions[1])
	}
	rev.run = newest.info
	if len(newest.versions) == 1 {
		rev.version = newest.versions[0]
	}
	if newest.dirty {
		rev.warning = fmt.Errorf("git revision %s: run %s measured commit %s with uncommitted changes; no run measured the commit itself",
			ref, newest.info.ID, short(rev.commit))
	}
	rev.group = []RunInfo{rev.run}
	if rev.run.Label != "" {
		// The result the run is part of: the runs of its label and
		// commit, as GatherResults groups them.
		group, err := s.runsWhere("r.label = ? AND r.commit_hash = ?", []any{rev.run.Label, rev.run.Commit})
		if err != nil {
			return nil, err
		}
		rev.group = slices.DeleteFunc(group, func(ri RunInfo) bool { return ri.Dirty != rev.run.Dirty })
		slices.Reverse(rev.group)
	}
	return rev, nil
}

// revisionCommits returns the commits ref may name: the one git resolves
// it to, or else the commits the store records that start with ref. When
// there are none, why says what git answered.
func (s *Store) revisionCommits(ref string) (commits []string, why string, err error) {
	r, gitErr := gitrev.Resolve(context.Background(), cmp.Or(s.repo, "."), ref)
	switch {
	case gitErr == nil:
		return []string{r.Commit}, "", nil
	case errors.Is(gitErr, gitrev.ErrNoRepository):
		why = "and no git repository here to read it as a revision"
	case errors.Is(gitErr, gitrev.ErrNotFound):
		why = "nor a git revision of this repository"
	default:
		why = "nor a git revision: " + gitErr.Error()
	}
	if len(ref) < minPrefix || strings.Trim(strings.ToLower(ref), "0123456789abcdef") != "" {
		return nil, why, nil
	}
	prefix := strings.ToLower(ref)
	commits, err = s.column(`SELECT DISTINCT c FROM (
		SELECT commit_hash AS c FROM runs WHERE substr(commit_hash, 1, ?) = ?
		UNION SELECT value AS c FROM run_settings WHERE name IN (?, ?) AND substr(value, 1, ?) = ?) t
		ORDER BY c`, len(prefix), prefix, bench.SettingOldCommit, bench.SettingNewCommit, len(prefix), prefix)
	return commits, why, err
}

// ambiguousCommit is the error of a commit prefix that starts several
// commits the store records, naming each with its newest run.
func (s *Store) ambiguousCommit(ref string, commits []string) error {
	var named []string
	for _, c := range commits {
		runs, err := s.runsOfCommit(c)
		if err != nil {
			return err
		}
		name := short(c)
		if len(runs) > 0 {
			name += " (run " + runs[0].info.ID
			if l := runs[0].info.Label; l != "" {
				name += ", " + l
			}
			name += ")"
		}
		named = append(named, name)
	}
	if len(named) > maxListed {
		named = append(named[:maxListed], fmt.Sprintf("... (%d more)", len(named)-maxListed))
	}
	return fmt.Errorf("ambiguous commit prefix %s: commits %s; give more of the hash", ref, strings.Join(named, ", "))
}

// A sideRun is a run that measured a commit, with the versions of a
// session that are that commit (none for a run that is the commit as a
// whole) and whether it measured uncommitted changes.
type sideRun struct {
	info     RunInfo
	versions []string
	dirty    bool
}

// runsOfCommit returns the runs that measured commit, newest created
// first: as the run's commit, or as a version of an interleaved session.
func (s *Store) runsOfCommit(commit string) ([]sideRun, error) {
	infos, err := s.runsWhere(`r.commit_hash = ? OR r.num IN
		(SELECT run FROM run_settings WHERE name IN (?, ?) AND value = ?)`,
		[]any{commit, bench.SettingOldCommit, bench.SettingNewCommit, commit})
	if err != nil {
		return nil, err
	}
	out := make([]sideRun, 0, len(infos))
	for _, ri := range infos {
		set, err := s.sessionSettings(ri.ID)
		if err != nil {
			return nil, err
		}
		sr := sideRun{info: ri, dirty: ri.Dirty}
		if set[bench.SettingMode] == bench.ModeInterleaved {
			// The new version's dirt is the run's; the old one is
			// always a commit.
			if set[bench.SettingOldCommit] == commit {
				sr.versions = append(sr.versions, set[bench.SettingOld])
				sr.dirty = false
			}
			if set[bench.SettingNewCommit] == commit {
				sr.versions = append(sr.versions, set[bench.SettingNew])
				sr.dirty = ri.Dirty
			}
		}
		out = append(out, sr)
	}
	return out, nil
}

// sessionSettings returns the settings of run id that tell a session's
// versions and their commits.
func (s *Store) sessionSettings(id string) (map[string]string, error) {
	rows, err := s.db.Query(`SELECT name, value FROM run_settings
		WHERE run = (SELECT num FROM runs WHERE id = ?) AND name IN (?, ?, ?, ?, ?)`,
		id, bench.SettingMode, bench.SettingOld, bench.SettingNew, bench.SettingOldCommit, bench.SettingNewCommit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	set := make(map[string]string)
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		set[k] = v
	}
	return set, rows.Err()
}

// short returns a commit hash's first 12 digits, as WriteRuns shows it.
func short(commit string) string {
	return commit[:min(len(commit), 12)]
}

// loadRevision loads the result rev names: its runs gathered, and of a
// session the version that is its commit.
func (s *Store) loadRevision(rev *revision) (*bench.Run, []error, error) {
	r, warnings, err := s.gatherRuns(rev.group)
	if rev.warning != nil {
		warnings = append([]error{rev.warning}, warnings...)
	}
	if err != nil {
		return nil, warnings, err
	}
	if rev.version != "" {
		r = r.Version(rev.version)
	}
	return r, warnings, nil
}
