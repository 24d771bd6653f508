package sandbox

import "fmt"

// Bounds of the memory the tmpfs caps leave to processes (tmpfsHeadroom).
const (
	minTmpfsHeadroom = 32 << 20
	maxTmpfsHeadroom = 256 << 20
	// minTmpfsCap keeps every mount capped: a tmpfs of size 0 would be
	// unlimited.
	minTmpfsCap = 1 << 20
)

// tmpfsHeadroom is the part of a memory limit that the tmpfs mounts, even
// full, leave to processes: an eighth of it, at least 32 MiB (half of a
// limit under 64 MiB) and at most 256 MiB. It is room for the step runner,
// the main process and docker-init, and for the step that filled the
// mounts to get ENOSPC and report it rather than be killed.
func tmpfsHeadroom(mem int64) int64 {
	return min(max(mem/8, min(minTmpfsHeadroom, mem/2)), maxTmpfsHeadroom)
}

// fitTmpfs shrinks the caps of /tmp, the home directory and the workspace,
// in proportion, when together they exceed the memory limit minus
// tmpfsHeadroom, and says so. Pages written to a tmpfs are charged to the
// sandbox's memory cgroup and cannot be reclaimed (there is no swap): caps
// that add up to the memory limit let a step fill the mounts until the
// kernel OOM-kills whatever it finds, the step runner included, which
// would turn the step's verdict into an infrastructure error.
func fitTmpfs(l Limits) (Limits, string) {
	room := l.MemoryBytes - tmpfsHeadroom(l.MemoryBytes)
	sum := l.TmpfsBytes + l.HomeBytes + l.WorkspaceBytes
	if sum <= room {
		return l, ""
	}
	scale := func(v int64) int64 {
		// v*room may overflow int64 for caps of many GiB: scale in MiB.
		mib := (v >> 20) * (room >> 20) / max(sum>>20, 1)
		return max(mib<<20, minTmpfsCap)
	}
	was := l
	l.TmpfsBytes, l.HomeBytes, l.WorkspaceBytes = scale(l.TmpfsBytes), scale(l.HomeBytes), scale(l.WorkspaceBytes)
	note := fmt.Sprintf("tmpfs caps were reduced to fit under the memory limit of %s with %s left for processes "+
		"(tmpfs pages count against the memory limit): /tmp %s (asked %s), home %s (asked %s), workspace %s (asked %s)",
		mib(l.MemoryBytes), mib(tmpfsHeadroom(l.MemoryBytes)), mib(l.TmpfsBytes), mib(was.TmpfsBytes),
		mib(l.HomeBytes), mib(was.HomeBytes), mib(l.WorkspaceBytes), mib(was.WorkspaceBytes))
	return l, note
}

// mib formats a byte count in MiB.
func mib(n int64) string { return fmt.Sprintf("%d MiB", n>>20) }
