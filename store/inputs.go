package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/mbench/mbench/bench"
)

// LoadInputs loads each input as mbench compare takes it: a result file
// when one exists at its path, and otherwise a run of the store at db (an
// id, id prefix, label, "latest" or git revision, as Resolve reads them),
// opened read-only only when needed.
// Files are read under the limits of opts. A label gathers every run with
// that label into one (Store.Gather). Each run gets its input's label.
// Problems in result files that do not stop their reading, and what
// gathering a label found, come back as warnings.
func LoadInputs(db string, ins []bench.Input, opts bench.ReadOptions) (runs []*bench.Run, warnings []error, err error) {
	var st *Store
	defer func() {
		if st != nil {
			st.Close()
		}
	}()
	for _, in := range ins {
		var run *bench.Run
		if _, err := os.Stat(in.Path); err == nil || !errors.Is(err, fs.ErrNotExist) {
			r, ws, err := opts.ReadFile(in.Path)
			warnings = append(warnings, ws...)
			if err != nil {
				return nil, warnings, err
			}
			run = r
		} else {
			if st == nil {
				st, err = OpenReadOnly(db)
				if errors.Is(err, fs.ErrNotExist) {
					return nil, warnings, fmt.Errorf("%s: no such file, and no result database at %s to look it up in", in.Path, db)
				} else if err != nil {
					return nil, warnings, err
				}
			}
			t, err := st.resolveRef(in.Path)
			if err != nil {
				return nil, warnings, fmt.Errorf("%s: no such file, and %v", in.Path, err)
			}
			r, ws, err := st.loadTarget(t)
			warnings = append(warnings, ws...)
			if err != nil {
				return nil, warnings, err
			}
			run = r
		}
		run.Label = in.Label
		runs = append(runs, run)
	}
	return runs, warnings, nil
}
