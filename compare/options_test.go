package compare

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mbench/mbench/stats"
)

// TestValidate checks that every option out of range is refused, with a
// message that begins with the option's name, and that the edges of the
// valid ranges are accepted.
func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		mod  func(*Options)
		want string // prefix of the error, "" for none
	}{
		{func(o *Options) {}, ""},
		{func(o *Options) { o.Alpha = 0.5 }, ""},
		{func(o *Options) { o.Threshold = 0 }, ""},
		{func(o *Options) { o.Replicates = MinReplicates }, ""},
		{func(o *Options) { o.Replicates = stats.MaxReplicates }, ""},
		{func(o *Options) { o.Alpha = math.NaN() }, "alpha NaN: "},
		{func(o *Options) { o.Alpha = 0 }, "alpha 0: "},
		{func(o *Options) { o.Alpha = 1 }, "alpha 1: "},
		{func(o *Options) { o.Alpha = 2 }, "alpha 2: "},
		{func(o *Options) { o.Alpha = -0.01 }, "alpha -0.01: "},
		{func(o *Options) { o.Threshold = math.NaN() }, "threshold NaN: "},
		{func(o *Options) { o.Threshold = math.Inf(1) }, "threshold +Inf: "},
		{func(o *Options) { o.Threshold = -0.01 }, "threshold -0.01: "},
		{func(o *Options) { o.Replicates = 0 }, "reps 0: "},
		{func(o *Options) { o.Replicates = -5 }, "reps -5: "},
		{func(o *Options) { o.Replicates = MinReplicates - 1 }, "reps 99: "},
		{func(o *Options) { o.Replicates = stats.MaxReplicates + 1 }, "reps 1000001: "},
		{func(o *Options) { o.Replicates = 1e12 }, "reps 1000000000000: "},
	} {
		o := DefaultOptions
		tc.mod(&o)
		err := o.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v, want no error", o, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%+v: %v, want an error beginning %q", o, err, tc.want)
		}
	}
}

// TestCompareRefusesTooManyReplicates checks that Compare validates its
// options before it allocates the replicates.
func TestCompareRefusesTooManyReplicates(t *testing.T) {
	run := forkRun(rand.New(rand.NewPCG(1, 2)), "x", 2, 8, 1)
	opts := DefaultOptions
	opts.Replicates = 1e12
	if _, err := Compare(run, run, opts); err == nil || !strings.HasPrefix(err.Error(), "reps ") {
		t.Errorf("Compare with 1e12 replicates: %v, want an error about reps", err)
	}
}
