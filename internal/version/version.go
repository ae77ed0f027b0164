// Package version says which mbench is running: its version, the commit
// it was built from and the Go that built it, from the build information
// the go command records in the binary.
package version

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
)

// Write writes the three lines of 'mbench version' from the build
// information of the binary (nil when it has none):
//
//	mbench VERSION
//	revision REV [(modified)]
//	go GOVERSION GOOS/GOARCH
//
// VERSION is that of the module holding the mbench package: a release such
// as v1.2.0 after 'go install ...@v1.2.0'; for a build in a checkout, the
// pseudo-version the go command derives from the commit, or "(devel)"
// under -buildvcs=false; "=> DIR" follows it when a replace directive
// points elsewhere. REV comes from the version control information the go
// command records for a build in a checkout, or else from a
// pseudo-version; it is "unknown" when neither says.
func Write(w io.Writer, info *debug.BuildInfo) {
	version, rev, modified := "unknown", "unknown", false
	goVersion := runtime.Version()
	if info != nil {
		goVersion = info.GoVersion
		m := moduleOf(info, info.Path)
		if m != nil {
			version = m.Version
			if m.Replace != nil {
				version += " => " + strings.TrimSpace(m.Replace.Path+" "+m.Replace.Version)
			}
			rev = pseudoRevision(m.Version)
		}
		// The version control settings describe the main module only,
		// which is mbench itself unless mbench is a dependency (a tool).
		if m == &info.Main {
			for _, s := range info.Settings {
				switch s.Key {
				case "vcs.revision":
					rev = s.Value
				case "vcs.modified":
					modified = s.Value == "true"
				}
			}
		}
	}
	if version == "" {
		version = "unknown"
	}
	if modified {
		rev += " (modified)"
	}
	fmt.Fprintf(w, "mbench %s\nrevision %s\ngo %s %s/%s\n", version, rev, goVersion, runtime.GOOS, runtime.GOARCH)
}

// moduleOf returns the module of info that holds package pkg: the one
// with the longest path that is pkg or a prefix of it. It is nil when
// none is.
func moduleOf(info *debug.BuildInfo, pkg string) *debug.Module {
	var best *debug.Module
	consider := func(m *debug.Module) {
		if m.Path != "" && (pkg == m.Path || strings.HasPrefix(pkg, m.Path+"/")) &&
			(best == nil || len(m.Path) > len(best.Path)) {
			best = m
		}
	}
	consider(&info.Main)
	for _, m := range info.Deps {
		consider(m)
	}
	return best
}

// pseudoRevision returns the commit named by a pseudo-version such as
// v0.0.0-20260101120000-0123456789ab (its last field, 12 hexadecimal
// digits after a 14-digit time), or "unknown" for any other version and
// for the placeholder v0.0.0-00010101000000-000000000000.
func pseudoRevision(v string) string {
	v, _, _ = strings.Cut(v, "+") // +incompatible, +dirty
	fields := strings.Split(v, "-")
	if len(fields) < 3 {
		return "unknown"
	}
	rev, t := fields[len(fields)-1], fields[len(fields)-2]
	t = t[strings.LastIndexByte(t, '.')+1:] // vX.Y.Z-pre.0.TIME-REV
	if len(rev) != 12 || strings.Trim(rev, "0123456789abcdef") != "" ||
		len(t) != 14 || strings.Trim(t, "0123456789") != "" ||
		rev == "000000000000" { // the placeholder of a requirement that only a replace satisfies
		return "unknown"
	}
	return rev
}
