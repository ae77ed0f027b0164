// Command fakebench stands in for a test binary (go test -c) in the golden
// tests of mbench: it understands the -test.* flags mbench passes and
// prints results in the Go benchmark format, like a test binary whose
// benchmarks take no time at all, with values that depend only on its
// inputs.
//
// It knows the benchmarks in the table below. The value of iteration i of
// a benchmark is its base time per op times its version's factor times
// (1 + noise·z), z a normal draw from a PCG seeded with the FNV hash of
// $FAKEBENCH_SEED, the version, the benchmark's name, the process's
// invocation number and i. The version is the binary's file name without
// ".test" (old.test and new.test differ in the factors of the table). The
// invocation number counts the processes that ran the benchmark, in a file
// per version and benchmark under $FAKEBENCH_STATE (0 when unset), so that
// successive forks differ as real processes do while a given sequence of
// processes prints the same values every time. Two processes of the same
// binary must therefore not run at once.
//
// Benchmarks whose name matches $FAKEBENCH_FAIL fail as a benchmark calling
// b.Fatal does: "--- FAIL" lines instead of a result, and exit status 1
// once the others ran; with $FAKEBENCH_FAIL_FROM=k, only from their k-th
// invocation on (0 is the first). Benchmarks whose name matches
// $FAKEBENCH_LONG log a line of 200 KB before their results.
// $FAKEBENCH_SCALE, a number, multiplies every time per op (1 when unset),
// as a change to the code measured would.
//
// Without -test.cpu the benchmarks run at GOMAXPROCS 4, whatever the
// machine, so that names do not depend on it.
package main

import (
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// A benchmark is one leaf benchmark of the fake suite.
type benchmark struct {
	name   string  // without the Benchmark prefix
	ns     float64 // time per op of version "old"
	bytes  float64 // B/op
	allocs float64 // allocs/op
	noise  float64 // relative standard deviation of an iteration
	// factor scales ns, and extraAllocs adds to bytes and allocs, in
	// version "new".
	factor      float64
	extraAllocs float64
}

var suite = []benchmark{
	{name: "Sum", ns: 120, noise: 0.003, factor: 1.25, extraAllocs: 1},
	{name: "Join/n=10", ns: 850, bytes: 64, allocs: 2, noise: 0.01, factor: 1},
	{name: "Join/n=100", ns: 7900, bytes: 512, allocs: 2, noise: 0.03, factor: 0.8},
	{name: "Parse", ns: 2400, bytes: 256, allocs: 5, noise: 0.15, factor: 1},
}

const defaultProcs = 4

func main() {
	os.Exit(fakebench(os.Args[0], os.Args[1:]))
}

func fakebench(argv0 string, args []string) int {
	fs := flag.NewFlagSet(argv0, flag.ContinueOnError)
	fs.String("test.run", "", "run only tests matching `regexp`")
	benchRE := fs.String("test.bench", "", "run only benchmarks matching `regexp`")
	benchtime := fs.String("test.benchtime", "1s", "run each benchmark for `d` or Nx")
	count := fs.Int("test.count", 1, "run each benchmark `n` times")
	cpu := fs.String("test.cpu", "", "comma-separated `list` of GOMAXPROCS values")
	benchmem := fs.Bool("test.benchmem", false, "print memory allocations")
	list := fs.String("test.list", "", "list benchmarks matching `regexp` and exit")
	fs.Duration("test.timeout", 0, "panic after `d`")
	fs.Bool("test.v", false, "verbose")
	fs.Bool("test.paniconexit0", false, "panic on os.Exit(0)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	version := strings.TrimSuffix(filepath.Base(argv0), ".test")

	if *list != "" {
		re, err := regexp.Compile(*list)
		if err != nil {
			fmt.Fprintf(os.Stderr, "testing: invalid regexp for -test.list: %v\n", err)
			return 1
		}
		seen := map[string]bool{}
		for _, b := range suite {
			top := "Benchmark" + strings.Split(b.name, "/")[0]
			if !seen[top] && re.MatchString(top) {
				seen[top] = true
				fmt.Println(top)
			}
		}
		return 0
	}

	procsList := []int{defaultProcs}
	if *cpu != "" {
		procsList = nil
		for _, s := range strings.Split(*cpu, ",") {
			p, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || p <= 0 {
				fmt.Fprintf(os.Stderr, "testing: invalid value %q for flag -test.cpu\n", s)
				return 2
			}
			procsList = append(procsList, p)
		}
	}
	fixedN, perIter, err := parseBenchtime(*benchtime)
	if err != nil {
		fmt.Fprintf(os.Stderr, "invalid value %q for flag -test.benchtime: %v\n", *benchtime, err)
		return 2
	}
	var match func(string) bool
	if *benchRE != "" {
		m, err := matcher(*benchRE)
		if err != nil {
			fmt.Fprintf(os.Stderr, "testing: invalid regexp for -test.bench: %v\n", err)
			return 1
		}
		match = m
	}

	var failRE *regexp.Regexp
	if s := os.Getenv("FAKEBENCH_FAIL"); s != "" {
		failRE = regexp.MustCompile(s)
	}
	failFrom, _ := strconv.Atoi(os.Getenv("FAKEBENCH_FAIL_FROM"))
	var longRE *regexp.Regexp
	if s := os.Getenv("FAKEBENCH_LONG"); s != "" {
		longRE = regexp.MustCompile(s)
	}
	scale := 1.0
	if s := os.Getenv("FAKEBENCH_SCALE"); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || !(v > 0) {
			fmt.Fprintf(os.Stderr, "fakebench: FAKEBENCH_SCALE=%q: want a positive number\n", s)
			return 2
		}
		scale = v
	}
	fmt.Print("goos: linux\ngoarch: amd64\npkg: example.com/fake\ncpu: Fake CPU @ 3.00GHz\n")
	failed := false
	if match != nil {
		for _, procs := range procsList {
			for _, b := range suite {
				if !match("Benchmark" + b.name) {
					continue
				}
				name := "Benchmark" + b.name
				if procs != 1 {
					name += "-" + strconv.Itoa(procs)
				}
				k := invocation(version, b.name)
				if failRE != nil && failRE.MatchString(b.name) && k >= failFrom {
					fmt.Printf("--- FAIL: %s\n    fake_test.go:42: injected failure\n", name)
					failed = true
					continue
				}
				if longRE != nil && longRE.MatchString(b.name) {
					fmt.Printf("    fake_test.go:50: %s\n", strings.Repeat("x", 200<<10))
				}
				rng := rand.New(rand.NewPCG(seed(version, b.name, k), 0))
				ns, bytes, allocs := b.ns*scale, b.bytes, b.allocs
				if version == "new" {
					ns *= b.factor
					allocs += b.extraAllocs
					bytes += 8 * b.extraAllocs
				}
				for range max(*count, 1) {
					v := ns * (1 + b.noise*rng.NormFloat64())
					n := fixedN
					if n == 0 {
						n = max(1, int(perIter.Seconds()*1e9/v))
					}
					line := fmt.Sprintf("%s\t%8d\t%s ns/op", name, n, prettyPrint(v))
					if *benchmem {
						line += fmt.Sprintf("\t%8d B/op\t%8d allocs/op", int64(bytes), int64(allocs))
					}
					fmt.Println(line)
				}
			}
		}
	}
	if failed {
		fmt.Println("FAIL")
		return 1
	}
	fmt.Println("PASS")
	return 0
}

// parseBenchtime parses -test.benchtime: Nx gives a fixed count of
// operations, a duration the time one result should take.
func parseBenchtime(s string) (n int, d time.Duration, err error) {
	if c, ok := strings.CutSuffix(s, "x"); ok {
		n, err := strconv.Atoi(c)
		if err != nil || n <= 0 {
			return 0, 0, fmt.Errorf("invalid count")
		}
		return n, 0, nil
	}
	d, err = time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, 0, fmt.Errorf("invalid duration")
	}
	return 0, d, nil
}

