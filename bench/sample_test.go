package bench

import (
	"reflect"
	"testing"
)

func TestSampleInstances(t *testing.T) {
	key := Key{Name: "BenchmarkX", Procs: 1}
	var run Run
	add := func(inst string, fork int, v float64) {
		run.Measurements = append(run.Measurements, Measurement{Key: key,
			Coord:  Coord{Instance: inst, Fork: fork, Phase: Measure},
			Values: []Value{{Value: v, Unit: "sec/op"}}})
	}
	add("b", 1, 1)
	add("a", 1, 2)
	add("b", 1, 3)
	add("b", 2, 4)
	add("a", 2, 5)
	s := run.Samples("sec/op")[key]
	want := [][][]float64{{{1, 3}, {4}}, {{2}, {5}}}
	if got := s.Instances(); !reflect.DeepEqual(got, want) {
		t.Errorf("Instances() = %v, want %v", got, want)
	}
	one := &Sample{Forks: [][]float64{{1}, {2}}, IDs: []ForkID{{Fork: 1}, {Fork: 2}}}
	if got := one.Instances(); !reflect.DeepEqual(got, [][][]float64{{{1}, {2}}}) {
		t.Errorf("forks without instance names: Instances() = %v, want one instance", got)
	}
}
