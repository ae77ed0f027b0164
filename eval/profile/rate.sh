#!/usr/bin/env bash
# rate.sh measures how many CPU profile samples a second arrive when a
# test binary asks the runtime for more than pprof's 100 Hz
# (docs/eval/profile.md, "Sampling rate"): one benchmark that computes
# for 2s, profiled with -test.cpuprofile after runtime.SetCPUProfileRate
# (as mbench's probe does through MBENCH_CPU_PROFILE_HZ), at each rate in
# RATES. It prints the rate asked, the samples recorded, and the share of
# the process's CPU time the samples account for at their recorded
# period.
#
# usage: eval/profile/rate.sh [SCRATCH]
set -euo pipefail
dir=${1:-$(mktemp -d)}
mkdir -p "$dir"
cd "$dir"
cat >go.mod <<'MOD'
module rate

go 1.26
MOD
cat >rate_test.go <<'SRC'
package rate

import (
	"os"
	"runtime"
	"strconv"
	"testing"
)

func init() {
	if hz, _ := strconv.Atoi(os.Getenv("HZ")); hz > 0 {
		runtime.SetCPUProfileRate(hz)
	}
}

var sink int

func work(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i * i % 7
	}
	return s
}

func BenchmarkWork(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += work(1000)
	}
}
SRC
go test -c -o rate.test .
echo "load: $(cat /proc/loadavg)"
echo "asked_hz samples samples_per_cpu_second recorded_share_of_cpu"
for hz in ${RATES:-100 250 500 1000 2000}; do
	env HZ=$hz /usr/bin/time -f "%U %S" -o cpu.txt ./rate.test -test.run='^$' -test.bench=. -test.benchtime=2s -test.cpuprofile=cpu.pb.gz >/dev/null 2>&1
	samples=$(go tool pprof -raw cpu.pb.gz 2>/dev/null | awk '/^Samples:/ {s=1; next} /^Locations/ {s=0} s && $1 ~ /^[0-9]+$/ {n += $1} END {print n}')
	awk -v hz="$hz" -v n="$samples" '{cpu = $1 + $2; printf "%d %d %.0f %.0f%%\n", hz, n, n/cpu, 100*n/hz/cpu}' cpu.txt
done
