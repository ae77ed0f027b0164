package run

import (
	"strings"
	"testing"
)

// cpuSetSize is the kernel's CPU_SETSIZE: no CPU a process can be pinned to
// has a number this large, so no list of them may name one.
const cpuSetSize = 1024

func FuzzParseCPUList(f *testing.F) {
	for _, s := range []string{"0-3,6", "1,2,4", " 0 - 1 ", "3-1", "", ",", "-1", "0-", "1023", "0-1023,0-1023"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cpus, err := ParseCPUList(s)
		if err != nil {
			if cpus != nil {
				t.Fatalf("ParseCPUList(%q) = %v with error %v", s, cpus, err)
			}
			return
		}
		if len(cpus) == 0 {
			t.Fatalf("ParseCPUList(%q) returned no CPUs and no error", s)
		}
		// Each comma-separated part gives an ascending run of numbers.
		parts := 0
		for part := range strings.SplitSeq(s, ",") {
			if strings.TrimSpace(part) != "" {
				parts++
			}
		}
		runs := 1
		for i, c := range cpus {
			if c < 0 || c >= cpuSetSize {
				t.Fatalf("ParseCPUList(%q) returned CPU %d", s, c)
			}
			if i > 0 && c != cpus[i-1]+1 {
				runs++
			}
		}
		if runs > parts {
			t.Fatalf("ParseCPUList(%q) = %v: %d runs of consecutive CPUs from %d parts", s, cpus, runs, parts)
		}
	})
}