// matcher returns what selects a benchmark for -test.bench re: as in the
// testing package, the expression is split at each / outside brackets and
// parentheses, and level k matches the k-th element of the name; a name
// with fewer elements than the expression matches when its elements do
// (its sub-benchmarks are then matched in turn, which this suite has not).
func matcher(re string) (func(string) bool, error) {
	var levels []*regexp.Regexp
	depth, start := 0, 0
	for i, c := range re {
		switch c {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case '/':
			if depth == 0 {
				r, err := regexp.Compile(re[start:i])
				if err != nil {
					return nil, err
				}
				levels, start = append(levels, r), i+1
			}
		}
	}
	r, err := regexp.Compile(re[start:])
	if err != nil {
		return nil, err
	}
	levels = append(levels, r)
	return func(name string) bool {
		for k, elem := range strings.Split(name, "/") {
			if k < len(levels) && !levels[k].MatchString(elem) {
				return false
			}
		}
		return true
	}, nil
}

// seed keys a process's values on its inputs.
func seed(version, name string, invocation int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d", os.Getenv("FAKEBENCH_SEED"), version, name, invocation)
	return h.Sum64()
}

// invocation returns how many processes of version ran benchmark name
// before this one, and counts this one.
func invocation(version, name string) int {
	dir := os.Getenv("FAKEBENCH_STATE")
	if dir == "" {
		return 0
	}
	file := filepath.Join(dir, strings.NewReplacer("/", "_", "=", "_").Replace(version+"."+name))
	b, _ := os.ReadFile(file)
	k, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if err := os.WriteFile(file, []byte(strconv.Itoa(k+1)), 0o666); err != nil {
		fmt.Fprintln(os.Stderr, "fakebench:", err)
		os.Exit(1)
	}
	return k
}

// prettyPrint formats a time per op as the testing package does.
func prettyPrint(x float64) string {
	// Print all numbers with 10 places before the decimal point and
	// small numbers with four or five significant digits.
	var format string
	switch y := math.Abs(x); {
	case y == 0 || y >= 999.95:
		format = "%10.0f"
	case y >= 99.995:
		format = "%12.1f"
	case y >= 9.9995:
		format = "%13.2f"
	case y >= 0.99995:
		format = "%14.3f"
	case y >= 0.099995:
		format = "%15.4f"
	case y >= 0.0099995:
		format = "%16.5f"
	case y >= 0.00099995:
		format = "%17.6f"
	default:
		format = "%18.7f"
	}
	return fmt.Sprintf(format, x)
}
