package optimize_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/optimize"
)

// A full run as `mbench run -levels 2,3,4 -iter 5ms` stores it: two suite
// runs of three forks of four measurement iterations, after one warm-up
// iteration, of a quiet benchmark (0.1% noise) and a noisy one (5%).
func exampleRun() *bench.Run {
	r := rand.New(rand.NewPCG(1, 2))
	run := &bench.Run{Label: "v1", Settings: map[string]string{bench.SettingLevels: "2,3,4", bench.SettingIter: "5ms"}}
	for _, b := range []struct {
		name  string
		noise float64
	}{{"Quiet", 0.001}, {"Noisy", 0.05}} {
		fork := 0
		for s := 1; s <= 2; s++ {
			for range 3 {
				fork++
				for it := range 5 {
					m := bench.Measurement{Key: bench.Key{Package: "example.com/p", Name: b.name}, N: 1000,
						Coord: bench.Coord{SuiteRun: s, Fork: fork, Iteration: it}}
					if it == 0 {
						m.Coord.Phase = bench.Warmup
					}
					m.Values = []bench.Value{{Value: 1e-6 * math.Exp(b.noise*r.NormFloat64()), Unit: "sec/op"}}
					run.Measurements = append(run.Measurements, m)
				}
			}
		}
	}
	return run
}

func ExampleRun() {
	opts := optimize.DefaultOptions
	opts.Threshold = 0.02
	rep, warnings, err := optimize.Run(exampleRun(), "ns/op", opts)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(warnings), "warnings; full configuration", rep.Levels, "of", rep.Options.IterTime)
	for _, r := range rep.Results {
		fmt.Printf("%s: plan %v, stable %v\n", r.Key.Name, r.Plan.Levels, r.Plan.Stable)
	}
	// Output:
	// 0 warnings; full configuration 2,3,4 of 5ms
	// Noisy: plan 2,3,4, stable false
	// Quiet: plan 1,3,1, stable true
}
