package run

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mbench/mbench/internal/proc"
)

// A Binary is a test binary and the directory it runs in (its package's
// source directory, as `go test` does, so that benchmarks find testdata).
type Binary struct {
	// Package is the import path, or "" for a prebuilt binary whose
	// package is learned from its output.
	Package string
	Path    string
	Dir     string
	// Label names a prebuilt binary (label=path.test).
	Label string
	// Flags are the build flags, recorded for the hygiene checks.
	Flags []string
}

// BuildOptions control how test binaries are built.
type BuildOptions struct {
	// Dir is the module directory the package patterns are relative to.
	Dir string
	// Tags and GCFlags are passed to `go test -c` as -tags and -gcflags.
	Tags, GCFlags string
	// CacheDir holds built binaries by content hash; "" means
	// os.UserCacheDir()/mbench.
	CacheDir string
	// Overlay maps source files to replacements, as go build -overlay
	// does: the binary is built as if each file had the replacement's
	// content, without touching the file.
	Overlay map[string]string
	// Log receives one line per package built or found in the cache.
	Log io.Writer
	// Version, if not "", starts each line of Log: it names the version
	// built when a caller builds two ("old (v1.2.0, 3f2a1bc12345)").
	Version string
}

// listedPackage is the part of `go list -json` output Build needs.
type listedPackage struct {
	ImportPath   string
	Dir          string
	Standard     bool
	Module       *struct{ Path, Version, Dir, GoMod string }
	TestGoFiles  []string
	XTestGoFiles []string
	// Every file that can change a build; EmbedFiles are relative to Dir.
	GoFiles, CgoFiles, CFiles, CXXFiles, HFiles, SFiles, SysoFiles, EmbedFiles []string
	Error                                                                      *struct{ Err string }
	DepsErrors                                                                 []*struct{ Err string }
}

// Build builds the test binary of every package matched by patterns that
// has test files, reusing a cached binary when nothing that goes into it has
// changed. The cache key hashes the toolchain, the build flags, and the
// content of every source file of every dependency outside the standard
// library and the module cache (modules there are identified by version).
func Build(ctx context.Context, opts BuildOptions, patterns []string) ([]Binary, error) {
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	if opts.CacheDir == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("no cache directory for test binaries: %v", err)
		}
		opts.CacheDir = filepath.Join(dir, "mbench", "bin")
	}
	if err := os.MkdirAll(opts.CacheDir, 0o777); err != nil {
		return nil, err
	}
	pkgs, err := goList(ctx, opts, patterns, false)
	if err != nil {
		return nil, err
	}
	envKey, err := goCmd(ctx, opts.Dir, "env", "GOVERSION", "GOOS", "GOARCH", "GOAMD64", "GOARM64", "CGO_ENABLED", "GOFLAGS", "GOEXPERIMENT", "CC")
	if err != nil {
		return nil, err
	}
	var bins []Binary
	for _, p := range pkgs {
		if len(p.TestGoFiles)+len(p.XTestGoFiles) == 0 {
			continue
		}
		if p.Error != nil {
			return nil, fmt.Errorf("%s: %s", p.ImportPath, p.Error.Err)
		}
		key, err := buildKey(ctx, opts, p.ImportPath, envKey)
		if err != nil {
			return nil, err
		}
		var flags []string
		if opts.Tags != "" {
			flags = append(flags, "-tags="+opts.Tags)
		}
		if opts.GCFlags != "" {
			flags = append(flags, "-gcflags="+opts.GCFlags)
		}
		if len(opts.Overlay) > 0 {
			file, err := writeOverlay(opts.CacheDir, opts.Overlay)
			if err != nil {
				return nil, err
			}
			defer os.Remove(file)
			flags = append(flags, "-overlay="+file)
		}
		bin := Binary{Package: p.ImportPath, Dir: p.Dir, Path: filepath.Join(opts.CacheDir, key+".test"), Flags: flags}
		if _, err := os.Stat(bin.Path); err == nil {
			opts.logf("%s: cached test binary", p.ImportPath)
			bins = append(bins, bin)
			continue
		}
		opts.logf("%s: building test binary", p.ImportPath)
		tmp := bin.Path + ".tmp" + fmt.Sprint(os.Getpid())
		// -vet=off: go test runs part of go vet before building, and a
		// vet complaint about a test file (a misnamed example) would
		// otherwise stop the benchmarks from running at all.
		args := append([]string{"test", "-c", "-vet=off", "-o", tmp}, flags...)
		args = append(args, p.ImportPath)
		if _, err := goCmd(ctx, opts.Dir, args...); err != nil {
			os.Remove(tmp)
			return nil, err
		}
		if _, err := os.Stat(tmp); err != nil {
			// `go test -c` writes nothing for a package whose tests
			// have no Test/Benchmark functions to link.
			continue
		}
		if err := os.Rename(tmp, bin.Path); err != nil {
			return nil, err
		}
		bins = append(bins, bin)
	}
	return bins, nil
}

