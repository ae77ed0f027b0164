package crosscheck

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// A loadMeter measures how much CPU other processes used while a
// benchmark process ran: the CPU time the whole machine spent busy
// (/proc/stat, including time stolen by a hypervisor), minus what the
// benchmark process itself used (its rusage). A benchmark of fixed cost
// whose short runs fit in one scheduler time slice and whose long runs
// share the CPU with that load looks as if its ns/op grew with b.N; the
// size check raises its bar for a confirmation by the load it saw.
type loadMeter struct {
	other time.Duration // CPU time used by other processes
	wall  time.Duration // wall time measured
}

// A loadSample is the state at the start of one measured run.
type loadSample struct {
	ok       bool
	busy     time.Duration // machine-wide busy CPU time
	children time.Duration // CPU time of this process's waited-for children
	at       time.Time
}

// sample reads the counters; ok is false where /proc/stat is missing.
func (m *loadMeter) sample() loadSample {
	busy, ok := machineBusy()
	return loadSample{ok: ok, busy: busy, children: childrenCPU(), at: time.Now()}
}

// add accounts for one run that started at s and has just ended.
func (m *loadMeter) add(s loadSample) {
	if !s.ok {
		return
	}
	e := m.sample()
	if !e.ok {
		return
	}
	other := (e.busy - s.busy) - (e.children - s.children)
	m.other += max(0, other)
	m.wall += e.at.Sub(s.at)
}

// cpus returns the average number of CPUs that other processes kept busy
// during the measured runs.
func (m *loadMeter) cpus() float64 {
	if m.wall <= 0 {
		return 0
	}
	return m.other.Seconds() / m.wall.Seconds()
}

// clockTicks is USER_HZ, the unit of /proc/stat: 100 on every Linux
// architecture Go supports.
const clockTicks = 100

// machineBusy returns the CPU time all processors of the machine spent
// not idle since boot.
func machineBusy() (time.Duration, bool) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 5 || f[0] != "cpu" {
			continue
		}
		// user nice system idle iowait irq softirq steal (guest time is
		// already part of user).
		var busy int64
		for i, s := range f[1:min(len(f), 9)] {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return 0, false
			}
			if i != 3 && i != 4 { // idle, iowait
				busy += v
			}
		}
		return time.Duration(busy) * time.Second / clockTicks, true
	}
	return 0, false
}

// childrenCPU returns the user and system time of this process's
// terminated and waited-for children.
func childrenCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_CHILDREN, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
