package detect

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/toolchain"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// view is the tree restricted to files outside ignored directories, grouped
// by directory.
type view struct {
	tree  Tree
	files []string
	dirs  map[string]map[string]bool
}

func newView(t Tree) *view {
	v := &view{tree: t, dirs: map[string]map[string]bool{}}
	for _, f := range t.Files() {
		if Ignored(f) {
			continue
		}
		v.files = append(v.files, f)
		d, b := splitPath(f)
		if v.dirs[d] == nil {
			v.dirs[d] = map[string]bool{}
		}
		v.dirs[d][b] = true
	}
	return v
}

// has reports whether dir holds a file named base.
func (v *view) has(dir, base string) bool { return v.dirs[dir][base] }

// exists checks the whole tree, ignored directories included (vendor/).
func (v *view) exists(name string) bool {
	files := v.tree.Files()
	i := sort.SearchStrings(files, name)
	return i < len(files) && files[i] == name
}

// anyUnder reports whether the whole tree holds a file inside dir.
func (v *view) anyUnder(dir string) bool {
	files := v.tree.Files()
	i := sort.SearchStrings(files, dir+"/")
	return i < len(files) && strings.HasPrefix(files[i], dir+"/")
}

// read returns a marker file's content.
func (v *view) read(name string) ([]byte, error) { return v.tree.ReadFile(name) }

// under returns the files inside root, excluding those inside any of the
// excluded directories nested in root (subprojects of the same runtime
// below it; an enclosing root such as "." excludes nothing).
func (v *view) under(root string, exclude []string) []string {
	var out []string
	for _, f := range v.files {
		if !within(root, f) {
			continue
		}
		skip := false
		for _, x := range exclude {
			if x != root && within(root, x) && within(x, f) {
				skip = true
				break
			}
		}
		if !skip {
			out = append(out, f)
		}
	}
	return out
}

// Detect finds every subproject of a tree.
func Detect(t Tree) (Result, error) {
	v := newView(t)
	var res Result
	roots, dropped, testReqs := auxiliaryRoots(findRoots(v), &res)
	byRuntime := map[string][]string{}
	for _, r := range append(slices.Clip(roots), dropped...) {
		byRuntime[family(r.runtime)] = append(byRuntime[family(r.runtime)], r.dir)
	}
	for _, r := range roots {
		sp := Subproject{Root: r.dir, Runtime: r.runtime, Markers: r.markers}
		nested := byRuntime[family(r.runtime)]
		var err error
		switch r.runtime {
		case RuntimeGo:
			err = detectGo(v, &sp, nested)
		case RuntimePython:
			err = detectPython(v, &sp, nested)
		case RuntimeNode:
			err = detectNode(v, &sp, nested)
		case RuntimeJava:
			err = detectJava(v, &sp)
		case RuntimeCpp:
			detectCpp(v, &sp, nested)
		case RuntimeMake:
		default:
			if p, ok := packs.Registry.Lookup(r.runtime); ok {
				detectPack(v, p, &sp)
				break
			}
			res.Notes = append(res.Notes, fmt.Sprintf("%s: %s project detected (%s); greenlight knows no commands for %s, only its Makefile targets if any",
				r.dir, r.runtime, strings.Join(r.markers, ", "), r.runtime))
		}
		if err != nil {
			return Result{}, err
		}
		res.Subprojects = append(res.Subprojects, sp)
	}
	dropToolModules(&res)
	attachTestRequirements(v, &res, testReqs)
	for i := range res.Subprojects {
		res.Subprojects[i].InstallFiles = installFiles(v, &res.Subprojects[i])
	}
	attachMakefiles(v, &res)
	cppMakefiles(v, &res)
	gopathGo(v, &res)
	sortSubprojects(res.Subprojects)
	for _, sp := range res.Subprojects {
		for _, p := range sp.Problems {
			res.Notes = append(res.Notes, p.String())
		}
	}
	if len(res.Subprojects) == 0 {
		manifests := append([]string{"go.mod", "package.json", "pyproject.toml", "requirements.txt"},
			packs.Registry.Collect(func(s *toolchain.Spec) []string { return s.Manifests })...)
		manifests = append(manifests, "pom.xml", "build.gradle", "CMakeLists.txt", "Makefile")
		res.Notes = append(res.Notes, "no subproject detected: no manifest ("+strings.Join(manifests, ", ")+") and no source files of a known runtime")
	}
	return res, nil
}

