package store

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// processToken returns "BOOT/PIDNS/START/MACHINE" for process pid: the
// boot id of the kernel, the pid namespace of this process, the start time
// of pid in clock ticks since boot and the machine id (empty when there is
// none). Together with the pid they name one process for the life of the
// machine. It returns "" when /proc cannot tell.
func processToken(pid int) string {
	boot, ns := bootID(), pidNamespace()
	start, err := startTime(pid)
	if boot == "" || ns == "" || err != nil {
		return ""
	}
	return boot + "/" + ns + "/" + start + "/" + machineID()
}

// processGone reports whether the process with the pid and token that
// processToken returned for it has certainly ended.
func processGone(pid int, token string) bool {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return false // no /proc to look in
	}
	cur, err := startTime(pid)
	exists := !errors.Is(err, fs.ErrNotExist)
	parts := strings.Split(token, "/")
	if len(parts) != 3 && len(parts) != 4 {
		return !exists // no token: the pid is all there is to go by
	}
	boot, ns, start := parts[0], parts[1], parts[2]
	switch {
	case len(parts) == 4 && parts[3] != "" && machineID() != "" && parts[3] != machineID():
		// Another machine with this host name, sharing a PostgreSQL
		// store or a file on a network disk: its processes cannot be
		// seen from here. (Tokens of three parts, from before the
		// machine id was recorded, take a boot id that differs for a
		// reboot.)
		return false
	case boot != bootID():
		return bootID() != "" // recorded before the last reboot
	case ns != pidNamespace():
		return false // another namespace's pids cannot be looked up from here
	case !exists:
		return true
	}
	// The pid exists; it is the owner unless it started at another time.
	return err == nil && cur != start
}

// bootID returns the kernel's random boot id, new at every boot.
func bootID() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// machineID returns the machine id of systemd (/etc/machine-id, or the
// D-Bus copy), which tells two machines with the same host name apart, or
// "" when there is none.
func machineID() string {
	for _, f := range []string{"/etc/machine-id", "/var/lib/dbus/machine-id"} {
		if b, err := os.ReadFile(f); err == nil {
			if id := strings.TrimSpace(string(b)); id != "" && !strings.Contains(id, "/") {
				return id
			}
		}
	}
	return ""
}

// pidNamespace returns the inode of this process's pid namespace, such as
// "pid:[4026531836]"; pids are only comparable within one namespace.
func pidNamespace() string {
	ns, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return ""
	}
	return strings.ReplaceAll(ns, "/", "")
}

// startTime returns field 22 of /proc/PID/stat, the start time of process
// pid in clock ticks since boot. The error wraps fs.ErrNotExist when there
// is no such process, or only its zombie, which has ended and waits for its
// parent to collect its exit status.
func startTime(pid int) (string, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", err
	}
	return statStartTime(b)
}

// statStartTime returns the start time in the content b of a
// /proc/PID/stat file.
func statStartTime(b []byte) (string, error) {
	// The second field, the command name in parentheses, may itself hold
	// spaces and parentheses: the fields after it follow the last ')'.
	i := bytes.LastIndexByte(b, ')')
	const (
		stateField = 3 - 3 // the fields after ')' begin with field 3
		startField = 22 - 3
	)
	f := strings.Fields(string(b[i+1:]))
	if i < 0 || len(f) <= startField {
		return "", fmt.Errorf("unexpected /proc/PID/stat format: %.40q", b)
	}
	if s := f[stateField]; s == "Z" || s == "X" {
		return "", fmt.Errorf("a zombie: %w", fs.ErrNotExist)
	}
	return f[startField], nil
}