// writeOverlay writes the JSON file go build -overlay reads.
func writeOverlay(dir string, replace map[string]string) (string, error) {
	f, err := os.CreateTemp(dir, "overlay-*.json")
	if err != nil {
		return "", err
	}
	defer f.Close()
	if err := json.NewEncoder(f).Encode(struct{ Replace map[string]string }{replace}); err != nil {
		return "", err
	}
	return f.Name(), nil
}

// buildKey hashes everything the test binary of pkg is built from.
func buildKey(ctx context.Context, opts BuildOptions, pkg, envKey string) (string, error) {
	deps, err := goList(ctx, opts, []string{pkg}, true)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "mbench build key v1\n%s\ntags=%s\ngcflags=%s\n%s\n", envKey, opts.Tags, opts.GCFlags, pkg)
	// Every overlay counts, also one replacing a standard-library file
	// (the testing probe), which the loop below does not hash.
	for _, f := range slices.Sorted(maps.Keys(opts.Overlay)) {
		fmt.Fprintf(h, "overlay %s\n", f)
		if err := hashFile(h, opts.Overlay[f]); err != nil {
			return "", err
		}
	}
	for _, d := range deps {
		if d.Standard {
			fmt.Fprintf(h, "std %s\n", d.ImportPath)
			continue
		}
		if d.Module != nil && d.Module.Version != "" {
			fmt.Fprintf(h, "mod %s %s@%s\n", d.ImportPath, d.Module.Path, d.Module.Version)
			continue
		}
		if d.Module != nil && d.Module.GoMod != "" {
			if err := hashFile(h, d.Module.GoMod); err != nil {
				return "", err
			}
			hashFile(h, strings.TrimSuffix(d.Module.GoMod, ".mod")+".sum")
		}
		files := slices.Concat(d.GoFiles, d.CgoFiles, d.CFiles, d.CXXFiles, d.HFiles, d.SFiles, d.SysoFiles, d.EmbedFiles)
		if d.ImportPath == pkg || strings.TrimSuffix(d.ImportPath, "_test") == pkg {
			files = slices.Concat(files, d.TestGoFiles, d.XTestGoFiles)
		}
		slices.Sort(files)
		files = slices.Compact(files)
		if strings.HasSuffix(d.ImportPath, ".test") {
			// The generated test main, derived from the rest.
			continue
		}
		fmt.Fprintf(h, "pkg %s\n", d.ImportPath)
		for _, f := range files {
			fmt.Fprintf(h, "file %s\n", f)
			if !filepath.IsAbs(f) {
				f = filepath.Join(d.Dir, f)
			}
			if repl, ok := opts.Overlay[f]; ok {
				fmt.Fprintf(h, "overlay\n")
				f = repl
			}
			if err := hashFile(h, f); err != nil {
				return "", err
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}

func hashFile(w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

// goList runs `go list -json` on patterns, with -deps -test when deps is set.
func goList(ctx context.Context, opts BuildOptions, patterns []string, deps bool) ([]listedPackage, error) {
	args := []string{"list", "-e", "-json"}
	if deps {
		args = append(args, "-deps", "-test")
	}
	if opts.Tags != "" {
		args = append(args, "-tags="+opts.Tags)
	}
	args = append(args, patterns...)
	out, err := goCmd(ctx, opts.Dir, args...)
	if err != nil {
		return nil, err
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("reading go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if !deps {
		for _, p := range pkgs {
			if p.Error != nil && len(p.TestGoFiles)+len(p.XTestGoFiles)+len(p.GoFiles) == 0 {
				return nil, fmt.Errorf("%s", p.Error.Err)
			}
		}
	}
	return pkgs, nil
}

// goCmd runs the go command in dir and returns its stdout; a failure
// returns its stderr as the error.
func goCmd(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := proc.Command(ctx, "go", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		var ee *exec.Error
		if errors.As(err, &ee) {
			return "", fmt.Errorf("cannot run the go command: %v", err)
		}
		return "", fmt.Errorf("go %s: %s", args[0], msg)
	}
	return stdout.String(), nil
}

// logf writes a line to o.Log, after o.Version when it is set.
func (o *BuildOptions) logf(format string, args ...any) {
	if o.Log == nil {
		return
	}
	line := fmt.Sprintf(format, args...)
	if o.Version != "" {
		line = o.Version + ": " + line
	}
	fmt.Fprintln(o.Log, line)
}
