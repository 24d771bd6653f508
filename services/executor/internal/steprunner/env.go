package steprunner

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// defaultPath is searched when the environment has no PATH (runc's
// default).
const defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// MergeEnv returns base with add applied: a variable of add replaces the
// one of the same name in base (in place), others are appended in order
// (as `docker exec --env` does; enginefake applies it the same way).
func MergeEnv(base, add []string) []string {
	out := append([]string(nil), base...)
	index := make(map[string]int, len(out))
	for i, kv := range out {
		k, _, _ := strings.Cut(kv, "=")
		index[k] = i
	}
	for _, kv := range add {
		k, _, _ := strings.Cut(kv, "=")
		if i, ok := index[k]; ok {
			out[i] = kv
			continue
		}
		index[k] = len(out)
		out = append(out, kv)
	}
	return out
}

// LookPath resolves name as the container's runtime does: a name with a
// slash as is, else the first executable regular file of that name in the
// environment's PATH (runc's default PATH when it has none).
func LookPath(name string, env []string) (string, error) {
	if strings.Contains(name, "/") {
		return name, nil
	}
	path := defaultPath
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: executable file not found in $PATH", name)
}

// readOOMKills returns the "oom_kill N" counter of the first file that has
// one (memory.events on cgroup v2, memory.oom_control on v1), -1 when none
// does.
func readOOMKills(files []string) int64 {
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "oom_kill "); ok {
				if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
					return n
				}
			}
		}
	}
	return -1
}
