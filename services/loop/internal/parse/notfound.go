package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"sort"

	"github.com/greenlight-dev/greenlight/pkg/toolchain"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// shellNotFound matches what shells, make and env print when a command
// the step calls does not exist: "sh: 1: gcc: not found", "bash: line 3:
// cmake: command not found", "make: cc: No such file or directory",
// "env: 'node': No such file or directory".
var shellNotFound = lazyregexp.New(`(?:^|: )(?:line \d+: |\d+: )?'?([A-Za-z0-9_.+-]+)'?: (?:command not found|not found|Command not found|No such file or directory)\s*$`)

// buildTools are the programs a step's commands call that an image
// provides or lacks: compilers, build systems, interpreters, package
// managers and the utilities of a CI runner. A step that printed one of them "not found" ran in an image
// without it, whatever its exit code says.
var buildTools = map[string]bool{
	"gcc": true, "g++": true, "cc": true, "c++": true, "cpp": true, "clang": true, "clang++": true, "ld": true, "as": true, "ar": true,
	"make": true, "gmake": true, "cmake": true, "ctest": true, "ninja": true, "meson": true, "autoconf": true, "autoreconf": true,
	"automake": true, "libtool": true, "libtoolize": true, "pkg-config": true, "bison": true, "flex": true, "m4": true,
	"go": true, "gofmt": true, "javac": true, "java": true, "mvn": true, "gradle": true, "ant": true,
	"node": true, "npm": true, "npx": true, "yarn": true, "pnpm": true, "bun": true, "deno": true, "tsc": true,
	"python": true, "python3": true, "pip": true, "pip3": true, "tox": true, "nox": true, "pytest": true,
	"ruby": true, "bundle": true, "perl": true, "prove": true, "php": true, "composer": true, "dotnet": true, "swift": true,
	"zig": true, "lua": true, "tclsh": true, "git": true, "bash": true, "valgrind": true, "gdb": true, "gcov": true, "lcov": true,
	// Utilities every CI runner has that test scripts call as if every
	// machine did (json-c's CLI test builds its input with xxd): missing,
	// they fail the suite for the image's sake, not the code's.
	"xxd": true, "hexdump": true, "od": true, "bc": true, "jq": true, "curl": true, "wget": true, "zstd": true, "lz4": true,
	"bzip2": true, "xz": true, "gzip": true, "zip": true, "unzip": true, "file": true, "patch": true, "diff": true, "cmp": true,
	"sqlite3": true, "openssl": true, "expect": true, "socat": true, "nc": true, "shellcheck": true, "clang-format": true,
	"clang-tidy": true, "cppcheck": true, "doxygen": true, "xmllint": true, "xsltproc": true, "iconv": true, "locale": true,
	"msgfmt": true, "swig": true, "protoc": true, "rustc": true, "cargo": true, "docker": true, "sudo": true, "time": true,
}

func init() {
	for _, t := range packs.Registry.Collect(func(s *toolchain.Spec) []string { return s.Image.Tools }) {
		buildTools[t] = true
	}
}

// missingCommands collects the build tools a log says were not found.
type missingCommands struct{ seen map[string]bool }

// feed records a "not found" line naming a build tool.
func (m *missingCommands) feed(ln line) {
	if !bytes.Contains(ln.text, []byte("ound")) && !bytes.Contains(ln.text, []byte("No such file")) {
		return
	}
	sub := shellNotFound.FindSubmatch(bytes.TrimSpace(ln.text))
	if sub == nil || !buildTools[string(sub[1])] {
		return
	}
	if m.seen == nil {
		m.seen = map[string]bool{}
	}
	m.seen[string(sub[1])] = true
}

// names lists the missing tools, sorted.
func (m *missingCommands) names() []string {
	out := make([]string, 0, len(m.seen))
	for n := range m.seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
