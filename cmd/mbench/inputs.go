package main

import (
	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/store"
)

// loadInputs reads each input: a result file when the path exists,
// otherwise a run in the result database at db, found by id, id prefix or
// label, a label gathering all its runs (see store.LoadRef). Warnings
// about malformed lines and about gathering go to e.
func loadInputs(e *env, db string, args []string) ([]*bench.Run, error) {
	ins, err := bench.ParseInputs(args)
	if err != nil {
		return nil, usagef("%v", err)
	}
	runs, warnings, err := store.LoadInputs(db, ins)
	warnAll(e, warnings)
	return runs, err
}
