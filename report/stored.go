package report

import (
	"fmt"
	"slices"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/store"
)

// Stored loads the runs of st that hold measurements, oldest first: the
// series a report of the whole store shows the history of, and whose last
// two it compares.
func Stored(st *store.Store) ([]*bench.Run, error) {
	infos, err := st.Runs()
	if err != nil {
		return nil, err
	}
	var runs []*bench.Run
	for _, info := range slices.Backward(infos) {
		if info.Measurements == 0 {
			continue
		}
		r, err := st.Load(info.ID)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("%w: the result database holds no measurements ('mbench run' stores some)", ErrNoRuns)
	}
	return runs, nil
}
