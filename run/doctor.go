package run

import (
	"context"
	"fmt"
	"io"
)

// A Checkup is what mbench doctor found out about the machine and the
// test binaries named: problems, and what it could not check.
type Checkup struct {
	Platform Platform
	// Problems make measurements less reliable, or a binary unfit.
	Problems []string
	// Unchecked says what could not be checked, and why it matters.
	Unchecked []string
}

// Doctor checks the machine (MachineProblems, MachineUnchecked) and each
// test binary (CheckBinary); dir is the module directory Detect looks
// at. The error is a binary that is not there.
func Doctor(ctx context.Context, dir string, bins []string) (*Checkup, error) {
	p := Detect(ctx, dir)
	c := &Checkup{Platform: p, Problems: MachineProblems(p), Unchecked: MachineUnchecked(p)}
	for _, bin := range bins {
		bc, err := CheckBinary(bin)
		if err != nil {
			return nil, err
		}
		c.Problems = append(c.Problems, bc.Problems...)
		c.Unchecked = append(c.Unchecked, bc.Unchecked...)
	}
	return c, nil
}

// WriteText writes the checkup for people: the machine's description,
// the problems (or that there were none in what could be checked), and
// what was not checked.
func (c *Checkup) WriteText(w io.Writer) error {
	fmt.Fprint(w, c.Platform.Header())
	fmt.Fprintln(w)
	if len(c.Problems) == 0 {
		fmt.Fprintln(w, "no problems found in what could be checked")
	}
	for _, p := range c.Problems {
		fmt.Fprintf(w, "- %s\n", p)
	}
	if len(c.Unchecked) > 0 {
		fmt.Fprintln(w, "\nnot checked:")
	}
	for _, u := range c.Unchecked {
		if _, err := fmt.Fprintf(w, "- %s\n", u); err != nil {
			return err
		}
	}
	return nil
}

// Err is the error of a checkup that found problems, nil for one that
// found none.
func (c *Checkup) Err() error {
	switch n := len(c.Problems); n {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("1 problem found")
	default:
		return fmt.Errorf("%d problems found", n)
	}
}

// highLoad is the 1-minute load average per core above which mbench
// doctor calls the machine loaded: more work waited for a CPU than there
// were CPUs.
const highLoad = 1.0

// MachineProblems is what mbench doctor reports of the machine p: the
// warnings every measuring command gives (PlatformWarnings), and a load
// average above one task per core even when the CPUs were quiet at the
// moment Detect sampled them (a command that measures does not warn of
// it, because the load average still counts the run that just ended).
func MachineProblems(p Platform) []string {
	w := PlatformWarnings(p)
	if p.Busy <= highBusy && p.Cores > 0 && p.Load > highLoad*float64(p.Cores) {
		w = append(w, fmt.Sprintf("load average %.2f on %d cores: in the last minute more work waited for a CPU than there are CPUs; "+
			"whatever it was competes with the benchmarks when it runs (CPUs busy %.0f%% at the check)", p.Load, p.Cores, 100*max(0, p.Busy)))
	}
	return w
}

// MachineUnchecked says what Detect could not learn of the machine p
// that matters to benchmarks, one line each: the settings that make
// clock speeds change (Platform.Unchecked), and the load.
func MachineUnchecked(p Platform) []string {
	u := p.Unchecked()
	if p.Load < 0 {
		u = append(u, "the load average: /proc/loadavg cannot be read")
	}
	if p.Busy < 0 {
		u = append(u, "how busy the CPUs are: /proc/stat cannot be read")
	}
	return u
}
