package detect

import (
	"encoding/xml"
	"fmt"
	"path"
	"regexp"
	"strings"
)

// JavaInfo holds what command extraction needs about a JVM project.
type JavaInfo struct {
	// Tool is "maven" or "gradle".
	Tool string
	// BuildFile is the workspace-relative pom.xml or build.gradle(.kts).
	BuildFile string
	// Wrapper is true when ./mvnw or ./gradlew exists.
	Wrapper bool
	// Modules are a Maven aggregator's <modules>, relative to its root.
	Modules []string
}

// pom is the part of pom.xml detection reads.
type pom struct {
	Properties struct {
		Entries []xmlEntry `xml:",any"`
	} `xml:"properties"`
	Dependencies []struct {
		GroupID    string `xml:"groupId"`
		ArtifactID string `xml:"artifactId"`
	} `xml:"dependencies>dependency"`
	Modules []string `xml:"modules>module"`
}

type xmlEntry struct {
	XMLName xml.Name
	Value   string `xml:",chardata"`
}

var (
	gradleToolchain = regexp.MustCompile(`JavaLanguageVersion\.of\(\s*(\d+)\s*\)`)
	gradleSourceCmp = regexp.MustCompile(`sourceCompatibility\s*=\s*['"]?(?:JavaVersion\.VERSION_)?([0-9_.]+)`)
)

func detectJava(v *view, sp *Subproject) error {
	info := &JavaInfo{}
	sp.Java = info
	switch {
	case v.has(sp.Root, "pom.xml"):
		info.Tool, info.BuildFile, info.Wrapper = "maven", join(sp.Root, "pom.xml"), v.has(sp.Root, "mvnw")
		readPom(v, sp)
	default:
		info.Tool, info.Wrapper = "gradle", v.has(sp.Root, "gradlew")
		info.BuildFile = firstExisting(v, sp.Root, []string{"build.gradle.kts", "build.gradle"})
		readGradle(v, sp)
	}
	sp.PackageManager = info.Tool
	for _, f := range v.under(sp.Root, nil) {
		rel := strings.TrimPrefix(f, sp.Root+"/")
		inTests := strings.HasPrefix(rel, "src/test/") || strings.Contains(rel, "/src/test/") // modules too
		if inTests && (strings.HasSuffix(f, ".java") || strings.HasSuffix(f, ".kt")) {
			sp.HasTests = true
			break
		}
	}
	if sp.HasTests && len(sp.TestFrameworks) == 0 {
		sp.TestFrameworks = []string{"junit"}
	}
	return nil
}

func readPom(v *view, sp *Subproject) {
	file := sp.Java.BuildFile
	data, err := v.read(file)
	if err != nil {
		sp.Problems = append(sp.Problems, Problem{File: file, Msg: fmt.Sprintf("not read: %v", err)})
		return
	}
	var p pom
	if err := xml.Unmarshal(data, &p); err != nil {
		sp.Problems = append(sp.Problems, Problem{File: file, Msg: "invalid XML: " + err.Error()})
		return
	}
	for _, e := range p.Properties.Entries {
		switch e.XMLName.Local {
		case "maven.compiler.release", "maven.compiler.source", "java.version":
			sp.Versions = append(sp.Versions, VersionHint{Tool: "java", Version: strings.TrimSpace(e.Value), Source: file + ":properties." + e.XMLName.Local})
		}
	}
	for _, m := range p.Modules {
		if m = path.Clean(strings.TrimSpace(m)); m != "." && !strings.HasPrefix(m, "..") && !path.IsAbs(m) {
			sp.Java.Modules = append(sp.Java.Modules, m)
		}
	}
	for _, d := range p.Dependencies {
		if strings.Contains(d.ArtifactID, "junit") || strings.Contains(d.GroupID, "junit") {
			sp.TestFrameworks = []string{"junit"}
		}
	}
}

func readGradle(v *view, sp *Subproject) {
	data, err := v.read(sp.Java.BuildFile)
	if err != nil {
		return
	}
	for _, re := range []*regexp.Regexp{gradleToolchain, gradleSourceCmp} {
		if m := re.FindSubmatch(data); m != nil {
			sp.Versions = append(sp.Versions, VersionHint{Tool: "java", Version: strings.ReplaceAll(string(m[1]), "_", "."), Source: sp.Java.BuildFile})
			break
		}
	}
	if strings.Contains(string(data), "junit") {
		sp.TestFrameworks = []string{"junit"}
	}
}
