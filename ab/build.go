package ab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mbench/mbench/duet"
	"github.com/mbench/mbench/internal/gitrev"
	"github.com/mbench/mbench/run"
)

// buildSpec says which two versions to build and how.
type buildSpec struct {
	// dir is the directory, inside the module, that the package patterns
	// are relative to; for revisions, the matching directory of their
	// checkouts.
	dir      string
	patterns []string
	// Exactly one pair is set: two git revisions, or two prebuilt test
	// binaries. With same, the new version is the old one.
	oldRev, newRev string
	oldBin, newBin string
	same           bool
	// probe asks for the testing-package probe (duet.Build).
	probe bool
	opts  run.BuildOptions // Tags, GCFlags, CacheDir and Log; Dir is set per version
}

// versions are the test binaries of the two versions.
type versions struct {
	old, new []run.Binary
	// probed reports whether both were built with the probe: it may have
	// been asked for and still be missing, for prebuilt binaries or a
	// toolchain the probe does not fit.
	probed   bool
	warnings []error
	cleanups []func()
}

// cleanup removes the checkouts the versions were built from. The binaries
// live in the build cache and stay.
func (v *versions) cleanup() {
	for _, f := range v.cleanups {
		f()
	}
	v.cleanups = nil
}

// errRunFree follows a warning that the two sides cannot run with the probe.
const errRunFree = "the two sides run free, paired by iteration index, without a barrier or filler"

// build builds the two versions of spec. The caller must call the
// returned versions' cleanup, also when build fails: revisions checked out
// before the failure are removed by it.
func build(ctx context.Context, spec buildSpec) (*versions, error) {
	v := &versions{probed: spec.probe}
	if spec.oldBin != "" {
		var err error
		if v.old, err = prebuilt(spec.oldBin); err != nil {
			return v, err
		}
		v.new = v.old
		if !spec.same {
			if v.new, err = prebuilt(spec.newBin); err != nil {
				return v, err
			}
		}
		if v.probed {
			v.warnings = append(v.warnings, errors.New("prebuilt test binaries carry no probe: "+errRunFree))
		}
		v.probed = false
		return v, nil
	}
	buildRev := func(rev string) ([]run.Binary, error) {
		dir, cleanup, err := gitrev.Checkout(ctx, spec.dir, rev)
		if err != nil {
			return nil, err
		}
		v.cleanups = append(v.cleanups, cleanup)
		opts := spec.opts
		opts.Dir = dir
		if v.probed {
			bins, err := duet.Build(ctx, opts, spec.patterns)
			if !errors.Is(err, duet.ErrNoProbe) {
				return bins, err
			}
			v.warnings = append(v.warnings, fmt.Errorf("%v\n%s", err, errRunFree))
			v.probed = false
		}
		return run.Build(ctx, opts, spec.patterns)
	}
	var err error
	if v.old, err = buildRev(spec.oldRev); err != nil {
		return v, err
	}
	v.new = v.old
	if !spec.same {
		if v.new, err = buildRev(spec.newRev); err != nil {
			return v, err
		}
	}
	return v, nil
}

// prebuilt is a prebuilt test binary, run in its own directory.
func prebuilt(path string) ([]run.Binary, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil || st.IsDir() {
		return nil, fmt.Errorf("test binary %s: not a file", path)
	}
	return []run.Binary{{Path: abs, Dir: filepath.Dir(abs)}}, nil
}