// String formats a problem as file:line: message.
func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Msg)
}

// family groups runtimes whose nested roots exclude each other's files.
func family(runtime string) string {
	if runtime == RuntimeTypeScript {
		return RuntimeNode
	}
	return runtime
}

type root struct {
	dir, runtime string
	markers      []string
}

// findRoots maps marker files to (directory, runtime) pairs.
func findRoots(v *view) []root {
	idx := map[string]int{}
	var roots []root
	add := func(dir, runtime, marker string) {
		k := dir + "\x00" + runtime
		if i, ok := idx[k]; ok {
			roots[i].markers = append(roots[i].markers, marker)
			return
		}
		idx[k] = len(roots)
		roots = append(roots, root{dir: dir, runtime: runtime, markers: []string{marker}})
	}
	dirs := make([]string, 0, len(v.dirs))
	for d := range v.dirs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		bases := sortedKeys(v.dirs[d])
		for _, b := range bases {
			if rt := markerRuntime(v, d, b); rt != "" {
				add(d, rt, join(d, b))
			}
		}
	}
	for _, p := range packs.Registry.All() {
		if s := p.Spec(); s.NestedModules {
			roots = dropNestedModules(roots, s.Name)
		}
	}
	roots = dropNestedModules(roots, RuntimeJava)
	roots = dropNestedModules(roots, RuntimeCpp)
	if len(roots) == 0 {
		roots = append(roots, looseSources(v)...)
	}
	return roots
}

// markerRuntime says which runtime a file marks, or "".
func markerRuntime(v *view, dir, base string) string {
	if p, ok := packs.Registry.ByManifest(base); ok {
		return p.Spec().Name
	}
	switch base {
	case "go.mod":
		return RuntimeGo
	case "package.json":
		if clibManifest(v, join(dir, base)) {
			return RuntimeCpp
		}
		return RuntimeNode
	case "CMakeLists.txt":
		return RuntimeCpp
	case "pyproject.toml", "setup.py", "Pipfile":
		return RuntimePython
	case "setup.cfg":
		if setupCfgIsProject(v, join(dir, base)) {
			return RuntimePython
		}
	case "pom.xml", "build.gradle", "build.gradle.kts":
		return RuntimeJava
	}
	if isRequirements(base) {
		return RuntimePython
	}
	if rt, ok := otherRuntimes[base]; ok {
		return rt
	}
	if rt, ok := otherRuntimeBySuffix[path.Ext(base)]; ok {
		return rt
	}
	return ""
}

// dropNestedModules removes roots of a runtime nested in another root of the
// same runtime: Cargo workspace members and Maven/Gradle modules are built
// from their top-level project.
func dropNestedModules(roots []root, runtime string) []root {
	var tops []string
	out := roots[:0]
	for _, r := range roots { // sorted by dir, so parents come first
		if r.runtime == runtime {
			nested := false
			for _, t := range tops {
				if t != r.dir && within(t, r.dir) {
					nested = true
				}
			}
			if nested {
				continue
			}
			tops = append(tops, r.dir)
		}
		out = append(out, r)
	}
	return out
}

// looseSources covers a tree with no manifest at all but Python sources
// (a scripts repository): a root Python subproject without dependencies.
func looseSources(v *view) []root {
	for _, f := range v.files {
		if strings.HasSuffix(f, ".py") {
			return []root{{dir: ".", runtime: RuntimePython, markers: []string{"*.py"}}}
		}
	}
	return nil
}

func sortSubprojects(sps []Subproject) {
	sort.SliceStable(sps, func(i, j int) bool {
		if sps[i].Root != sps[j].Root {
			if sps[i].Root == "." || sps[j].Root == "." {
				return sps[i].Root == "."
			}
			return sps[i].Root < sps[j].Root
		}
		return order(sps[i].Runtime) < order(sps[j].Runtime)
	})
}

func order(runtime string) int {
	if o, ok := runtimeOrder[runtime]; ok {
		return o
	}
	if p, ok := packs.Registry.Lookup(runtime); ok {
		return p.Spec().Order
	}
	return 5
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
