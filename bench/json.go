package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"time"
)

// JSONFormat is the value of the "format" field of a JSON Lines run record.
// It changes only when a change would make old readers misread new files.
const JSONFormat = "mbench/v1"

// jsonRun is the first record of a JSON Lines file (see docs/formats.md).
type jsonRun struct {
	Type       string            `json:"type,omitzero"`
	Format     string            `json:"format,omitzero"`
	ID         string            `json:"id,omitzero"`
	Label      string            `json:"label,omitzero"`
	Commit     string            `json:"commit,omitzero"`
	Dirty      bool              `json:"dirty,omitzero"`
	Toolchain  string            `json:"toolchain,omitzero"`
	GOOS       string            `json:"goos,omitzero"`
	GOARCH     string            `json:"goarch,omitzero"`
	Host       string            `json:"host,omitzero"`
	CPU        string            `json:"cpu,omitzero"`
	Kernel     string            `json:"kernel,omitzero"`
	CPUs       int               `json:"cpus,omitzero"`
	GOMAXPROCS int               `json:"gomaxprocs,omitzero"`
	Governor   string            `json:"governor,omitzero"`
	Turbo      string            `json:"turbo,omitzero"`
	Instance   string            `json:"instance,omitzero"`
	Load       *float64          `json:"load,omitzero"`
	Busy       *float64          `json:"busy,omitzero"`
	Start      time.Time         `json:"start,omitzero"`
	End        time.Time         `json:"end,omitzero"`
	Settings   map[string]string `json:"settings,omitzero"`
	Benchmarks []jsonKey         `json:"benchmarks,omitzero"`
	Units      []jsonUnit        `json:"units,omitzero"`
}

// jsonKey is a Key in the run record's list of benchmarks.
type jsonKey struct {
	Package string `json:"pkg,omitzero"`
	Name    string `json:"name"`
	Procs   int    `json:"procs,omitzero"`
}

type jsonUnit struct {
	Unit  string `json:"unit"`
	Key   string `json:"key"`
	Value string `json:"value"`
}

func newJSONRun(r *Run) jsonRun {
	p := &r.Platform
	h := jsonRun{
		Type: "run", Format: JSONFormat,
		ID: r.ID, Label: r.Label, Commit: r.Commit, Dirty: r.Dirty, Toolchain: p.Toolchain,
		GOOS: p.GOOS, GOARCH: p.GOARCH, Host: p.Host, CPU: p.CPU,
		Kernel: p.Kernel, CPUs: p.CPUs, GOMAXPROCS: p.GOMAXPROCS, Governor: p.Governor, Turbo: p.Turbo,
		Instance: p.Instance, Load: p.Load, Busy: p.Busy,
		Start: r.Start, End: r.End, Settings: r.Settings,
	}
	for _, u := range r.Units {
		h.Units = append(h.Units, jsonUnit(u))
	}
	for _, k := range r.Benchmarks {
		h.Benchmarks = append(h.Benchmarks, jsonKey(k))
	}
	return h
}

// empty reports whether h carries nothing beyond its type and format.
func (h jsonRun) empty() bool {
	return h.ID == "" && h.Label == "" && h.Commit == "" && !h.Dirty &&
		h.platform() == Platform{} &&
		h.Start.IsZero() && h.End.IsZero() && len(h.Settings) == 0
}

func (h *jsonRun) platform() Platform {
	return Platform{
		Toolchain: h.Toolchain, GOOS: h.GOOS, GOARCH: h.GOARCH, Host: h.Host, CPU: h.CPU,
		Kernel: h.Kernel, CPUs: h.CPUs, GOMAXPROCS: h.GOMAXPROCS, Governor: h.Governor, Turbo: h.Turbo,
		Instance: h.Instance, Load: h.Load, Busy: h.Busy,
	}
}

func (h *jsonRun) toRun(r *Run) {
	r.ID, r.Label, r.Commit, r.Dirty = h.ID, h.Label, h.Commit, h.Dirty
	r.Platform = h.platform()
	r.Start, r.End = h.Start, h.End
	r.Settings = maps.Clone(h.Settings)
	for _, u := range h.Units {
		r.Units = append(r.Units, UnitMeta(u))
	}
	for _, k := range h.Benchmarks {
		r.Benchmarks = append(r.Benchmarks, Key(k))
	}
}

// jsonMeasurement is one measurement record. Config is written only when it
// differs from the previous record's, and applies until replaced, as
// configuration lines do in the Go benchmark format.
type jsonMeasurement struct {
	Type      string       `json:"type"`
	Package   string       `json:"pkg,omitzero"`
	Name      string       `json:"name"`
	Procs     int          `json:"procs,omitzero"`
	Version   string       `json:"version,omitzero"`
	Instance  string       `json:"instance,omitzero"`
	SuiteRun  int          `json:"suite,omitzero"`
	Fork      int          `json:"fork,omitzero"`
	Iteration int          `json:"iter"`
	Phase     string       `json:"phase"`
	N         int          `json:"n"`
	Values    []jsonValue  `json:"values"`
	Start     time.Time    `json:"start,omitzero"`
	End       time.Time    `json:"end,omitzero"`
	Config    *[][2]string `json:"config,omitempty"`
}

