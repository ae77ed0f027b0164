package run

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/internal/proc"
)

// A Platform identifies where benchmarks run (Sestoft 2015 §8: results are
// only comparable with the platform they came from), and carries what the
// hygiene checks look at.
type Platform struct {
	OS, Arch   string
	Kernel     string
	CPU        string
	Cores      int
	GOMAXPROCS int
	Go         string // toolchain that builds the test binaries
	// Governor is the CPU frequency governor of each CPU, "" when the
	// kernel does not expose one (common in virtual machines).
	Governor string
	// Turbo is "on" when the CPU may run above its base frequency, "off"
	// when that is disabled, and "" when the kernel does not say.
	Turbo string
	// Load is the 1-minute load average; -1 when unknown.
	Load float64
	// Busy is the fraction of all CPUs' time spent busy during a short
	// sample taken by Detect; -1 when unknown. Unlike the load average,
	// which remembers the last minute (including a benchmark run that just
	// ended), it says what competes with the benchmarks now.
	Busy float64
	Host string
	// Commit and Dirty describe the module's source tree, when it is a
	// git work tree.
	Commit string
	Dirty  bool
	// Noise is the machine's interference as mbench doctor -noise last
	// measured it, nil when it never did; its Start says when.
	Noise *Noise
}

// Detect gathers the platform description. dir is the module directory
// (for the commit); every field it cannot learn stays empty.
func Detect(ctx context.Context, dir string) Platform {
	p := Platform{
		OS: runtime.GOOS, Arch: runtime.GOARCH,
		Cores: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), Load: -1, Busy: -1,
	}
	p.Host, _ = os.Hostname()
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		p.Kernel = strings.TrimSpace(string(b))
	}
	p.CPU = cpuModel()
	p.Governor = governor(sysCPU)
	p.Turbo = turbo(sysCPU)
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) > 0 {
			if v, err := strconv.ParseFloat(f[0], 64); err == nil {
				p.Load = v
			}
		}
	}
	p.Busy = busy(busySample)
	if out, err := commandOutput(ctx, dir, "go", "env", "GOVERSION"); err == nil {
		p.Go = out
	}
	p.Commit, p.Dirty = gitState(ctx, dir)
	return p
}

// DefaultLabel is the label of a run when none is given: the short commit,
// with "-dirty" when the tree has uncommitted changes; "" outside git.
func (p *Platform) DefaultLabel() string {
	if p.Commit == "" {
		return ""
	}
	c := p.Commit
	if len(c) > 12 {
		c = c[:12]
	}
	if p.Dirty {
		c += "-dirty"
	}
	return c
}

// Header is the platform as the summary's header prints it.
func (p *Platform) Header() string {
	var b strings.Builder
	fmt.Fprintf(&b, "os: %s/%s, kernel %s\n", p.OS, p.Arch, orUnknown(p.Kernel))
	fmt.Fprintf(&b, "cpu: %s, %d cores, GOMAXPROCS %d, governor %s, turbo %s\n", orUnknown(p.CPU), p.Cores, p.GOMAXPROCS, orUnknown(p.Governor), orUnknown(p.Turbo))
	load := "unknown"
	if p.Load >= 0 {
		load = strconv.FormatFloat(p.Load, 'f', 2, 64)
	}
	busyNow := "unknown"
	if p.Busy >= 0 {
		busyNow = fmt.Sprintf("%.0f%%", 100*p.Busy)
	}
	fmt.Fprintf(&b, "go: %s, host %s, load %s, CPUs busy %s before the run\n", orUnknown(p.Go), orUnknown(p.Host), load, busyNow)
	if p.Commit != "" {
		fmt.Fprintf(&b, "commit: %s\n", p.DefaultLabel())
	}
	if p.Noise != nil {
		fmt.Fprintf(&b, "%s (measured %s ago)\n", p.Noise.Summary(), p.noiseAge(time.Now()))
	}
	return b.String()
}

// NoiseSettings returns the settings that record the platform's noise in
// a run that starts at start, nil when the noise is unknown.
func (p *Platform) NoiseSettings(start time.Time) map[string]string {
	if p.Noise == nil {
		return nil
	}
	return map[string]string{bench.SettingNoise: p.Noise.Summary(), bench.SettingNoiseAge: p.noiseAge(start).String()}
}

// noiseAge is how long before now the noise was measured, to the second;
// 0 when its time is unknown or later than now.
func (p *Platform) noiseAge(now time.Time) time.Duration {
	if p.Noise.Start.IsZero() {
		return 0
	}
	return max(0, now.Sub(p.Noise.Start).Round(time.Second))
}

