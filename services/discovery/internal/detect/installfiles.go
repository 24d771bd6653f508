package detect

import (
	"path"
	"slices"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/toolchain"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

// maxIncludeDepth bounds how deep requirement-file includes are followed.
const maxIncludeDepth = 8

// installFiles lists every file that can change what the subproject's
// install produces (workspace.InstallFileFor: the manifests of its tree,
// its modules and members, and of its ancestors), plus the requirement
// files its requirement files include (-r/-c) wherever they lie and the
// manifests of local packages they install (-e ../lib). They key the
// dependency cache: a changed setup.py or module pom.xml must not reuse a
// tree installed from the old one.
func installFiles(v *view, sp *Subproject) []string {
	seen := map[string]bool{}
	var out []string
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	for _, f := range v.tree.Files() {
		if configFile(f) && workspace.InstallFileFor(f, sp.Root) {
			add(f)
		}
	}
	if sp.Python != nil {
		for _, r := range sp.Python.Requirements {
			followRequirements(v, r, 0, add)
		}
	}
	slices.Sort(out)
	return out
}

// configDirs are dot-directories that hold install settings (Maven's
// extensions and config, Yarn's release and plugins, and the directories
// of the toolchain packs' ConfigFiles such as Cargo's .cargo).
var configDirs = packConfigDirs(map[string]bool{".mvn": true, ".yarn": true})

func packConfigDirs(dirs map[string]bool) map[string]bool {
	for _, f := range packs.Registry.Collect(func(s *toolchain.Spec) []string { return s.ConfigFiles }) {
		dirs[path.Dir(f)] = true
	}
	return dirs
}

// configFile says whether f lies outside the directories detection
// ignores, or inside a dot-directory of install settings.
func configFile(f string) bool {
	dirs := strings.Split(f, "/")
	for _, d := range dirs[:len(dirs)-1] {
		if ignoredDirs[d] || (strings.HasPrefix(d, ".") && !configDirs[d]) {
			return false
		}
	}
	return true
}

// followRequirements adds the files a requirements file includes, and the
// manifests of the local directories it installs, recursively.
func followRequirements(v *view, file string, depth int, add func(string)) {
	if depth > maxIncludeDepth {
		return
	}
	data, err := v.read(file)
	if err != nil {
		return
	}
	dir := path.Dir(file)
	for _, line := range strings.Split(string(data), "\n") {
		opt, arg := requirementOption(line)
		if arg == "" {
			continue
		}
		target := path.Clean(path.Join(dir, arg))
		if target == ".." || strings.HasPrefix(target, "../") || path.IsAbs(arg) {
			continue
		}
		switch opt {
		case "-r", "-c":
			if v.exists(target) {
				add(target)
				followRequirements(v, target, depth+1, add)
			}
		case "-e", "local":
			for _, f := range v.files {
				if within(target, f) && workspace.InstallFile(f) {
					add(f)
				}
			}
		}
	}
}

// requirementOption parses one requirements line: "-r"/"-c" with the
// included file, "-e" or "local" with a local directory, "" otherwise.
func requirementOption(line string) (opt, arg string) {
	line = strings.TrimSpace(line)
	if i := strings.Index(line, " #"); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	for _, o := range []struct{ flag, long, opt string }{
		{"-r", "--requirement", "-r"}, {"-c", "--constraint", "-c"}, {"-e", "--editable", "-e"},
	} {
		for _, f := range []string{o.long, o.flag} {
			if rest, ok := strings.CutPrefix(line, f); ok {
				rest = strings.TrimSpace(strings.TrimPrefix(rest, "="))
				if o.opt == "-e" && strings.Contains(rest, "://") {
					return "", "" // a VCS URL, not a local directory
				}
				return o.opt, rest
			}
		}
	}
	if strings.HasPrefix(line, "./") || strings.HasPrefix(line, "../") {
		return "local", strings.Fields(line)[0]
	}
	return "", ""
}
