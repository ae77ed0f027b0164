package bench

// A Sample is what analyses consume: the measurement-phase values of one
// benchmark in one unit, grouped by the fork (process) that produced them.
// Values of one fork are in iteration order; forks are in order of first
// appearance in the input.
type Sample struct {
	Key   Key
	Unit  string
	Forks [][]float64
	// IDs names the fork of each element of Forks.
	IDs []ForkID
}

// N returns the number of values in s.
func (s *Sample) N() int {
	n := 0
	for _, f := range s.Forks {
		n += len(f)
	}
	return n
}

// All returns every value of s in one slice, fork after fork.
func (s *Sample) All() []float64 {
	all := make([]float64, 0, s.N())
	for _, f := range s.Forks {
		all = append(all, f...)
	}
	return all
}

// HasForks reports whether s has values from more than one process, which
// lets analyses see the variance between processes.
func (s *Sample) HasForks() bool { return len(s.Forks) > 1 }

// Samples groups the measurement-phase values of r in the given tidy unit by
// benchmark and fork. Measurements without a value in unit are skipped.
func (r *Run) Samples(unit string) map[Key]*Sample {
	out := make(map[Key]*Sample)
	forkIndex := make(map[Key]map[ForkID]int)
	for i := range r.Measurements {
		m := &r.Measurements[i]
		if m.Coord.Phase != Measure {
			continue
		}
		v, ok := m.Get(unit)
		if !ok {
			continue
		}
		s := out[m.Key]
		if s == nil {
			s = &Sample{Key: m.Key, Unit: unit}
			out[m.Key] = s
			forkIndex[m.Key] = make(map[ForkID]int)
		}
		id := m.Coord.ForkID()
		fi, ok := forkIndex[m.Key][id]
		if !ok {
			fi = len(s.Forks)
			forkIndex[m.Key][id] = fi
			s.Forks = append(s.Forks, nil)
			s.IDs = append(s.IDs, id)
		}
		s.Forks[fi] = append(s.Forks[fi], v)
	}
	return out
}

// Instances returns the forks of s grouped by the instance (machine) that
// measured them, instances in order of first appearance and forks in their
// order within s: Instances()[k][j] holds the values of the j-th fork of
// the k-th instance. Forks without an instance name form one instance.
// The slices share the values of s.
func (s *Sample) Instances() [][][]float64 {
	var out [][][]float64
	index := make(map[string]int)
	for i, f := range s.Forks {
		var name string
		if i < len(s.IDs) {
			name = s.IDs[i].Instance
		}
		k, ok := index[name]
		if !ok {
			k = len(out)
			index[name] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], f)
	}
	return out
}
