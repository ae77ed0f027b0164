package bench

import (
	"fmt"
	"strconv"
	"strings"
)

// A Platform describes the machine and toolchain a run measured on. Results
// are comparable only with results from the same platform (Sestoft,
// "Microbenchmarks in Java and C#", 2015, §8), so every run records one, and
// PlatformDiff says where two runs' platforms differ.
//
// Every field is the zero value when unknown: a run read from plain
// `go test -bench` output knows only what its configuration lines say
// (goos, goarch, cpu).
type Platform struct {
	// Toolchain is the Go version that built the test binaries, e.g.
	// "go1.26.8".
	Toolchain string
	GOOS      string
	GOARCH    string
	// Kernel is the operating system's release, e.g. "6.8.0-45-generic".
	Kernel string
	// CPU is the processor model, as `go test` prints it in its cpu: line.
	CPU string
	// CPUs is the number of logical CPUs the process could use, and
	// GOMAXPROCS the value the runtime used by default.
	CPUs       int
	GOMAXPROCS int
	// Governor is the CPU frequency governor ("performance", "powersave";
	// several joined by "/" when the CPUs differ), Turbo whether the CPU
	// may raise its frequency above the base one: "on" or "off".
	Governor string
	Turbo    string
	// Host is the host name. Instance names the machine for comparisons
	// (mbench's -instance flag); it defaults to the host name, and lets a
	// fleet of CI machines with changing host names count as one.
	Host     string
	Instance string
	// Load is the 1-minute load average before the run, and Busy the
	// fraction of all CPUs' time spent busy in a short sample just before
	// it; nil when unknown. They describe conditions rather than the
	// machine, so PlatformDiff leaves them out.
	Load *float64
	Busy *float64
}

// Identity returns the name of the machine: Instance, or Host when no
// instance was given.
func (p *Platform) Identity() string {
	if p.Instance != "" {
		return p.Instance
	}
	return p.Host
}

// platformField is one field PlatformDiff compares, under the name
// mbench uses for it in messages and as a configuration key.
type platformField struct {
	name string
	get  func(*Platform) string
	set  func(p *Platform, value string)
	// goTest marks the fields `go test` itself prints (goos, goarch,
	// cpu), which stay in the measurements' configuration.
	goTest bool
}

// platformFields are the fields that make a platform, in the order
// PlatformDiff names them. Their names are the configuration keys of the
// Go benchmark format that carry them (goos, goarch and cpu as `go test`
// prints them). The instance compares as Identity, the host name when no
// instance was given; as a configuration key it is the instance alone.
var platformFields = []platformField{
	{"instance", (*Platform).Identity, func(p *Platform, v string) { p.Instance = v }, false},
	{"cpu", func(p *Platform) string { return p.CPU }, func(p *Platform, v string) { p.CPU = v }, true},
	{"cpus", func(p *Platform) string { return itoa(p.CPUs) }, func(p *Platform, v string) { p.CPUs = atoi(v) }, false},
	{"gomaxprocs", func(p *Platform) string { return itoa(p.GOMAXPROCS) }, func(p *Platform, v string) { p.GOMAXPROCS = atoi(v) }, false},
	{"goos", func(p *Platform) string { return p.GOOS }, func(p *Platform, v string) { p.GOOS = v }, true},
	{"goarch", func(p *Platform) string { return p.GOARCH }, func(p *Platform, v string) { p.GOARCH = v }, true},
	{"kernel", func(p *Platform) string { return p.Kernel }, func(p *Platform, v string) { p.Kernel = v }, false},
	{"toolchain", func(p *Platform) string { return p.Toolchain }, func(p *Platform, v string) { p.Toolchain = v }, false},
	{"governor", func(p *Platform) string { return p.Governor }, func(p *Platform, v string) { p.Governor = v }, false},
	{"turbo", func(p *Platform) string { return p.Turbo }, func(p *Platform, v string) { p.Turbo = v }, false},
}

// itoa formats a count, "" for 0 (unknown); atoi inverts it, 0 for
// anything but a positive count.
// Fields returns what the platform records of where a run was measured, as
// name and value pairs in a fixed order (the names of the benchfmt
// configuration lines mbench export writes); a value is "" when unknown.
func (p *Platform) Fields() [][2]string {
	out := make([][2]string, len(platformFields))
	for i, f := range platformFields {
		out[i] = [2]string{f.name, f.get(p)}
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// PlatformDiff names what differs between the platforms of a and b, one
// entry per field, e.g. `cpu "Xeon E5" vs "EPYC 7B13"`: the machine
// (instance, or host), CPU model, CPU count, GOMAXPROCS, OS, architecture,
// kernel, Go toolchain, frequency governor and turbo. A field unknown on
// either side is not compared, so that a run read from `go test` output,
// which knows little of its platform, differs from a stored run only in
// what both know. The load before each run is a condition, not the
// platform, and is left out. PlatformDiff returns nil when the platforms
// agree.
func PlatformDiff(a, b *Run) []string {
	var diffs []string
	for _, f := range platformFields {
		x, y := f.get(&a.Platform), f.get(&b.Platform)
		if x != "" && y != "" && x != y {
			diffs = append(diffs, fmt.Sprintf("%s %q vs %q", f.name, x, y))
		}
	}
	return diffs
}

// PlatformWarning returns a warning when runs span more than one platform,
// naming what differs between the first run and the first run whose
// platform differs from it, or "" when they share one. A comparison passes
// its two sides, a history its series.
func PlatformWarning(runs ...*Run) string {
	for i := 1; i < len(runs); i++ {
		if d := PlatformDiff(runs[0], runs[i]); d != nil {
			return fmt.Sprintf("%s and %s ran on different platforms (%s): differences may come from the machines, not the code",
				orUnlabelled(runs[0].Label), orUnlabelled(runs[i].Label), strings.Join(d, ", "))
		}
	}
	return ""
}

func orUnlabelled(label string) string {
	if label == "" {
		return "(unlabelled run)"
	}
	return label
}

// platformConfig returns the platform of p as the configuration keys
// WriteBenchfmt writes: the fields every run on one machine shares, so
// that benchstat compares two runs of one machine in one table as before,
// and splits its tables where the platforms differ, as it does for cpu.
// goos, goarch and cpu are left out, as `go test` prints them itself, and
// so are the host name (the instance names the machine) and the load
// (which differs from run to run and would split every table).
func platformConfig(p *Platform) []Config {
	var out []Config
	for _, f := range platformFields {
		if f.goTest {
			continue
		}
		v := f.get(p)
		if f.name == "instance" {
			v = p.Instance
		}
		if v != "" {
			out = append(out, Config{f.name, v})
		}
	}
	return out
}

// platformKey returns the field that a configuration key WriteBenchfmt
// writes for the platform sets, or nil for any other key.
func platformKey(key string) *platformField {
	for i := range platformFields {
		if f := &platformFields[i]; f.name == key && !f.goTest {
			return f
		}
	}
	return nil
}
