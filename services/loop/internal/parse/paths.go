package parse

import (
	"bufio"
	"io/fs"
	"path"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/toolchain"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// DefaultRoot is where the sandbox unpacks the workspace.
const DefaultRoot = "/workspace"

// vendorMarkers are path fragments of code that is not the project's own:
// interpreters' libraries, installed dependencies, the Go root and module cache.
var vendorMarkers = append([]string{
	"/site-packages/", "/dist-packages/", "node_modules/", "/pkg/mod/",
	"/usr/local/go/", "/usr/lib/", "/usr/local/lib/", "/.pyenv/",
	"/.venv/", "/venv/", "/.m2/", "/maven-repo/",
}, packs.Registry.Collect(func(s *toolchain.Spec) []string { return s.LibraryPaths })...)

// Paths normalizes paths printed by tools to workspace-relative paths and
// tells project code from everything else.
type Paths struct {
	// Root is the workspace root in the sandbox ("/workspace").
	Root string
	// Workdir is the step's working directory relative to Root ("web", "" for the root).
	Workdir string
	// Files reads the snapshot (optional): used to find the Go module path
	// and to check that candidate files exist.
	Files fs.FS

	modPath   string
	modLoaded bool
	// cache remembers recent results: logs repeat the same few paths.
	cache map[string]normalized
	// csrc indexes the snapshot's C/C++ sources by base name, built on
	// first need ("" for a name several files share).
	csrc map[string]string
}

type normalized struct {
	rel     string
	project bool
}

// maxPathCache bounds the normalization cache.
const maxPathCache = 1024

// NewPaths returns a normalizer for a step running in workdir.
func NewPaths(root, workdir string, files fs.FS) *Paths {
	if root == "" {
		root = DefaultRoot
	}
	wd := path.Clean(strings.TrimPrefix(workdir, "/"))
	if wd == "." {
		wd = ""
	}
	return &Paths{Root: path.Clean(root), Workdir: wd, Files: files}
}

// Normalize maps a printed path to a workspace-relative one. project is false
// for paths outside the workspace or in vendored/installed code.
func (p *Paths) Normalize(raw string) (rel string, project bool) {
	if n, ok := p.cache[raw]; ok {
		return n.rel, n.project
	}
	rel, project = p.normalize(raw)
	if p.cache == nil || len(p.cache) >= maxPathCache {
		p.cache = map[string]normalized{}
	}
	p.cache[raw] = normalized{rel, project}
	return rel, project
}

// normalizeBytes is Normalize for a path still in a line buffer: the cache
// lookup does not copy it, so a path seen before costs no allocation.
func (p *Paths) normalizeBytes(raw []byte) (rel string, project bool) {
	if n, ok := p.cache[string(raw)]; ok {
		return n.rel, n.project
	}
	return p.Normalize(string(raw))
}

func (p *Paths) normalize(raw string) (rel string, project bool) {
	s := strings.TrimSpace(raw)
	s = strings.TrimPrefix(s, "file://")
	if s == "" || strings.HasPrefix(s, "<") || strings.HasPrefix(s, "node:") || strings.HasPrefix(s, "internal/") || path.Base(s) == "_testmain.go" {
		return s, false
	}
	for _, m := range vendorMarkers {
		if strings.Contains(s, m) || strings.HasPrefix(s, strings.TrimPrefix(m, "/")) {
			return s, false
		}
	}
	if strings.HasPrefix(s, "/") {
		c := path.Clean(s)
		if c == p.Root || !strings.HasPrefix(c, p.Root+"/") {
			return c, false
		}
		return strings.TrimPrefix(c, p.Root+"/"), true
	}
	j := path.Join(p.Workdir, s)
	if j == ".." || strings.HasPrefix(j, "../") {
		return s, false
	}
	return j, true
}

// Exists reports whether rel is a file of the snapshot; true when no FS is known.
func (p *Paths) Exists(rel string) bool {
	if p.Files == nil {
		return true
	}
	st, err := fs.Stat(p.Files, rel)
	return err == nil && !st.IsDir()
}

// maxSnapshotWalk bounds the entries cSources visits.
const maxSnapshotWalk = 20000

// cSources indexes the snapshot's C/C++ sources and headers by base name:
// the path of the one file of that name, "" for a name several files share;
// empty without a snapshot. Harnesses and drivers print base names, or
// only a test program's name.
func (p *Paths) cSources() map[string]string {
	if p.csrc != nil || p.Files == nil {
		return p.csrc
	}
	p.csrc = map[string]string{}
	n := 0
	_ = fs.WalkDir(p.Files, ".", func(name string, d fs.DirEntry, err error) error {
		if n++; err != nil || n > maxSnapshotWalk {
			return fs.SkipAll
		}
		if d.IsDir() {
			if b := d.Name(); name != "." && (strings.HasPrefix(b, ".") || b == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		switch path.Ext(name) {
		case ".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp":
			if _, dup := p.csrc[d.Name()]; dup {
				p.csrc[d.Name()] = ""
			} else {
				p.csrc[d.Name()] = name
			}
		}
		return nil
	})
	return p.csrc
}

// GoFile maps a file name printed by go test for package pkg (t.Errorf prints
// the base name relative to the package directory) to a workspace path.
func (p *Paths) GoFile(pkg, file string) string {
	if strings.Contains(file, "/") {
		rel, _ := p.Normalize(file)
		return rel
	}
	mod := p.goModule()
	if mod != "" && (pkg == mod || strings.HasPrefix(pkg, mod+"/")) {
		return path.Join(p.Workdir, strings.TrimPrefix(strings.TrimPrefix(pkg, mod), "/"), file)
	}
	// Unknown module: try the import path's trailing elements as directories.
	parts := strings.Split(pkg, "/")
	for i := 1; i < len(parts); i++ {
		cand := path.Join(p.Workdir, path.Join(parts[i:]...), file)
		if p.Files != nil && p.Exists(cand) {
			return cand
		}
	}
	return path.Join(p.Workdir, file)
}

// JavaFile maps a bare Java file name from a stack frame of class cls
// ("com.example.CalcTest") to a workspace path under the Maven layout.
func (p *Paths) JavaFile(cls, file string) string {
	dir := ""
	if i := strings.LastIndexByte(cls, '.'); i > 0 {
		dir = strings.ReplaceAll(cls[:i], ".", "/")
	}
	main := path.Join(p.Workdir, "src/main/java", dir, file)
	test := path.Join(p.Workdir, "src/test/java", dir, file)
	if p.Files != nil {
		if p.Exists(test) {
			return test
		}
		return main
	}
	base := strings.TrimSuffix(file, ".java")
	if strings.HasSuffix(base, "Test") || strings.HasSuffix(base, "Tests") || strings.HasSuffix(base, "IT") {
		return test
	}
	return main
}

// goModule reads the module path from go.mod in the workdir (once).
func (p *Paths) goModule() string {
	if p.modLoaded {
		return p.modPath
	}
	p.modLoaded = true
	if p.Files == nil {
		return ""
	}
	f, err := p.Files.Open(path.Join(p.Workdir, "go.mod"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		t := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(t, "module ") {
			p.modPath = strings.Trim(strings.TrimSpace(strings.TrimPrefix(t, "module ")), `"`)
			break
		}
	}
	return p.modPath
}
