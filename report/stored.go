package report

import (
	"fmt"
	"slices"

	"github.com/mbench/mbench/bench"
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
