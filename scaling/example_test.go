package scaling_test

import (
	"fmt"
	"os"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/scaling"
)

// A family of three sizes, each measured in three forks of two iterations, whose times grow
// as n log n (Sestoft's quicksort, "Microbenchmarks in Java and C#" §6).
func Example() {
	run := &bench.Run{}
	for _, p := range []struct {
		name string
		ns   []float64
	}{
		{"Sort/n=100", []float64{4400, 4500, 4480, 4560, 4430, 4470}},
		{"Sort/n=10k", []float64{690e3, 700e3, 705e3, 698e3, 702e3, 695e3}},
		{"Sort/n=1M", []float64{103e6, 104e6, 105e6, 103.5e6, 104.2e6, 103.8e6}},
	} {
		for i, v := range p.ns {
			run.Measurements = append(run.Measurements, bench.Measurement{
				Key:    bench.Key{Name: p.name},
				Coord:  bench.Coord{Fork: i / 2},
				N:      1,
				Values: []bench.Value{{Value: v * 1e-9, Unit: "sec/op"}},
			})
		}
	}
	fams, err := scaling.Find(run, "sec/op", scaling.DefaultOptions)
	if err != nil {
		fmt.Println(err)
		return
	}
	scaling.Write(os.Stdout, fams)
	// Output:
	// Sort/n=*
	//       n  sec/op            99% CI
	//     100  4.473µ  [4.212µ, 4.797µ]
	//     10k  698.3µ  [667.4µ, 724.7µ]
	//      1M  103.9m  [100.4m, 107.8m]
	//   ≈ n^1.09 [1.08, 1.10], consistent with n log n
}
