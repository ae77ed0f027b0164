package duet

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/mbench/mbench/internal/probe"
	"github.com/mbench/mbench/internal/proc"
	"github.com/mbench/mbench/run"
)

// ErrNoProbe matches the error Build returns when the probe cannot be built
// into the toolchain's testing package (another Go version): the caller
// should build without it (run.Build) and run the two sides free.
var ErrNoProbe = probe.ErrUnsupported

// Build builds test binaries as run.Build does, with the probe in their
// testing package. The probe's source files are written under
// opts.CacheDir/probe (by default the user cache directory's
// mbench/probe), which must lie outside the module.
//
// An error matching ErrNoProbe means the toolchain's testing package is
// not the one the probe patches, or the patched package does not compile
// while the plain build does.
func Build(ctx context.Context, opts run.BuildOptions, patterns []string) ([]run.Binary, error) {
	goroot, err := goEnvGOROOT(ctx, opts.Dir)
	if err != nil {
		return nil, err
	}
	dir := opts.CacheDir
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("no cache directory for the probe: %v", err)
		}
		dir = filepath.Join(cache, "mbench")
	}
	overlay, err := probe.Overlay(goroot, filepath.Join(dir, "probe"))
	if err != nil {
		return nil, fmt.Errorf("duet: %w", err)
	}
	probed := opts
	probed.Overlay = maps.Clone(opts.Overlay)
	if probed.Overlay == nil {
		probed.Overlay = make(map[string]string)
	}
	maps.Copy(probed.Overlay, overlay)
	bins, err := run.Build(ctx, probed, patterns)
	if err == nil {
		return bins, nil
	}
	// Tell a probe that does not compile from code that does not.
	if _, plainErr := run.Build(ctx, opts, patterns); plainErr == nil {
		return nil, fmt.Errorf("duet: %w: the patched testing package does not build: %v", ErrNoProbe, err)
	}
	return nil, err
}

// goEnvGOROOT returns the GOROOT of the go command that builds in dir,
// which a toolchain line in go.mod may make another than this program's.
func goEnvGOROOT(ctx context.Context, dir string) (string, error) {
	cmd := proc.Command(ctx, "go", "env", "GOROOT")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}
