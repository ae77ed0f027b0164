// This file is not part of the Go distribution. mbench
// (github.com/mbench/mbench/internal/probe) adds it to package testing for
// one build through `go test -overlay`.

package testing

import (
	"os"
	"runtime"
	"strconv"
)

// With MBENCH_CPU_PROFILE_HZ set to a rate in samples per second, the CPU
// profiler starts at that rate before the testing package starts it for
// -test.cpuprofile, whose own call, at 100 Hz, then leaves the rate as it
// is (and the runtime says so on standard error). runtime/pprof records
// the rate in force in the profile's period.
func init() {
	if hz, err := strconv.Atoi(os.Getenv("MBENCH_CPU_PROFILE_HZ")); err == nil && hz > 0 {
		runtime.SetCPUProfileRate(hz)
	}
}
