package run

import (
	"bytes"
	"strings"
	"testing"
)

// TestMachineChecks checks what doctor says of machines: a loaded one
// whose CPUs were quiet at the check, and a virtual machine that does
// not expose its governor or turbo; and that a checkup without problems
// still lists what it could not check.
func TestMachineChecks(t *testing.T) {
	vm := Platform{Cores: 2, Load: 3.2, Busy: 0.1}
	problems := MachineProblems(vm)
	if len(problems) != 1 || !strings.HasPrefix(problems[0], "load average 3.20 on 2 cores: ") {
		t.Errorf("problems of a loaded VM: %q, want the load average", problems)
	}
	if p := MachineProblems(Platform{Cores: 2, Load: 1.5, Busy: 0.1, Governor: "performance", Turbo: "off"}); len(p) != 0 {
		t.Errorf("problems of a quiet machine: %q", p)
	}
	// A busy machine is warned of once, as busy.
	if p := MachineProblems(Platform{Cores: 2, Load: 3.2, Busy: 0.9}); len(p) != 1 || !strings.HasPrefix(p[0], "other work keeps 90%") {
		t.Errorf("problems of a busy machine: %q", p)
	}
	unchecked := MachineUnchecked(vm)
	if len(unchecked) != 2 || !strings.HasPrefix(unchecked[0], "the CPU frequency governor: ") || !strings.HasPrefix(unchecked[1], "turbo: ") {
		t.Errorf("unchecked on a VM: %q, want the governor and turbo", unchecked)
	}
	if u := MachineUnchecked(Platform{Governor: "performance", Turbo: "on", Load: -1, Busy: -1}); len(u) != 2 ||
		!strings.Contains(u[0], "load average") || !strings.Contains(u[1], "busy") {
		t.Errorf("unchecked without /proc: %q", u)
	}

	quiet := Platform{Cores: 2, Load: 0.2, Busy: 0.05}
	c := &Checkup{Platform: quiet, Problems: MachineProblems(quiet), Unchecked: MachineUnchecked(quiet)}
	var b bytes.Buffer
	if err := c.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if c.Err() != nil || !strings.Contains(out, "\nno problems found in what could be checked\n\nnot checked:\n- the CPU frequency governor: ") {
		t.Errorf("checkup of a quiet VM (error %v):\n%s", c.Err(), out)
	}
	c.Problems = []string{"a", "b"}
	if err := c.Err(); err == nil || err.Error() != "2 problems found" {
		t.Errorf("Err() = %v, want 2 problems found", err)
	}
}
