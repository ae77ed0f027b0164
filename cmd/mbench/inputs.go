package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/store"
)

// maxInputEnv names the environment variable that sets the size of the
// largest input file mbench reads (bench.ReadOptions.MaxBytes).
const maxInputEnv = "MBENCH_MAX_INPUT"

// loadInputs reads each input: a result file when the path exists,
// otherwise a run in the result database at db, found by id, id prefix or
// label, a label gathering all its runs (see store.LoadRef). Warnings
// about malformed lines and about gathering go to e.
func loadInputs(e *env, db string, args []string) ([]*bench.Run, error) {
	ins, err := bench.ParseInputs(args)
	if err != nil {
		return nil, usagef("%v", err)
	}
	opts := bench.DefaultReadOptions
	if s := os.Getenv(maxInputEnv); s != "" {
		if opts.MaxBytes, err = bench.ParseSize(s); err != nil {
			return nil, usagef("%s: %v", maxInputEnv, err)
		}
	}
	runs, warnings, err := store.LoadInputs(db, ins, opts)
	warnAll(e, warnings)
	if errors.As(err, new(*bench.SizeError)) {
		err = fmt.Errorf("%w; set %s to read more (%s=4GiB)", err, maxInputEnv, maxInputEnv)
	}
	return runs, err
}
