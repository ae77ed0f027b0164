package ab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mbench/mbench/internal/gitrev"
	"github.com/mbench/mbench/run"
)

// A Version is one side of a comparison: the test binaries of a git
// revision, built from a scratch checkout, or a prebuilt test binary.
type Version struct {
	// Label names the version in the store and the report: the revision
	// as given, or the binary's file name.
	Label string
	// Commit is the revision's commit hash, "" for a prebuilt binary;
	// Dirty is set for a working tree with uncommitted changes.
	Commit string
	Dirty  bool
	// Binaries are the test binaries, one per package with tests.
	Binaries []run.Binary
	// Probed reports whether the binaries carry the duet probe
	// (run.BuildProbed).
	Probed bool

	cleanup func()
}

// Close removes the version's checkout, if it has one. Benchmarks run in
// their package's source directory, so the version must stay open while
// they run. Close is safe to call more than once, and on nil.
func (v *Version) Close() {
	if v != nil && v.cleanup != nil {
		v.cleanup()
		v.cleanup = nil
	}
}

// BuildRevision builds the test binaries of the packages matching patterns
// at revision rev of the git repository containing opts.Dir; rev
// gitrev.WorkingTree builds the working tree as it is. Any other revision
// is checked out in a scratch directory (gitrev.Checkout), so the working
// tree, index and branches are never touched.
func BuildRevision(ctx context.Context, rev string, patterns []string, opts run.BuildOptions) (*Version, error) {
	v, _, err := buildRevision(ctx, "", rev, patterns, opts, false)
	return v, err
}

// errRunFree follows a warning that the two sides cannot run with the probe.
const errRunFree = "the two sides run free, paired by iteration index, without a barrier or filler"

// buildRevision is BuildRevision, with the probe when probe is set. When
// the toolchain does not fit the probe, it builds without it and returns
// a warning that says so. side, "old" or "new", and the revision start
// each line of the build's log, so that the two builds read apart.
func buildRevision(ctx context.Context, side, rev string, patterns []string, opts run.BuildOptions, probe bool) (v *Version, warning error, err error) {
	r, err := gitrev.Resolve(ctx, opts.Dir, rev)
	if err != nil {
		return nil, nil, err
	}
	dir, cleanup, err := gitrev.Checkout(ctx, opts.Dir, rev)
	if err != nil {
		return nil, nil, err
	}
	v = &Version{Label: rev, Commit: r.Commit, Dirty: r.Dirty, Probed: probe, cleanup: cleanup}
	if rev == gitrev.WorkingTree {
		v.Label = r.Short
	}
	opts.Dir = dir
	if side != "" {
		opts.Version = side + " (" + revisionWords(rev, r) + ")"
	}
	if probe {
		v.Binaries, err = run.BuildProbed(ctx, opts, patterns)
		if errors.Is(err, run.ErrNoProbe) {
			warning = fmt.Errorf("%v\n%s", err, errRunFree)
			v.Probed = false
		}
	}
	if !v.Probed {
		v.Binaries, err = run.Build(ctx, opts, patterns)
	}
	if err != nil {
		v.Close()
		if ctx.Err() != nil {
			return nil, nil, fmt.Errorf("building %s: %w", rev, err)
		}
		return nil, nil, &RevisionError{Rev: rev, Err: fmt.Errorf("building %s: %w", rev, err)}
	}
	if len(v.Binaries) == 0 {
		v.Close()
		return nil, nil, &RevisionError{Rev: rev, Err: fmt.Errorf("%s: no package matching %v has tests", rev, patterns)}
	}
	return v, warning, nil
}

// revisionWords names revision r, given as rev, for people: "v1.2.0,
// 3f2a1bc12345", or "working tree, 3f2a1bc12345-dirty".
func revisionWords(rev string, r gitrev.Revision) string {
	short := r.Commit[:min(12, len(r.Commit))]
	switch {
	case rev == gitrev.WorkingTree:
		return "working tree, " + r.Short
	case strings.HasPrefix(r.Commit, rev):
		return short
	}
	return rev + ", " + short
}

// A RevisionError says that a revision cannot be measured: it does not
// build, or no package it selects has tests.
type RevisionError struct {
	Rev string
	Err error // its message names the revision
}

func (e *RevisionError) Error() string { return e.Err.Error() }
func (e *RevisionError) Unwrap() error { return e.Err }

// Prebuilt is a version given as a prebuilt test binary, run in its own
// directory. Probed says whether it carries the probe (run.HasProbe).
func Prebuilt(path string) (*Version, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil || st.IsDir() {
		return nil, fmt.Errorf("test binary %s: not a file", path)
	}
	return &Version{Label: filepath.Base(path), Binaries: []run.Binary{{Path: abs, Dir: filepath.Dir(abs)}},
		Probed: run.HasProbe(context.Background(), abs)}, nil
}

// versions builds or finds the two versions of a parallel session, with
// the probe when cfg asks for it and both versions can carry it. The
// caller closes both, also when versions fails.
func (s *ParallelSession) versions(ctx context.Context, opts run.BuildOptions) (old, new *Version, err error) {
	cfg := &s.cfg
	opts.Dir = s.dir
	version := func(side, rev, bin string, probe bool) (*Version, error) {
		if bin != "" {
			return Prebuilt(bin)
		}
		v, warning, err := buildRevision(ctx, side, rev, cfg.Packages, opts, probe)
		if warning != nil {
			s.warnings = append(s.warnings, warning)
		}
		return v, err
	}
	old, err = version("old", cfg.OldRev, cfg.OldBin, cfg.Probe)
	new = old
	if err == nil && !cfg.AA {
		new, err = version("new", cfg.NewRev, cfg.NewBin, old.Probed)
	}
	if err != nil {
		return old, new, err
	}
	// A side without the probe makes both run free.
	if !new.Probed {
		old.Probed = false
	}
	if cfg.OldBin != "" && cfg.Probe && !old.Probed {
		s.warnf("prebuilt test binaries carry no probe: %s", errRunFree)
	}
	if !cfg.Probe {
		old.Probed, new.Probed = false, false
	}
	return old, new, nil
}
