package sandbox

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// Labels on every container greenlight creates. The reaper reads them to
// decide what is stale without any state of its own.
const (
	// LabelRun is the run id ("pool" for pooled containers not yet used).
	LabelRun = "greenlight.run"
	// LabelOwner is who asked: the request's owner, or the executor's own
	// owner for pooled containers.
	LabelOwner = "greenlight.owner"
	// LabelPool marks a warm-pool container; its value is the image.
	LabelPool = "greenlight.pool"
	// LabelHost, LabelPID and LabelPIDStart identify the executor process
	// that created the container, so a restarted executor on the same host
	// can tell that its predecessor is dead.
	LabelHost     = "greenlight.host"
	LabelPID      = "greenlight.pid"
	LabelPIDStart = "greenlight.pid-start"
	// LabelDeadline (unix seconds) is when the container is stale whatever
	// else is known: after its run budget plus a grace period.
	LabelDeadline = "greenlight.deadline"
)

// poolRunValue is LabelRun's value on pooled containers.
const poolRunValue = "pool"

// Identity names an executor process.
type Identity struct {
	Host     string
	PID      int
	PIDStart string
}

// SelfIdentity returns the identity of the current process.
func SelfIdentity() Identity {
	host, _ := os.Hostname()
	return Identity{Host: host, PID: os.Getpid(), PIDStart: procStart(os.Getpid())}
}

// labels returns the identity labels plus the deadline.
func (id Identity) labels(deadline time.Time) map[string]string {
	return map[string]string{
		LabelHost:     id.Host,
		LabelPID:      strconv.Itoa(id.PID),
		LabelPIDStart: id.PIDStart,
		LabelDeadline: strconv.FormatInt(deadline.Unix(), 10),
	}
}

// procStart returns the start time of a process (field 22 of
// /proc/PID/stat, in clock ticks since boot), which with the pid identifies
// a process across pid reuse; "" when unknown.
func procStart(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The command name (field 2) may contain spaces and parentheses: the
	// fields after it start after the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return ""
	}
	fields := strings.Fields(s[i+1:])
	const startField = 22 - 3 // fields[0] is field 3
	if len(fields) <= startField {
		return ""
	}
	return fields[startField]
}

// Labels returns the identity's labels (host, pid, start time), as written
// on everything the process creates.
func (id Identity) Labels() map[string]string {
	return map[string]string{LabelHost: id.Host, LabelPID: strconv.Itoa(id.PID), LabelPIDStart: id.PIDStart}
}

// IdentityOf reads the identity labels of an object; PID is 0 when they
// are missing or malformed.
func IdentityOf(labels map[string]string) Identity {
	pid, _ := strconv.Atoi(labels[LabelPID])
	return Identity{Host: labels[LabelHost], PID: pid, PIDStart: labels[LabelPIDStart]}
}

// GoneFrom reports whether id names a process of self's host that no
// longer runs. A process of another host cannot be checked: it is never
// gone.
func (id Identity) GoneFrom(self Identity) bool {
	if id.Host != self.Host {
		return false
	}
	if id.PID == self.PID && id.PIDStart == self.PIDStart {
		return false
	}
	return id.PID <= 0 || !processAlive(id.PID, id.PIDStart)
}
