package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"golang.org/x/perf/benchfmt"
)

// annotationPrefix starts the lines mbench adds to the Go benchmark format to
// carry what the format has no place for: run metadata and fork coordinates.
// The format's readers ignore lines that are neither configuration nor
// results (a configuration key must begin with a lower-case letter), so
// benchstat reads these files unchanged. Coordinates are not written as
// configuration keys on purpose: benchstat splits its tables by every file
// configuration key whose value varies. The version is the exception (see
// versionKey).
const annotationPrefix = "#mbench "

// versionKey is the configuration key that carries Coord.Version. Unlike the
// other coordinates, which are the repetition structure of one measurement
// (benchstat must pool their values), the version is what a comparison
// compares: written as a configuration key it lets `benchstat -col version`
// put the versions of one file side by side. Results without a version have
// no such key, so files of runs of one version read as before.
const versionKey = "version"

// maxLine is the length of the longest line, without its newline,
// golang.org/x/perf/benchfmt.Reader reads: its bufio.Scanner holds at most
// bufio.MaxScanTokenSize bytes, the newline included.
const maxLine = bufio.MaxScanTokenSize - 1

// annotation is the JSON payload of a "#mbench coord" line. It applies to
// the results that follow it, until the next one.
type annotation struct {
	Version  string `json:"version,omitzero"`
	Instance string `json:"instance,omitzero"`
	SuiteRun int    `json:"suite,omitzero"`
	Fork     int    `json:"fork,omitzero"`
	Phase    string `json:"phase,omitzero"`
}

// ReadBenchfmt reads results in the Go benchmark format (plain `go test
// -bench` output, benchstat's inputs, or what WriteBenchfmt wrote) from r.
// name is the file name used in messages.
//
// Problems in the data — malformed result lines, non-finite values — do not
// stop reading: each is returned in warnings with its file and line, and the
// line is skipped. err reports only failures to read r.
func ReadBenchfmt(r io.Reader, name string) (run *Run, warnings []error, err error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	run = new(Run)

	// Find the annotation lines first. benchfmt.Reader reports the line of
	// each result, so an annotation applies to the results whose line
	// numbers follow it.
	type lineAnnotation struct {
		line int
		a    annotation
	}
	var coords []lineAnnotation
	// A line too long for benchfmt.Reader would end its reading; such
	// lines (a benchmark's log output, say) are left out of the copy it
	// reads, as empty lines that keep the other lines' numbers, with a
	// warning.
	short := data
	var long bool
	for line, rest := 1, data; len(rest) > 0; line++ {
		var text []byte
		text, rest, _ = bytes.Cut(rest, []byte("\n"))
		if len(text) > maxLine {
			long = true
			warnings = append(warnings, &benchfmt.SyntaxError{FileName: name, Line: line,
				Msg: fmt.Sprintf("line of %d bytes is longer than %d; skipped", len(text), maxLine)})
			continue
		}
		text = bytes.TrimSuffix(text, []byte("\r"))
		if !bytes.HasPrefix(text, []byte(annotationPrefix)) {
			continue
		}
		kind, payload, _ := bytes.Cut(text[len(annotationPrefix):], []byte(" "))
		bad := func(err error) {
			warnings = append(warnings, &benchfmt.SyntaxError{FileName: name, Line: line, Msg: fmt.Sprintf("bad %s annotation: %v", kind, err)})
		}
		switch string(kind) {
		case "coord":
			var a annotation
			if err := json.Unmarshal(payload, &a); err != nil {
				bad(err)
				continue
			}
			if _, err := ParsePhase(a.Phase); err != nil {
				bad(err)
				continue
			}
			coords = append(coords, lineAnnotation{line, a})
		case "run":
			var h jsonRun
			if err := json.Unmarshal(payload, &h); err != nil {
				bad(err)
				continue
			}
			h.toRun(run)
		default:
			bad(fmt.Errorf("unknown kind"))
		}
	}

	if long {
		short = make([]byte, 0, len(data))
		for text := range bytes.Lines(data) {
			if len(bytes.TrimSuffix(text, []byte("\n"))) > maxLine {
				text = []byte("\n")
			}
			short = append(short, text...)
		}
	}
	br := benchfmt.NewReader(bytes.NewReader(short), name)
	var (
		prevConfig []Config
		nextCoord  int
		cur        annotation
		phase      Phase
		iterations = make(map[iterKey]int)
	)
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			warnings = append(warnings, rec)
		case *benchfmt.UnitMetadata:
			u := UnitMeta{Unit: rec.Unit, Key: rec.Key, Value: rec.Value}
			if !slices.Contains(run.Units, u) {
				run.Units = append(run.Units, u)
			}
		case *benchfmt.Result:
			_, line := rec.Pos()
			for nextCoord < len(coords) && coords[nextCoord].line < line {
				cur = coords[nextCoord].a
				phase, _ = ParsePhase(cur.Phase)
				nextCoord++
			}
			m, err := FromBenchfmt(rec, prevConfig)
			if err != nil {
				warnings = append(warnings, &benchfmt.SyntaxError{FileName: name, Line: line, Msg: err.Error()})
				continue
			}
			prevConfig = m.Config
			// The configuration key is what benchstat sees, so it
			// wins over the annotation; both agree in what mbench wrote.
			version := m.Coord.Version
			if version == "" {
				version = cur.Version
			}
			m.Coord = Coord{Version: version, Instance: cur.Instance, SuiteRun: cur.SuiteRun, Fork: cur.Fork, Phase: phase}
			ik := iterKey{m.Key, m.Coord.ForkID()}
			m.Coord.Iteration = iterations[ik]
			iterations[ik]++
			run.Measurements = append(run.Measurements, m)
			notePlatform(&run.Platform, rec.Config)
		}
	}
	if err := br.Err(); err != nil {
		return nil, warnings, err
	}
	return run, warnings, nil
}

