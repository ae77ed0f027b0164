package ab

import "testing"

// FuzzParseCPUs fuzzes the two CPUs of a parallel session (-cpus): what it
// accepts is two different CPUs that run.ParseCPUList accepts.
func FuzzParseCPUs(f *testing.F) {
	for _, seed := range []string{"0,1", "1,0", "2-3", "1,1", "0", "0,1,2", "-1,0", "0,99999999", "a,b", ""} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cpus, err := ParseCPUs(s)
		if err != nil {
			return
		}
		if cpus[0] == cpus[1] || cpus[0] < 0 || cpus[1] < 0 {
			t.Fatalf("ParseCPUs(%q) = %v, accepted", s, cpus)
		}
	})
}
