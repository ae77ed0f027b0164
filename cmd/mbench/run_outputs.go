package main

import (
	"io"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/internal/outfile"
	"github.com/mbench/mbench/run"
)

// runOutputs are the files mbench run writes besides the store: the JSON
// stream of -json, written as the run goes (into a new file directly, so
// that a killed run leaves it there; aside when it replaces one, put in
// place when the run ends), and the text of -o, written when it ends.
type runOutputs struct {
	text string
	json *outfile.File
}

// openRunOutputs checks the outputs of mbench run before anything is
// built or measured: neither may be the store, a test binary measured,
// the plan, the shard basis or the other output, and both must be
// writable. It then starts the JSON stream, which j writes to.
func openRunOutputs(f *runFlags, j *run.Job) (*runOutputs, error) {
	protected := append(storeFiles(f.db), argFiles("the test binary", j.Args...)...)
	protected = append(protected, argFiles("the plan", f.planFile)...)
	protected = append(protected, argFiles("the shard basis", j.ShardBasis)...)
	if err := checkOutput("-json", f.jsonOut, protected...); err != nil {
		return nil, err
	}
	if f.jsonOut != "" {
		protected = append(protected, outfile.Protected{Path: f.jsonOut, What: "the output of -json"})
	}
	if err := checkOutput("-o", f.out, protected...); err != nil {
		return nil, err
	}
	o := &runOutputs{text: f.out}
	if f.jsonOut != "" {
		jf, err := outfile.Stream(f.jsonOut)
		if err != nil {
			return nil, usagef("-json %v", err)
		}
		o.json, j.JSON = jf, jf
	}
	return o, nil
}

// finish puts the JSON stream in place and writes the run's measurement
// iterations to the -o file in the Go benchmark format.
func (o *runOutputs) finish(out *run.Outcome) error {
	if o.json != nil {
		if err := o.json.Commit(); err != nil {
			return err
		}
	}
	if o.text == "" {
		return nil
	}
	r := *out.Meta
	r.Measurements = nil
	for _, res := range out.Results {
		r.Measurements = append(r.Measurements, res.Measurements...)
	}
	return outfile.Write(o.text, func(w io.Writer) error {
		return bench.WriteBenchfmt(w, &r, bench.BenchfmtOptions{})
	})
}

// abort drops the JSON stream of a run that did not start; after finish it
// does nothing.
func (o *runOutputs) abort() {
	if o.json != nil {
		o.json.Abort()
	}
}