// iterKey counts the iterations, warm-up and measurement alike, of one
// benchmark in one fork.
type iterKey struct {
	key  Key
	fork ForkID
}

// FromBenchfmt converts one result of golang.org/x/perf/benchfmt to a
// measurement, reusing prev as its configuration when it is unchanged. Its
// coordinates are zero but for the version, which the "version"
// configuration key gives (and which is therefore not in the configuration,
// as "pkg", which gives the key's package, is not). It rejects non-positive
// iteration counts and non-finite values.
func FromBenchfmt(rec *benchfmt.Result, prev []Config) (Measurement, error) {
	var m Measurement
	m.Key.Package = rec.GetConfig("pkg")
	m.Coord.Version = rec.GetConfig(versionKey)
	base, parts := rec.Name.Parts()
	name := string(base)
	for _, p := range parts {
		if len(p) > 1 && p[0] == '-' {
			if procs, err := strconv.Atoi(string(p[1:])); err == nil {
				m.Key.Procs = procs
				continue
			}
		}
		name += string(p)
	}
	if name == "" {
		return m, fmt.Errorf("benchmark line without a name")
	}
	m.Key.Name = name
	m.N = rec.Iters
	if m.N <= 0 {
		return m, fmt.Errorf("iteration count %d is not positive", m.N)
	}
	m.Values = make([]Value, 0, len(rec.Values))
	for _, v := range rec.Values {
		if math.IsNaN(v.Value) || math.IsInf(v.Value, 0) {
			return m, fmt.Errorf("%s value %v is not a finite number", v.Unit, v.Value)
		}
		m.Values = append(m.Values, Value{Value: v.Value, Unit: v.Unit, OrigValue: v.OrigValue, OrigUnit: v.OrigUnit})
	}
	n := 0
	for _, c := range rec.Config {
		if inConfig(c) {
			n++
		}
	}
	same := n == len(prev)
	if same {
		i := 0
		for _, c := range rec.Config {
			if !inConfig(c) {
				continue
			}
			if prev[i].Key != c.Key || prev[i].Value != string(c.Value) {
				same = false
				break
			}
			i++
		}
	}
	if same {
		m.Config = prev
		return m, nil
	}
	m.Config = make([]Config, 0, n)
	for _, c := range rec.Config {
		if inConfig(c) {
			m.Config = append(m.Config, Config{c.Key, string(c.Value)})
		}
	}
	return m, nil
}

// inConfig reports whether c belongs in Measurement.Config: a file
// configuration key other than those the key, the coordinates and the run's
// platform hold.
func inConfig(c benchfmt.Config) bool {
	return c.File && c.Key != "pkg" && c.Key != versionKey && platformKey(c.Key) == nil
}

