package run

import (
	"debug/buildinfo"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"fmt"
	"os"
	"runtime"
	"strings"
)

// A BinaryCheck is what CheckBinary found out about a file given as a
// test binary.
type BinaryCheck struct {
	// Problems make the file unfit to be measured, or its results less
	// reliable; each names the file.
	Problems []string
	// Unchecked says what could not be checked, and why; each names the
	// file.
	Unchecked []string
}

// testMain is the function of the testing package that every test
// binary's generated main calls.
const testMain = "testing.MainStart"

// CheckBinary checks, for mbench doctor, that the file at path is a Go
// test binary (as go test -c builds one) that this machine can run, and
// how it was built (BinaryWarnings). A test binary is an executable Go
// program, with the build information of Go 1.18 or later
// (debug/buildinfo), whose main package is a test's (its import path ends
// in ".test") or that holds the testing package's main, testing.MainStart
// (other tools than the go command build tests under other names). What
// the file lacks to be checked (build information, a symbol table) comes
// back in Unchecked. The error is that of os.Stat: the file is not there.
func CheckBinary(path string) (BinaryCheck, error) {
	var c BinaryCheck
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return c, err
	case fi.IsDir():
		c.Problems = append(c.Problems, fmt.Sprintf("%s: a directory, not a Go test binary", path))
		return c, nil
	case !fi.Mode().IsRegular():
		c.Problems = append(c.Problems, fmt.Sprintf("%s: not a regular file, not a Go test binary", path))
		return c, nil
	}
	built := fmt.Sprintf("%s: how it was built (race detector, coverage, -gcflags), which only Go's build information says", path)
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		what := "not an executable file (ELF, Mach-O or PE)"
		if executable(path) {
			what = "an executable without Go build information (not built by Go 1.18 or later)"
		}
		c.Problems = append(c.Problems, fmt.Sprintf("%s: not a Go test binary: %s", path, what))
		c.Unchecked = append(c.Unchecked, built)
		return c, nil
	}
	if !strings.HasSuffix(bi.Path, ".test") {
		has, ok := hasSymbol(path, testMain)
		switch {
		case !ok:
			c.Unchecked = append(c.Unchecked, fmt.Sprintf("%s: whether it is a test binary: its main package, %s, is not a test's, and it has no symbol table to look for %s in", path, bi.Path, testMain))
		case !has:
			c.Problems = append(c.Problems, fmt.Sprintf("%s: not a Go test binary: a Go program (%s) without the testing package's main; go test -c builds test binaries", path, bi.Path))
		}
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	goos, goarch := settings["GOOS"], settings["GOARCH"]
	if (goos != "" && goos != runtime.GOOS) || (goarch != "" && goarch != runtime.GOARCH) {
		c.Problems = append(c.Problems, fmt.Sprintf("%s: built for %s/%s; this machine is %s/%s", path, goos, goarch, runtime.GOOS, runtime.GOARCH))
	}
	if fi.Mode().Perm()&0o111 == 0 && runtime.GOOS != "windows" {
		c.Problems = append(c.Problems, fmt.Sprintf("%s: not executable (its mode is %v; chmod +x)", path, fi.Mode().Perm()))
	}
	c.Problems = append(c.Problems, BinaryWarnings(path, nil)...)
	return c, nil
}

// executable reports whether the file at path is an executable of a
// format Go builds: ELF, Mach-O or PE.
func executable(path string) bool {
	if f, err := elf.Open(path); err == nil {
		f.Close()
		return true
	}
	if f, err := macho.Open(path); err == nil {
		f.Close()
		return true
	}
	if f, err := pe.Open(path); err == nil {
		f.Close()
		return true
	}
	return false
}

// hasSymbol reports whether the executable at path defines the symbol
// name, and ok false when it has no symbol table (a binary built with
// -ldflags=-s) or is of no format Go builds.
func hasSymbol(path, name string) (has, ok bool) {
	if f, err := elf.Open(path); err == nil {
		defer f.Close()
		syms, err := f.Symbols()
		if err != nil {
			return false, false
		}
		for _, s := range syms {
			if s.Name == name {
				return true, true
			}
		}
		return false, true
	}
	if f, err := macho.Open(path); err == nil {
		defer f.Close()
		if f.Symtab == nil {
			return false, false
		}
		for _, s := range f.Symtab.Syms {
			if s.Name == name || s.Name == "_"+name {
				return true, true
			}
		}
		return false, true
	}
	if f, err := pe.Open(path); err == nil {
		defer f.Close()
		if len(f.Symbols) == 0 {
			return false, false
		}
		for _, s := range f.Symbols {
			if s.Name == name {
				return true, true
			}
		}
		return false, true
	}
	return false, false
}
