package stack

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// ownerFile records which process holds a data directory, so a second
// command on the same home can say exactly who and what to do.
const ownerFile = "owner.json"

// Owner is the process holding a data directory.
type Owner struct {
	PID int `json:"pid"`
	// Command is the CLI command ("serve", "verify", "fix", ...).
	Command string `json:"command"`
	// Addr is the gateway address a serve listens on ("" otherwise).
	Addr    string    `json:"addr,omitempty"`
	Started time.Time `json:"started"`
}

// writeOwner records this process as home's holder (best effort: the
// lock itself is bbolt's; the record only explains it).
func writeOwner(home string, o Owner) {
	b, err := json.Marshal(o)
	if err != nil {
		return
	}
	tmp := filepath.Join(home, ownerFile+".tmp")
	if os.WriteFile(tmp, b, 0o600) == nil {
		_ = os.Rename(tmp, filepath.Join(home, ownerFile))
	}
}

// removeOwner removes the record if it is this process's.
func removeOwner(home string) {
	if o := readOwner(home); o != nil && o.PID == os.Getpid() {
		_ = os.Remove(filepath.Join(home, ownerFile))
	}
}

// readOwner returns home's holder when its record names a live process.
func readOwner(home string) *Owner {
	b, err := os.ReadFile(filepath.Join(home, ownerFile))
	if err != nil {
		return nil
	}
	var o Owner
	if json.Unmarshal(b, &o) != nil || o.PID <= 0 {
		return nil
	}
	if err := syscall.Kill(o.PID, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return nil // a stale record of a process that is gone
	}
	return &o
}

// waitPoll is how often a command waiting for a home checks again.
const waitPoll = 300 * time.Millisecond

// awaitHome returns once home is free. A home held by a serve is never
// waited for (the serve does not end by itself: use it with --addr); one
// held by another one-shot command is waited for, as cargo waits for its
// build directory, after notify says so once.
func awaitHome(ctx context.Context, home string, notify func(*LockedError)) error {
	told := false
	for {
		err := probeLock(home)
		var le *LockedError
		if !errors.As(err, &le) || notify == nil || le.Owner == nil || le.Owner.Addr != "" || le.Owner.Command == "serve" {
			return err
		}
		if !told {
			notify(le)
			told = true
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(waitPoll):
		}
	}
}
