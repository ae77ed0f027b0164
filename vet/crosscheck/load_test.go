package crosscheck

import (
	"runtime"
	"testing"
	"time"
)

// noProcStat skips t where the system has no /proc/stat to read the load
// from, and fails it on Linux, which always has one.
func noProcStat(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "linux" {
		t.Fatal("cannot read /proc/stat")
	}
	t.Skipf("no /proc/stat on %s", runtime.GOOS)
}

// TestLoadMeter checks that CPU burnt by a process other than the
// benchmark (here the test itself) counts as load.
func TestLoadMeter(t *testing.T) {
	if _, ok := machineBusy(); !ok {
		noProcStat(t)
	}
	var m loadMeter
	s := m.sample()
	stop := time.Now().Add(300 * time.Millisecond)
	for time.Now().Before(stop) { // this process is "another process" to the meter
	}
	m.add(s)
	if got := m.cpus(); got < 0.6 {
		t.Errorf("a busy loop of this process: %.2f CPUs of other load, want about 1", got)
	}
}

func TestMachineBusyGrows(t *testing.T) {
	a, ok := machineBusy()
	if !ok {
		noProcStat(t)
	}
	stop := time.Now().Add(100 * time.Millisecond)
	for time.Now().Before(stop) {
	}
	b, _ := machineBusy()
	if b-a < 50*time.Millisecond {
		t.Errorf("100 ms of busy loop raised machine busy time by %v", b-a)
	}
}
