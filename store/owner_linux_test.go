package store

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
)

// TestProcessToken checks the tokens that tell a process from a later one
// with the same pid.
func TestProcessToken(t *testing.T) {
	me := self()
	parts := strings.Split(me.process, "/")
	if len(parts) != 4 || parts[0] == "" || parts[1] == "" || parts[2] == "" || parts[3] != machineID() {
		t.Fatalf("process token %q, want BOOT/PIDNS/START/MACHINE", me.process)
	}
	boot, ns, start := parts[0], parts[1], parts[2]
	machine := "/" + machineID()
	pid := os.Getpid()
	for _, tc := range []struct {
		name, token string
		want        bool
	}{
		{"this process", me.process, false},
		{"an earlier process with this pid", boot + "/" + ns + "/" + start + "0" + machine, true},
		{"a process of an earlier boot", "0-" + boot + "/" + ns + "/" + start + machine, true},
		{"a process in another pid namespace", boot + "/pid:[1]/" + start + "0" + machine, false},
		{"an earlier process, token without machine", boot + "/" + ns + "/" + start + "0", true},
		{"an earlier boot, token without machine", "0-" + boot + "/" + ns + "/" + start, true},
		{"no token", "", false},
		{"another machine of this name", "0-" + boot + "/" + ns + "/" + start + "/0" + machineID(), machineID() == ""},
	} {
		if got := processGone(pid, tc.token); got != tc.want {
			t.Errorf("%s: processGone(%d, %q) = %v, want %v", tc.name, pid, tc.token, got, tc.want)
		}
	}
}

func TestStatStartTime(t *testing.T) {
	const rest = " 1 1 1 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 1 0 8675309 1000 10"
	for _, tc := range []struct {
		stat, want string
		gone       bool
	}{
		{"4242 (mbench) S" + rest, "8675309", false},
		// The command name is the process's to choose.
		{"4242 (a) b (c) S" + rest, "8675309", false},
		{"4242 (x) R 1) S" + rest, "8675309", false},
		{"4242 (mbench) Z" + rest, "", true},
		{"4242 (mbench) S 1 1", "", false},
		{"", "", false},
	} {
		got, err := statStartTime([]byte(tc.stat))
		if got != tc.want || errors.Is(err, fs.ErrNotExist) != tc.gone || (tc.want == "") != (err != nil) {
			t.Errorf("statStartTime(%q) = %q, %v; want %q, gone %v", tc.stat, got, err, tc.want, tc.gone)
		}
	}
}
