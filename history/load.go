package history

import (
	"errors"
	"slices"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/store"
)

// Load reads the runs refs name from st (ids, id prefixes, labels or
// "latest", as store.Resolve takes them), in the order named; with no refs,
// every stored run in order of start time. A store without runs is an
// error, and so is a ref that names none.
func Load(st *store.Store, refs []string) ([]*bench.Run, error) {
	if len(refs) == 0 {
		infos, err := st.Runs()
		if err != nil {
			return nil, err
		}
		if len(infos) == 0 {
			return nil, errors.New("no stored runs")
		}
		// Runs lists the newest first; equal start times keep the order
		// of creation.
		slices.Reverse(infos)
		slices.SortStableFunc(infos, func(a, b store.RunInfo) int { return a.Start.Compare(b.Start) })
		for _, ri := range infos {
			refs = append(refs, ri.ID)
		}
	}
	runs := make([]*bench.Run, 0, len(refs))
	for _, ref := range refs {
		id, err := st.Resolve(ref)
		if err != nil {
			return nil, err
		}
		r, err := st.Load(id)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	return runs, nil
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
