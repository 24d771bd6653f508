package detect

import (
	"bufio"
	"bytes"
	"strings"
)

// firstLine returns the first non-empty, non-comment line of a small file
// (.nvmrc, .python-version, rust-toolchain), or "".
func firstLine(v *view, name string) string {
	data, err := v.read(name)
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return ""
}

// fileVersion adds a hint from a one-line version file in the subproject
// root or, failing that, the workspace root.
func fileVersion(v *view, root, base, tool string) []VersionHint {
	for _, dir := range uniqueDirs(root) {
		name := join(dir, base)
		if !hasFile(v, name) {
			continue
		}
		if ver := firstLine(v, name); ver != "" {
			return []VersionHint{{Tool: tool, Version: ver, Source: name}}
		}
	}
	return nil
}

// toolVersions reads asdf's .tool-versions ("nodejs 20.11.0") in the
// subproject root or the workspace root.
func toolVersions(v *view, root, asdfName, tool string) []VersionHint {
	for _, dir := range uniqueDirs(root) {
		name := join(dir, ".tool-versions")
		data, err := v.read(name)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) >= 2 && f[0] == asdfName {
				return []VersionHint{{Tool: tool, Version: f[1], Source: name + ":" + asdfName}}
			}
		}
	}
	return nil
}

func uniqueDirs(root string) []string {
	if root == "." {
		return []string{"."}
	}
	return []string{root, "."}
}