type jsonValue struct {
	Value     float64 `json:"value"`
	Unit      string  `json:"unit"`
	OrigValue float64 `json:"orig_value,omitzero"`
	OrigUnit  string  `json:"orig_unit,omitzero"`
}

// A JSONWriter writes a run in mbench's JSON Lines format one record at a
// time, so that a long run can be streamed to a file as it progresses.
type JSONWriter struct {
	w          *bufio.Writer
	prevConfig []Config
	started    bool
}

// NewJSONWriter returns a writer to w. Call Flush when done.
func NewJSONWriter(w io.Writer) *JSONWriter {
	return &JSONWriter{w: bufio.NewWriter(w)}
}

// WriteRun writes the run record: r's metadata, not its measurements. It
// must come first, once.
func (jw *JSONWriter) WriteRun(r *Run) error {
	if jw.started {
		return fmt.Errorf("bench: run record written after measurements")
	}
	jw.started = true
	return jw.encode(newJSONRun(r))
}

// WriteMeasurement writes one measurement record.
func (jw *JSONWriter) WriteMeasurement(m *Measurement) error {
	jw.started = true
	jm := jsonMeasurement{
		Type: "measurement", Package: m.Key.Package, Name: m.Key.Name, Procs: m.Key.Procs,
		Version: m.Coord.Version, Instance: m.Coord.Instance, SuiteRun: m.Coord.SuiteRun, Fork: m.Coord.Fork,
		Iteration: m.Coord.Iteration, Phase: m.Coord.Phase.String(), N: m.N,
		Start: m.Start, End: m.End,
	}
	for _, v := range m.Values {
		if math.IsNaN(v.Value) || math.IsInf(v.Value, 0) {
			return fmt.Errorf("bench: %s: %s value %v is not finite", m.Key, v.Unit, v.Value)
		}
		jm.Values = append(jm.Values, jsonValue(v))
	}
	if !slices.Equal(m.Config, jw.prevConfig) || (jw.prevConfig == nil) != (m.Config == nil) {
		cfg := make([][2]string, len(m.Config))
		for i, c := range m.Config {
			cfg[i] = [2]string{c.Key, c.Value}
		}
		jm.Config = &cfg
		jw.prevConfig = m.Config
	}
	return jw.encode(jm)
}

func (jw *JSONWriter) encode(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	jw.w.Write(b)
	return jw.w.WriteByte('\n')
}

// Flush writes any buffered records to the underlying writer.
func (jw *JSONWriter) Flush() error { return jw.w.Flush() }

// WriteJSON writes run, metadata and every measurement, in mbench's JSON Lines
// format. The format is lossless: ReadJSON returns an equal Run.
func WriteJSON(w io.Writer, run *Run) error {
	jw := NewJSONWriter(w)
	if err := jw.WriteRun(run); err != nil {
		return err
	}
	for i := range run.Measurements {
		if err := jw.WriteMeasurement(&run.Measurements[i]); err != nil {
			return err
		}
	}
	return jw.Flush()
}

// A LineError is a problem with one line of an input file.
type LineError struct {
	File string
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// ReadJSON reads a run in mbench's JSON Lines format. name is the file name
// used in messages. A malformed record, or one with a value that cannot be
// (CheckValue), is returned in warnings with its line and skipped, so that
// a file cut short by a crash still yields every complete record; err
// reports only failures to read r, an input longer than DefaultReadOptions
// allow, and a format this reader does not know.
func ReadJSON(r io.Reader, name string) (run *Run, warnings []error, err error) {
	return DefaultReadOptions.ReadJSON(r, name)
}

// ReadJSON is the package's ReadJSON under the limits of o.
func (o ReadOptions) ReadJSON(r io.Reader, name string) (run *Run, warnings []error, err error) {
	return readJSON(o.limit(r, name), name)
}

// maxRecord is the longest line of JSON Lines read as a record, in bytes;
// a longer one is skipped with a warning. Runs of the largest suites have
// run records of a few megabytes (the list of benchmarks).
const maxRecord = 64 << 20

// readJSON is ReadJSON on a reader already limited.
func readJSON(r io.Reader, name string) (run *Run, warnings []error, err error) {
	run = new(Run)
	br := bufio.NewReaderSize(r, readBuffer)
	var (
		config []Config
		sawRun bool
		line   int
		buf    []byte
	)
	for {
		text, long, err := readLine(br, &buf, maxRecord)
		if err != nil && err != io.EOF {
			return nil, warnings, readError(name, err)
		}
		if len(text) == 0 && long == 0 && err == io.EOF {
			break
		}
		line++
		if long > 0 {
			warnings = append(warnings, &LineError{name, line, fmt.Errorf("line of %d bytes is longer than %d; skipped", long, maxRecord)})
		} else {
			var bad error
			config, sawRun, bad = jsonRecord(run, bytes.TrimSpace(text), config, sawRun, func(format string, args ...any) {
				warnings = append(warnings, &LineError{name, line, fmt.Errorf(format, args...)})
			})
			if bad != nil {
				return nil, warnings, &LineError{name, line, bad}
			}
		}
		if err == io.EOF {
			break
		}
	}
	return run, warnings, nil
}

// readLine reads the next line of br, its newline included. A line longer
// than br's buffer is gathered in *buf, which readLine reuses, up to limit
// bytes; a longer line is read to its end without being held, and
// readLine returns its length without the newline in long instead.
func readLine(br *bufio.Reader, buf *[]byte, limit int) (text []byte, long int64, err error) {
	text, err = br.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return text, 0, err
	}
	*buf = append((*buf)[:0], text...)
	for {
		text, err = br.ReadSlice('\n')
		if len(*buf)+len(text) > limit {
			long = int64(len(*buf) + len(text))
			switch err {
			case bufio.ErrBufferFull:
				var rest int64
				rest, err = discardLine(br)
				long += rest
			case nil:
				long-- // the newline
			}
			return nil, long, err
		}
		// Doubling, where append would grow a large slice by a
		// quarter, allocates at most twice the line in all.
		if need := len(*buf) + len(text); need > cap(*buf) {
			grown := make([]byte, len(*buf), max(need, 2*cap(*buf)))
			copy(grown, *buf)
			*buf = grown
		}
		*buf = append(*buf, text...)
		if err != bufio.ErrBufferFull {
			return *buf, 0, err
		}
	}
}