// notePlatform fills the fields of p that are still unknown from a result's
// file configuration: goos, goarch and cpu as `go test` prints them in its
// header, and the keys WriteBenchfmt writes for the rest of the platform.
// The first result that names a field sets it.
func notePlatform(p *Platform, cfg []benchfmt.Config) {
	for _, c := range cfg {
		if !c.File {
			continue
		}
		for i := range platformFields {
			f := &platformFields[i]
			have := f.get(p)
			if f.name == "instance" {
				have = p.Instance
			}
			if f.name == c.Key && have == "" {
				f.set(p, string(c.Value))
			}
		}
	}
}

// BenchfmtOptions controls WriteBenchfmt.
type BenchfmtOptions struct {
	// Warmup includes warm-up iterations (marked in coord annotations).
	// benchstat cannot tell them apart, so they are left out by default.
	Warmup bool
}

// WriteBenchfmt writes the measurement iterations of run in the Go benchmark
// format, one result line per iteration, so that benchstat reads the file
// unchanged. Run metadata and fork coordinates go in "#mbench" annotation
// lines, which other readers ignore; timestamps are not written (use the
// JSON Lines format to keep them). A measurement's version, when it has one,
// is also written as the configuration key "version", so that
// `benchstat -col version` compares the versions of a run.
func WriteBenchfmt(w io.Writer, run *Run, opts BenchfmtOptions) error {
	bw := bufio.NewWriter(w)
	if h := newJSONRun(run); !h.empty() {
		// Unit metadata goes in the format's own Unit lines. The list of
		// benchmarks is left out: with thousands of benchmarks the line
		// would outgrow what benchfmt.Reader reads, and the results
		// themselves say which benchmarks there are.
		h.Type, h.Units, h.Benchmarks = "", nil, nil
		b, err := json.Marshal(h)
		if err != nil {
			return err
		}
		fmt.Fprintf(bw, "%srun %s\n", annotationPrefix, b)
	}
	fw := benchfmt.NewWriter(bw)
	for _, u := range run.Units {
		md := &benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u.Unit, Key: u.Key}, OrigUnit: u.Unit, Value: u.Value}
		if err := fw.Write(md); err != nil {
			return err
		}
	}
	var (
		res      benchfmt.Result
		last     annotation
		started  bool
		platform = platformConfig(&run.Platform)
	)
	for i := range run.Measurements {
		m := &run.Measurements[i]
		if m.Coord.Phase == Warmup && !opts.Warmup {
			continue
		}
		a := annotation{Version: m.Coord.Version, Instance: m.Coord.Instance, SuiteRun: m.Coord.SuiteRun, Fork: m.Coord.Fork}
		if m.Coord.Phase != Measure {
			a.Phase = m.Coord.Phase.String()
		}
		if (started || a != annotation{}) && a != last {
			b, err := json.Marshal(a)
			if err != nil {
				return err
			}
			fmt.Fprintf(bw, "%scoord %s\n", annotationPrefix, b)
			last = a
		}
		started = true
		// A new Result for every line, reusing the slices: a Result
		// caches the positions of its configuration keys (ConfigIndex),
		// which setting Config directly leaves stale, and the Writer
		// then reads a wrong key's value or past the end.
		res = benchfmt.Result{Config: res.Config[:0], Values: res.Values[:0]}
		if m.Key.Package != "" {
			res.Config = append(res.Config, benchfmt.Config{Key: "pkg", Value: []byte(m.Key.Package), File: true})
		}
		for _, c := range m.Config {
			if c.Key == versionKey && m.Coord.Version != "" {
				continue
			}
			res.Config = append(res.Config, benchfmt.Config{Key: c.Key, Value: []byte(c.Value), File: true})
		}
		for _, c := range platform {
			if !slices.ContainsFunc(m.Config, func(mc Config) bool { return mc.Key == c.Key }) {
				res.Config = append(res.Config, benchfmt.Config{Key: c.Key, Value: []byte(c.Value), File: true})
			}
		}
		if m.Coord.Version != "" {
			res.Config = append(res.Config, benchfmt.Config{Key: versionKey, Value: []byte(m.Coord.Version), File: true})
		}
		res.Name = benchfmt.Name(m.Key.FullName()[len("Benchmark"):])
		res.Iters = m.N
		for _, v := range m.Values {
			res.Values = append(res.Values, benchfmt.Value{Value: v.Value, Unit: v.Unit, OrigValue: v.OrigValue, OrigUnit: v.OrigUnit})
		}
		if err := fw.Write(&res); err != nil {
			return err
		}
	}
	return bw.Flush()
}
