package bench

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchunit"
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
// Problems in the data — malformed result lines, values that cannot be
// (CheckValue) — do not stop reading: each is returned in warnings with its file and line,
// and the line is skipped. err reports only failures to read r, and an
// input longer than DefaultReadOptions allow.
func ReadBenchfmt(r io.Reader, name string) (run *Run, warnings []error, err error) {
	return DefaultReadOptions.ReadBenchfmt(r, name)
}

// ReadBenchfmt is the package's ReadBenchfmt under the limits of o.
func (o ReadOptions) ReadBenchfmt(r io.Reader, name string) (run *Run, warnings []error, err error) {
	return readBenchfmt(o.limit(r, name), name)
}

// readBenchfmt is ReadBenchfmt on a reader already limited.
func readBenchfmt(r io.Reader, name string) (run *Run, warnings []error, err error) {
	run = new(Run)
	// lines reads r line by line, taking out the annotations and the lines
	// too long for benchfmt.Reader, which reads the rest. It reads ahead
	// of the results benchfmt.Reader returns, so the annotations before a
	// result are in lines.coords when it arrives.
	lines := &benchfmtLines{r: bufio.NewReaderSize(r, maxLine+1), name: name}
	br := benchfmt.NewReader(lines, name)
	var (
		prevConfig []Config
		cur        annotation
		phase      Phase
		noted      Platform
		iterations = make(map[iterKey]int)
	)
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			lines.warnings = append(lines.warnings, rec)
		case *benchfmt.UnitMetadata:
			u := UnitMeta{Unit: rec.Unit, Key: rec.Key, Value: rec.Value}
			if !slices.Contains(run.Units, u) {
				run.Units = append(run.Units, u)
			}
		case *benchfmt.Result:
			_, line := rec.Pos()
			for len(lines.coords) > 0 && lines.coords[0].line < line {
				cur = lines.coords[0].a
				phase, _ = ParsePhase(cur.Phase)
				lines.coords = lines.coords[1:]
			}
			m, err := FromBenchfmt(rec, prevConfig)
			if err != nil {
				lines.warnings = append(lines.warnings, &benchfmt.SyntaxError{FileName: name, Line: line, Msg: err.Error()})
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
			notePlatform(&noted, rec.Config)
		}
	}
	warnings = lines.warnings
	if err := cmp.Or(lines.err, br.Err()); err != nil {
		return nil, warnings, readError(name, err)
	}
	// The "#mbench run" lines, wherever they are, come first, and the
	// results' configuration fills in the platform they leave unknown.
	if h := lines.header; h != nil {
		units := run.Units
		run.Units = nil
		h.Measurements = run.Measurements
		run = h
		for _, u := range units {
			if !slices.Contains(run.Units, u) {
				run.Units = append(run.Units, u)
			}
		}
	}
	fillPlatform(&run.Platform, &noted)
	return run, warnings, nil
}

// A benchfmtLines reads the Go benchmark format for benchfmt.Reader, line
// by line. It keeps the annotations (coords, header) and passes on every
// other line but those longer than maxLine, which would end benchfmt.Reader's
// reading: it passes them on as empty lines, which keep the other lines'
// numbers, with a warning, and never holds more of them than its buffer.
type benchfmtLines struct {
	r    *bufio.Reader
	name string
	line int
	// pending is what is left of the current line to pass on.
	pending []byte
	// coords are the coordinate annotations read and not yet applied, in
	// order of their lines; header collects the run annotations.
	coords   []lineAnnotation
	header   *Run
	warnings []error
	// err is the error that ended reading r, other than io.EOF.
	err error
}

// A lineAnnotation is a coordinate annotation and its line.
type lineAnnotation struct {
	line int
	a    annotation
}

func (l *benchfmtLines) Read(p []byte) (int, error) {
	for len(l.pending) == 0 {
		if l.err != nil {
			return 0, l.err
		}
		text, err := l.r.ReadSlice('\n')
		if len(text) == 0 {
			if err != io.EOF {
				l.err = err
			}
			return 0, err
		}
		l.line++
		if err == bufio.ErrBufferFull {
			var n int64
			n, err = discardLine(l.r)
			l.warnings = append(l.warnings, &benchfmt.SyntaxError{FileName: l.name, Line: l.line,
				Msg: fmt.Sprintf("line of %d bytes is longer than %d; skipped", int64(len(text))+n, maxLine)})
			text = []byte("\n")
		} else {
			l.annotation(bytes.TrimSuffix(bytes.TrimSuffix(text, []byte("\n")), []byte("\r")))
		}
		if err != nil && err != io.EOF {
			l.err = err
		}
		l.pending = text
	}
	n := copy(p, l.pending)
	l.pending = l.pending[n:]
	return n, nil
}

// discardLine reads r to the end of the line, the newline included, and
// returns how many bytes it read before the newline.
func discardLine(r *bufio.Reader) (int64, error) {
	var n int64
	for {
		text, err := r.ReadSlice('\n')
		n += int64(len(text))
		if err == nil {
			return n - 1, nil
		}
		if err != bufio.ErrBufferFull {
			return n, err
		}
	}
}

// annotation notes text, one line without its newline, when it is an
// annotation.
func (l *benchfmtLines) annotation(text []byte) {
	if !bytes.HasPrefix(text, []byte(annotationPrefix)) {
		return
	}
	kind, payload, _ := bytes.Cut(text[len(annotationPrefix):], []byte(" "))
	bad := func(err error) {
		l.warnings = append(l.warnings, &benchfmt.SyntaxError{FileName: l.name, Line: l.line, Msg: fmt.Sprintf("bad %s annotation: %v", kind, err)})
	}
	switch string(kind) {
	case "coord":
		var a annotation
		if err := json.Unmarshal(payload, &a); err != nil {
			bad(err)
			return
		}
		if _, err := ParsePhase(a.Phase); err != nil {
			bad(err)
			return
		}
		l.coords = append(l.coords, lineAnnotation{l.line, a})
	case "run":
		var h jsonRun
		if err := json.Unmarshal(payload, &h); err != nil {
			bad(err)
			return
		}
		if l.header == nil {
			l.header = new(Run)
		}
		h.toRun(l.header)
	default:
		bad(fmt.Errorf("unknown kind"))
	}
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
// iteration counts and values that cannot be (CheckValue).
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
		v := Value{Value: v.Value, Unit: v.Unit, OrigValue: v.OrigValue, OrigUnit: v.OrigUnit}
		// benchfmt.Reader leaves a value in its unit when tidying does
		// not change it, as for 0 ns/op; analyses look for the tidy
		// unit, and would not see it.
		if _, tidy := benchunit.Tidy(1, v.Unit); v.OrigUnit == "" && tidy != v.Unit {
			v = Value{Value: v.Value, Unit: tidy, OrigValue: v.Value, OrigUnit: v.Unit}
		}
		if err := CheckValue(v); err != nil {
			return m, err
		}
		m.Values = append(m.Values, v)
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

// fillPlatform sets the fields of p that are unknown to those of from.
func fillPlatform(p, from *Platform) {
	for i := range platformFields {
		f := &platformFields[i]
		have, v := f.get(p), f.get(from)
		if f.name == "instance" {
			have, v = p.Instance, from.Instance
		}
		if have == "" && v != "" {
			f.set(p, v)
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