// Bench returns the platform as a run records it, on the machine named
// instance ("" is the host name).
func (p *Platform) Bench(instance string) bench.Platform {
	if instance == "" {
		instance = p.Host
	}
	bp := bench.Platform{
		Toolchain: p.Go, GOOS: p.OS, GOARCH: p.Arch, Kernel: p.Kernel,
		CPU: p.CPU, CPUs: p.Cores, GOMAXPROCS: p.GOMAXPROCS, Governor: p.Governor, Turbo: p.Turbo,
		Host: p.Host, Instance: instance,
	}
	if p.Load >= 0 {
		bp.Load = new(p.Load)
	}
	if p.Busy >= 0 {
		bp.Busy = new(p.Busy)
	}
	return bp
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// busySample is how long Detect watches the CPUs.
const busySample = 250 * time.Millisecond

// busy returns the fraction of CPU time the whole machine spent busy (not
// idle or waiting for I/O) over d, from /proc/stat; -1 when unreadable.
func busy(d time.Duration) float64 {
	read := func() (busy, total float64, ok bool) {
		b, err := os.ReadFile("/proc/stat")
		if err != nil {
			return 0, 0, false
		}
		line, _, _ := strings.Cut(string(b), "\n")
		f := strings.Fields(line)
		if len(f) < 6 || f[0] != "cpu" {
			return 0, 0, false
		}
		for i, x := range f[1:] {
			v, err := strconv.ParseFloat(x, 64)
			if err != nil {
				return 0, 0, false
			}
			total += v
			if i != 3 && i != 4 { // idle, iowait
				busy += v
			}
		}
		return busy, total, true
	}
	b0, t0, ok0 := read()
	time.Sleep(d)
	b1, t1, ok1 := read()
	if !ok0 || !ok1 || t1 <= t0 {
		return -1
	}
	return (b1 - b0) / (t1 - t0)
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// governor returns the distinct frequency governors of the CPUs described
// under dir (cpuN/cpufreq/scaling_governor), in the order of the CPUs and
// joined by "/", or "" when there are none to read.
func governor(dir string) string {
	paths, _ := filepath.Glob(filepath.Join(dir, "cpu[0-9]*", "cpufreq", "scaling_governor"))
	cpu := func(path string) int {
		n, _ := strconv.Atoi(strings.TrimPrefix(filepath.Base(filepath.Dir(filepath.Dir(path))), "cpu"))
		return n
	}
	slices.SortFunc(paths, func(a, b string) int { return cpu(a) - cpu(b) })
	var govs []string
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		g := strings.TrimSpace(string(b))
		if g != "" && !contains(govs, g) {
			govs = append(govs, g)
		}
	}
	return strings.Join(govs, "/")
}

// Unchecked says which of the machine's settings that make clock speeds
// change Detect could not read: the CPU frequency governor and turbo, which
// most virtual machines do not expose.
func (p *Platform) Unchecked() []string {
	var u []string
	if p.Governor == "" {
		u = append(u, "the CPU frequency governor: "+sysCPU+"/cpu*/cpufreq/scaling_governor cannot be read (common in virtual machines)")
	}
	if p.Turbo == "" {
		u = append(u, "turbo: neither "+sysCPU+"/intel_pstate/no_turbo nor "+sysCPU+"/cpufreq/boost can be read (common in virtual machines)")
	}
	return u
}

// sysCPU is where Linux describes the CPUs.
const sysCPU = "/sys/devices/system/cpu"

// turbo reads whether the CPUs may boost above their base frequency from
// the files of the kernel's CPU frequency drivers under dir: intel_pstate's
// no_turbo (1 means off) or the generic cpufreq boost switch (acpi-cpufreq,
// amd-pstate; 1 means on). It returns "on", "off", or "" when neither file
// is readable, as in most virtual machines.
func turbo(dir string) string {
	read := func(name string) (string, bool) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return "", false
		}
		return strings.TrimSpace(string(b)), true
	}
	onOff := func(on bool) string {
		if on {
			return "on"
		}
		return "off"
	}
	if v, ok := read("intel_pstate/no_turbo"); ok && (v == "0" || v == "1") {
		return onOff(v == "0")
	}
	if v, ok := read("cpufreq/boost"); ok && (v == "0" || v == "1") {
		return onOff(v == "1")
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func gitState(ctx context.Context, dir string) (commit string, dirty bool) {
	commit, err := commandOutput(ctx, dir, "git", "rev-parse", "HEAD")
	if err != nil {
		return "", false
	}
	status, err := commandOutput(ctx, dir, "git", "status", "--porcelain", "--untracked-files=no")
	return commit, err == nil && status != ""
}

func commandOutput(ctx context.Context, dir, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := proc.Command(ctx, name, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}
