package report

import (
	"fmt"
	"slices"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/store"
)

// Stored loads the results of st that hold measurements, oldest first: the
// series a report of the whole store shows the history of, and whose last
// two it compares. Runs that share a label and commit are one result,
// gathered into one run (store.GatherResults); what
// gathering found comes back as warnings.
func Stored(st *store.Store) ([]*bench.Run, []error, error) {
	infos, err := st.Runs()
	if err != nil {
		return nil, nil, err
	}
	var withData []store.RunInfo
	for _, info := range slices.Backward(infos) {
		if info.Measurements > 0 {
			withData = append(withData, info)
		}
	}
	runs, warnings, err := st.GatherResults(withData)
	if err != nil {
		return nil, warnings, err
	}
	if len(runs) == 0 {
		return nil, warnings, fmt.Errorf("%w: the result database holds no measurements ('mbench run' stores some)", ErrNoRuns)
	}
	return runs, warnings, nil
}

// Newest says which of runs, as Stored loads them, a command given no
// inputs shows: the newest result, by label and id, and how it is shown.
func Newest(runs []*bench.Run) string {
	r := runs[len(runs)-1]
	s := r.Label
	if r.ID != "" {
		s += " (run " + r.ID + ")"
	}
	s += ", the newest stored result"
	if old, new, err := compare.Split(r); err == nil {
		s += fmt.Sprintf(", its versions %s and %s compared", old.Label, new.Label)
	}
	return s + "; name inputs for others"
}