// jsonRecord adds the record text, one line, to run. config is the
// configuration in force before it, sawRun whether a run record came
// before it; jsonRecord returns both after it. Problems with the record go
// to warn; err is a format this reader does not know.
func jsonRecord(run *Run, text []byte, config []Config, sawRun bool, warn func(format string, args ...any)) ([]Config, bool, error) {
	if len(text) == 0 {
		return config, sawRun, nil
	}
	var probe struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(text, &probe); err != nil {
		warn("not a JSON record: %v", err)
		return config, sawRun, nil
	}
	switch probe.Type {
	case "run":
		if sawRun || len(run.Measurements) > 0 {
			warn("a second run record; a file holds one run")
			return config, sawRun, nil
		}
		var h jsonRun
		if err := json.Unmarshal(text, &h); err != nil {
			warn("bad run record: %v", err)
			return config, sawRun, nil
		}
		if h.Format != "" && h.Format != JSONFormat {
			return config, sawRun, fmt.Errorf("format %q is not %q; a newer mbench wrote this file", h.Format, JSONFormat)
		}
		h.toRun(run)
		return config, true, nil
	case "measurement":
		var jm jsonMeasurement
		if err := json.Unmarshal(text, &jm); err != nil {
			warn("bad measurement record: %v", err)
			return config, sawRun, nil
		}
		m, err := jm.measurement()
		if err != nil {
			warn("%v", err)
			return config, sawRun, nil
		}
		if jm.Config != nil {
			config = make([]Config, len(*jm.Config))
			for i, c := range *jm.Config {
				config[i] = Config{c[0], c[1]}
			}
		}
		m.Config = config
		run.Measurements = append(run.Measurements, m)
	default:
		warn("unknown record type %q", probe.Type)
	}
	return config, sawRun, nil
}

func (jm *jsonMeasurement) measurement() (Measurement, error) {
	phase, err := ParsePhase(jm.Phase)
	if err != nil {
		return Measurement{}, err
	}
	if jm.Name == "" {
		return Measurement{}, fmt.Errorf("measurement without a name")
	}
	if jm.N <= 0 {
		return Measurement{}, fmt.Errorf("%s: n = %d is not positive", jm.Name, jm.N)
	}
	if len(jm.Values) == 0 {
		return Measurement{}, fmt.Errorf("%s: no values", jm.Name)
	}
	m := Measurement{
		Key:   Key{Package: jm.Package, Name: jm.Name, Procs: jm.Procs},
		Coord: Coord{Version: jm.Version, Instance: jm.Instance, SuiteRun: jm.SuiteRun, Fork: jm.Fork, Iteration: jm.Iteration, Phase: phase},
		N:     jm.N, Start: jm.Start, End: jm.End,
		Values: make([]Value, len(jm.Values)),
	}
	for i, v := range jm.Values {
		if v.Unit == "" {
			return Measurement{}, fmt.Errorf("%s: value %v without a unit", jm.Name, v.Value)
		}
		if err := CheckValue(Value(v)); err != nil {
			return Measurement{}, fmt.Errorf("%s: %v", jm.Name, err)
		}
		m.Values[i] = Value(v)
	}
	return m, nil
}

// A Number is a float64 that encodes NaN and infinities as JSON null. JSON
// has no spelling for them, yet analyses produce them: a ratio from 0 to 1
// allocation is +Inf, a row without an interval has NaN bounds.
type Number float64

// MarshalJSON encodes v as a JSON number, or null when it is not finite.
func (v Number) MarshalJSON() ([]byte, error) {
	f := float64(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}
