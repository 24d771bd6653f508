package capability

import (
	"path"
	"slices"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/cisource"
)

// scriptDepth bounds how deep scripts calling scripts are followed.
const scriptDepth = 2

// wrappers run the program named after them.
var wrappers = map[string]bool{"sudo": true, "env": true, "time": true, "exec": true, "nice": true, "command": true, "xvfb-run": true}

// compilerVars are the conventional variables build scripts call
// compilers through (`$CC -o x x.c`), with the program each defaults to.
var compilerVars = map[string]string{"CC": "cc", "CXX": "c++", "CPP": "cpp", "LD": "ld", "AR": "ar"}

// needs records, for every command, the programs it calls that only some
// images provide, looking into the workspace's shell scripts it runs
// (`cd tests && ./unittest.sh` calls whatever unittest.sh calls).
func (c *Capabilities) needs(t Tree) {
	for i := range c.Commands {
		cmd := &c.Commands[i]
		found := map[string]bool{}
		run := cmd.Command
		if cmd.Display != "" {
			run = cmd.Display // what a person reads: a wrapped CI block, a launched tool
		}
		programs(t, run, cmd.Workdir, scriptDepth, found)
		for p := range found {
			if image.KnownTool(p) {
				cmd.Needs = append(cmd.Needs, p)
			}
		}
		slices.Sort(cmd.Needs)
	}
}

// programs adds the programs a shell command line calls to found,
// following scripts of the tree to depth levels.
func programs(t Tree, run, dir string, depth int, found map[string]bool) {
	for _, line := range strings.Split(run, "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		for _, part := range cisource.Parts(line) {
			words := strings.Fields(part)
			for len(words) > 0 && (strings.Contains(words[0], "=") || wrappers[words[0]]) {
				words = words[1:]
			}
			if len(words) == 0 {
				continue
			}
			prog := words[0]
			if v, ok := strings.CutPrefix(prog, "$"); ok {
				// `$CC`, `${CC}`, `${CC:-gcc}`: the compiler it names
				v = strings.Trim(v, "{}")
				name, def, _ := strings.Cut(v, ":-")
				if def != "" {
					prog = def
				} else if c, ok := compilerVars[name]; ok {
					prog = c
				}
			}
			switch {
			case prog == "cd" && len(words) > 1:
				dir = path.Join(dir, words[1])
			case (prog == "bash" || prog == "sh") && len(words) > 1 && !strings.HasPrefix(words[1], "-"):
				script(t, path.Join(dir, words[1]), depth, found)
			case strings.HasPrefix(prog, "./") || strings.HasSuffix(prog, ".sh"):
				script(t, path.Join(dir, prog), depth, found)
			default:
				found[path.Base(prog)] = true
			}
		}
	}
}

// script reads a workspace script and adds what it calls.
func script(t Tree, name string, depth int, found map[string]bool) {
	if depth == 0 || strings.HasPrefix(name, "../") {
		return
	}
	data, err := t.ReadFile(name)
	if err != nil {
		return
	}
	programs(t, string(data), path.Dir(name), depth-1, found)
}
