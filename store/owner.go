package store

import (
	"os"
	"sync"
)

// An owner names the process that created a run, so that a reader can tell
// a run still being written from one whose process died without calling
// Finish (killed with SIGKILL, out of memory, or the machine went down).
//
// A pid alone would not do: the system hands it to a new process once the
// owner has gone. process adds what tells the owner from a later process
// with its pid: on Linux the machine, the boot, the pid namespace and the
// process's start time, from /proc (see owner_linux.go); elsewhere it is
// empty and only the existence of the pid is checked. A process on another
// machine (another host name, or another machine id under the same name,
// as shards of a PostgreSQL store have) is never taken for gone.
type owner struct {
	host    string
	pid     int64
	process string
}

// self returns the owner of the runs this process creates.
var self = sync.OnceValue(func() owner {
	host, _ := os.Hostname()
	pid := os.Getpid()
	return owner{host: host, pid: int64(pid), process: processToken(pid)}
})

// gone reports whether the process o names has certainly ended. Only a
// process on this host can be checked; one on another host, or in another
// pid namespace, is taken to be alive, since its run may still be going.
func (o owner) gone() bool {
	me := self()
	if o.host == "" || o.host != me.host || o.pid <= 0 || o.pid != int64(int(o.pid)) {
		return false
	}
	return processGone(int(o.pid), o.process)
}
