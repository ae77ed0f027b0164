package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/store"
)

// loadInputs reads each input: a result file when the path exists,
// otherwise a run in the result database at db, found by id, id prefix or
// label (see store.Resolve). Warnings about malformed lines go to e.
func loadInputs(e *env, db string, args []string) ([]*bench.Run, error) {
	ins, err := bench.ParseInputs(args)
	if err != nil {
		return nil, usagef("%v", err)
	}
	var st *store.Store
	defer func() {
		if st != nil {
			st.Close()
		}
	}()
	runs := make([]*bench.Run, len(ins))
	for i, in := range ins {
		if _, err := os.Stat(in.Path); err == nil || !errors.Is(err, fs.ErrNotExist) {
			run, warnings, err := bench.ReadFile(in.Path)
			for _, w := range warnings {
				e.warnf("%v", w)
			}
			if err != nil {
				return nil, err
			}
			run.Label = in.Label
			runs[i] = run
			continue
		}
		if st == nil {
			st, err = store.OpenReadOnly(db)
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%s: no such file, and no result database at %s to look it up in", in.Path, db)
			} else if err != nil {
				return nil, err
			}
		}
		id, err := st.Resolve(in.Path)
		if err != nil {
			return nil, fmt.Errorf("%s: no such file, and %v", in.Path, err)
		}
		run, err := st.Load(id)
		if err != nil {
			return nil, err
		}
		run.Label = in.Label
		runs[i] = run
	}
	return runs, nil
}
