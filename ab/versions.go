package ab

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/mbench/mbench/internal/gitrev"
	"github.com/mbench/mbench/run"
)

// A Version is one side of a comparison: the test binaries of a git
// revision, built from a scratch worktree, or a prebuilt test binary.
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

	cleanup func()
}

// Close removes the version's worktree, if it has one. Benchmarks run in
// their package's source directory, so the version must stay open while
// they run. Close is safe to call more than once.
func (v *Version) Close() {
	if v.cleanup != nil {
		v.cleanup()
		v.cleanup = nil
	}
}

// BuildRevision builds the test binaries of the packages matching patterns
// at revision rev of the git repository containing opts.Dir; rev
// gitrev.WorkingTree builds the working tree as it is. Any other revision
// is checked out in a scratch worktree, so the working tree, index and
// branches are never touched.
func BuildRevision(ctx context.Context, rev string, patterns []string, opts run.BuildOptions) (*Version, error) {
	r, err := gitrev.Resolve(ctx, opts.Dir, rev)
	if err != nil {
		return nil, err
	}
	dir, cleanup, err := gitrev.Checkout(ctx, opts.Dir, rev)
	if err != nil {
		return nil, err
	}
	v := &Version{Label: rev, Commit: r.Commit, Dirty: r.Dirty, cleanup: cleanup}
	if rev == gitrev.WorkingTree {
		v.Label = r.Short
	}
	opts.Dir = dir
	if v.Binaries, err = run.Build(ctx, opts, patterns); err != nil {
		v.Close()
		return nil, fmt.Errorf("building %s: %w", rev, err)
	}
	if len(v.Binaries) == 0 {
		v.Close()
		return nil, fmt.Errorf("%s: no package matching %v has tests", rev, patterns)
	}
	return v, nil
}

// Prebuilt is a version given as a prebuilt test binary.
func Prebuilt(path string) (*Version, error) {
	bins, err := prebuilt(path)
	if err != nil {
		return nil, err
	}
	return &Version{Label: filepath.Base(path), Binaries: bins}, nil
}
