package run

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/mbench/mbench/internal/probe"
	"github.com/mbench/mbench/internal/proc"
)

// ErrNoProbe matches the error BuildProbed returns when the probe cannot be
// built into the toolchain's testing package (another Go version): the
// caller should build without it (Build) and run the two sides of a duet
// free.
var ErrNoProbe = probe.ErrUnsupported

// ProfileRateVar is the environment variable that sets the CPU profile
// rate, in samples per second, of a binary built with the probe: its
// -test.cpuprofile then records at that rate, not at 100 Hz.
const ProfileRateVar = probe.ProfileRateVar

// BuildProbed builds test binaries as Build does, with the duet probe in
// their testing package (package internal/probe: a barrier before every
// timed iteration and a filler after it). The probe's source files are
// written under opts.CacheDir/probe (by default the user cache directory's
// mbench/probe), which must lie outside the module.
//
// An error matching ErrNoProbe means the toolchain's testing package is
// not the one the probe patches, or the patched package does not compile
// while the plain build does.
func BuildProbed(ctx context.Context, opts BuildOptions, patterns []string) ([]Binary, error) {
	// The go command that builds in opts.Dir: a toolchain line in go.mod
	// may make it another than this program's.
	goroot, err := goCmd(ctx, opts.Dir, "env", "GOROOT")
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
	overlay, err := probe.Overlay(strings.TrimSpace(goroot), filepath.Join(dir, "probe"))
	if err != nil {
		return nil, fmt.Errorf("duet: %w", err)
	}
	probed := opts
	probed.Overlay = maps.Clone(opts.Overlay)
	if probed.Overlay == nil {
		probed.Overlay = make(map[string]string)
	}
	maps.Copy(probed.Overlay, overlay)
	bins, err := Build(ctx, probed, patterns)
	if err == nil {
		return bins, nil
	}
	// Tell a probe that does not compile from code that does not.
	if _, plainErr := Build(ctx, opts, patterns); plainErr == nil {
		return nil, fmt.Errorf("duet: %w: the patched testing package does not build: %v", ErrNoProbe, err)
	}
	return nil, err
}

// HasProbe reports whether the test binary at path carries the probe, as
// BuildProbed builds it (or any build with the same overlay): started
// with a malformed probe setting, such a binary says so and exits, where
// one without the probe ignores the setting.
func HasProbe(ctx context.Context, path string) bool {
	cmd := proc.Command(ctx, path, "-test.run=^$", "-test.bench=^$")
	cmd.Env = append(os.Environ(), probe.EnvVar+"=?")
	out, err := cmd.CombinedOutput()
	return err != nil && strings.Contains(string(out), probe.EnvVar+"=?")
}
