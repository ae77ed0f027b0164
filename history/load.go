package history

import (
	"errors"
	"slices"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/store"
)

// Load reads the runs refs name from st (ids, id prefixes, labels or
// "latest", as store.LoadRef takes them), in the order named; with no refs,
// every stored result in order of start time. Runs that share a label are
// one result and one point of the history: a label gathers them
// (store.Gather), and so does the listing of every result, one point per
// label and commit (store.GatherResults). What gathering found comes back as
// warnings. A store without runs is an error, and so is a ref that names
// none.
func Load(st *store.Store, refs []string) ([]*bench.Run, []error, error) {
	var runs []*bench.Run
	var warnings []error
	if len(refs) == 0 {
		infos, err := st.Runs()
		if err != nil {
			return nil, nil, err
		}
		if len(infos) == 0 {
			return nil, nil, errors.New("no stored runs")
		}
		// Runs lists the newest first; equal start times keep the order
		// of creation.
		slices.Reverse(infos)
		slices.SortStableFunc(infos, func(a, b store.RunInfo) int { return a.Start.Compare(b.Start) })
		return st.GatherResults(infos)
	}
	for _, ref := range refs {
		r, ws, err := st.LoadRef(ref)
		warnings = append(warnings, ws...)
		if err != nil {
			return nil, warnings, err
		}
		runs = append(runs, r)
	}
	return runs, warnings, nil
}

// Warnings says what the reader of a history of runs should know before
// trusting its steps: that the runs span different platforms, naming what
// differs (a step may come from the machine, not the code).
func Warnings(runs []*bench.Run) []string {
	if w := bench.PlatformWarning(runs...); w != "" {
		return []string{w}
	}
	return nil
}
