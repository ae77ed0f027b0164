package version

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestWrite covers the ways mbench is built, with the build
// information the go command records for each.
func TestWrite(t *testing.T) {
	const (
		pkg  = "github.com/mbench/mbench/cmd/mbench"
		mod  = "github.com/mbench/mbench"
		rev  = "146e028f1ff680a6c49ba30be949c1d65d41a1e5"
		goV  = "go1.26.8"
		tail = "go " + goV + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	)
	vcs := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{
			{Key: "-buildmode", Value: "exe"},
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: rev},
			{Key: "vcs.modified", Value: modified},
		}
	}
	tests := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{{
		name: "go install @version",
		info: &debug.BuildInfo{GoVersion: goV, Path: pkg, Main: debug.Module{Path: mod, Version: "v1.2.0", Sum: "h1:x"}},
		want: "mbench v1.2.0\nrevision unknown\n" + tail,
	}, {
		name: "go install @commit",
		info: &debug.BuildInfo{GoVersion: goV, Path: pkg, Main: debug.Module{Path: mod, Version: "v1.2.1-0.20261128074058-146e028f1ff6"}},
		want: "mbench v1.2.1-0.20261128074058-146e028f1ff6\nrevision 146e028f1ff6\n" + tail,
	}, {
		name: "checkout, clean",
		info: &debug.BuildInfo{GoVersion: goV, Path: pkg, Main: debug.Module{Path: mod, Version: "v0.0.0-20261128074058-146e028f1ff6"}, Settings: vcs("false")},
		want: "mbench v0.0.0-20261128074058-146e028f1ff6\nrevision " + rev + "\n" + tail,
	}, {
		name: "checkout, modified",
		info: &debug.BuildInfo{GoVersion: goV, Path: pkg, Main: debug.Module{Path: mod, Version: "v0.0.0-20261128074058-146e028f1ff6+dirty"}, Settings: vcs("true")},
		want: "mbench v0.0.0-20261128074058-146e028f1ff6+dirty\nrevision " + rev + " (modified)\n" + tail,
	}, {
		name: "checkout, -buildvcs=false",
		info: &debug.BuildInfo{GoVersion: goV, Path: pkg, Main: debug.Module{Path: mod, Version: "(devel)"}},
		want: "mbench (devel)\nrevision unknown\n" + tail,
	}, {
		// go tool mbench in another module: the version control
		// settings are that module's, not mbench's.
		name: "tool, replaced",
		info: &debug.BuildInfo{GoVersion: goV, Path: pkg, Main: debug.Module{Path: "example.com/app", Version: "(devel)"},
			Deps: []*debug.Module{
				{Path: "golang.org/x/perf", Version: "v0.0.0-20260908200009-22c9c6c9d4da"},
				{Path: mod, Version: "v0.0.0-00010101000000-000000000000", Replace: &debug.Module{Path: "/src/mbench", Version: "(devel)"}},
			},
			Settings: vcs("true")},
		want: "mbench v0.0.0-00010101000000-000000000000 => /src/mbench (devel)\nrevision unknown\n" + tail,
	}, {
		name: "tool, required",
		info: &debug.BuildInfo{GoVersion: goV, Path: pkg, Main: debug.Module{Path: "example.com/app", Version: "(devel)"},
			Deps: []*debug.Module{{Path: mod, Version: "v1.3.0"}}, Settings: vcs("false")},
		want: "mbench v1.3.0\nrevision unknown\n" + tail,
	}, {
		name: "no build information",
		want: "mbench unknown\nrevision unknown\ngo " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			Write(&b, tc.info)
			if b.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
}

func TestPseudoRevision(t *testing.T) {
	for v, want := range map[string]string{
		"v0.0.0-20261128074058-146e028f1ff6":                "146e028f1ff6",
		"v1.2.4-0.20261128074058-146e028f1ff6":              "146e028f1ff6",
		"v1.2.4-pre.0.20261128074058-146e028f1ff6":          "146e028f1ff6",
		"v0.0.0-20261128074058-146e028f1ff6+dirty":          "146e028f1ff6",
		"v2.0.1-0.20261128074058-146e028f1ff6+incompatible": "146e028f1ff6",
		"v0.0.0-00010101000000-000000000000":                "unknown",
		"v1.2.0":                                            "unknown",
		"v1.2.0-rc.1":                                       "unknown",
		"v1.2.0-beta-1":                                     "unknown",
		"v1.2.0-x-146e028f1ff6":                             "unknown",
		"(devel)":                                           "unknown",
		"":                                                  "unknown",
	} {
		if got := pseudoRevision(v); got != want {
			t.Errorf("pseudoRevision(%q) = %q, want %q", v, got, want)
		}
	}
}
