package detect

import (
	"regexp"
	"sort"
	"strings"
)

// readDependencyGroups collects the PEP 735 [dependency-groups] that name
// tests (test, tests, testing, dev), flattening {include-group = "..."}.
// The sandbox's pip predates "pip install --group", so the requirement
// strings themselves are installed.
func readDependencyGroups(info *PythonInfo, doc map[string]any) {
	groups := table(doc, "dependency-groups")
	for _, name := range sortedKeys(groups) {
		if !testExtras[name] {
			continue
		}
		info.Groups = append(info.Groups, name)
		for _, req := range flattenGroup(groups, name, 0) {
			info.GroupDeps = appendUnique(info.GroupDeps, req)
		}
	}
	if len(info.GroupDeps) > 0 {
		info.HasDeps = true
	}
	for _, r := range info.GroupDeps {
		if strings.Contains(strings.ToLower(r), "pytest") {
			info.MentionsPytest = true
		}
	}
}

// flattenGroup lists a dependency group's requirement strings, following
// include-group entries (a cycle or a deep chain stops at depth 8).
func flattenGroup(groups map[string]any, name string, depth int) []string {
	items, _ := groups[name].([]any)
	var out []string
	for _, it := range items {
		switch x := it.(type) {
		case string:
			out = append(out, x)
		case map[string]any:
			if inc, _ := x["include-group"].(string); inc != "" && depth < 8 {
				out = append(out, flattenGroup(groups, inc, depth+1)...)
			}
		}
	}
	return out
}

var (
	setupExtrasRe = regexp.MustCompile(`extras_require`)
	setupExtraKey = regexp.MustCompile(`["'](test|tests|testing|dev)["']\s*:`)
)

// readSetupPy notes that setup.py makes the project installable and finds
// the test extras of its extras_require (by pattern: setup.py is code).
func readSetupPy(v *view, sp *Subproject, file string) {
	info := sp.Python
	info.ProjectFile = file
	data, err := v.read(file)
	if err != nil {
		return
	}
	text := string(data)
	if loc := setupExtrasRe.FindStringIndex(text); loc != nil {
		for _, m := range setupExtraKey.FindAllStringSubmatch(text[loc[0]:], -1) {
			info.Extras = appendUnique(info.Extras, m[1])
		}
		sort.Strings(info.Extras)
	}
	if strings.Contains(text, "pytest") {
		info.MentionsPytest = true
	}
}

// decideProjectInstall says whether verification installs the project
// itself (pip install -e .): when its metadata declares dependencies or
// test extras, when a build system or setup.py makes it a package, or when
// a src layout cannot be imported otherwise. A flat [project] table without
// a build system is left alone: its code imports from the checkout and
// setuptools' automatic discovery may refuse such a tree. A uv project is
// installed the same way: uv is not in the sandbox image (see
// command.pipInstall).
func decideProjectInstall(sp *Subproject) {
	info := sp.Python
	if (sp.PackageManager != "pip" && sp.PackageManager != "uv") || info.Invalid {
		info.ProjectFile = ""
		return
	}
	switch {
	case info.ProjectFile != "":
	case info.Pyproject != "" || info.BuildSystem || (info.SrcLayout && info.HasProject):
		info.ProjectFile = join(sp.Root, "pyproject.toml")
	}
	if info.ProjectFile != "" {
		info.HasDeps = true
	}
}
