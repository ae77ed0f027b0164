package bench

import "testing"

// TestBenchmarkSettings pins the keys of the settings per benchmark, which
// stored runs carry: changing them would hide the reasons of runs stored
// before.
func TestBenchmarkSettings(t *testing.T) {
	k := Key{Package: "example.com/fake", Name: "Sum/n=10", Procs: 4}
	for _, c := range []struct{ got, want string }{
		{StopSetting(k, ""), "stop/example.com/fake.Sum/n=10-4"},
		{StopSetting(k, "new"), "stop/example.com/fake.Sum/n=10-4 (new)"},
		{WarmupSetting(k, ""), "warmup/example.com/fake.Sum/n=10-4"},
		{WarmupSetting(k, "old"), "warmup/example.com/fake.Sum/n=10-4 (old)"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
