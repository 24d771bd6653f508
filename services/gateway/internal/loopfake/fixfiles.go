package loopfake

import (
	"archive/tar"
	"bytes"
	"fmt"
	"sort"
	"strings"
	"time"
)

// The source tree of FixRounds: a calc package whose Div does not refuse
// a zero divisor and a util package whose Trim trims one side only. Round
// 1 fixes Div, round 2 fixes Trim.

// divAssertion and trimAssertion mark the failing assertions; their line
// numbers are looked up, so the files can change without breaking links.
const (
	divAssertion  = `t.Errorf("Div(1, 0) = %d, %v; want an error", got, err)`
	trimAssertion = `t.Errorf("Trim(%q) = %q, want %q", in, got, want)`
)

// HostileComment is in util.go: the code view must show it as text.
const HostileComment = `// Trim trims spaces. <script>window.pwned=3</script><img src=x onerror="window.pwned=4">`

const calcBuggy = `package calc

// Add adds a and b.
func Add(a, b int) int { return a + b }

// Sub subtracts b from a.
func Sub(a, b int) int { return a - b }

// Mul multiplies a and b.
func Mul(a, b int) int { return a * b }

// Div divides a by b.
func Div(a, b int) (int, error) {
	if b == 0 {
		return 0, nil
	}
	return a / b, nil
}
`

const calcFixed = `package calc

import "errors"

// Add adds a and b.
func Add(a, b int) int { return a + b }

// Sub subtracts b from a.
func Sub(a, b int) int { return a - b }

// Mul multiplies a and b.
func Mul(a, b int) int { return a * b }

// Div divides a by b.
func Div(a, b int) (int, error) {
	if b == 0 {
		return 0, errors.New("division by zero")
	}
	return a / b, nil
}
`

// calcDiff turns calcBuggy into calcFixed.
const calcDiff = `--- a/calc/calc.go
+++ b/calc/calc.go
@@ -1,5 +1,7 @@
 package calc
 
+import "errors"
+
 // Add adds a and b.
 func Add(a, b int) int { return a + b }
 
@@ -12,7 +14,7 @@ func Mul(a, b int) int { return a * b }
 // Div divides a by b.
 func Div(a, b int) (int, error) {
 	if b == 0 {
-		return 0, nil
+		return 0, errors.New("division by zero")
 	}
 	return a / b, nil
 }
`

const utilBuggy = `package util

import "strings"

` + HostileComment + `
func Trim(s string) string { return strings.TrimRight(s, " ") }

// Upper upper-cases s.
func Upper(s string) string { return strings.ToUpper(s) }
`

const utilFixed = `package util

import "strings"

` + HostileComment + `
func Trim(s string) string { return strings.TrimSpace(s) }

// Upper upper-cases s.
func Upper(s string) string { return strings.ToUpper(s) }
`

// utilDiff turns utilBuggy into utilFixed.
const utilDiff = `--- a/util/util.go
+++ b/util/util.go
@@ -3,6 +3,6 @@
 import "strings"
 
 ` + HostileComment + `
-func Trim(s string) string { return strings.TrimRight(s, " ") }
+func Trim(s string) string { return strings.TrimSpace(s) }
 
 // Upper upper-cases s.
`

const utilTest = `package util

import "testing"

func TestTrim(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"a", "a"},
		{" a", "a"},
		{"a ", "a"},
		{"  a ", "a"},
	} {
		in, want := tt.in, tt.want
		if got := Trim(in); got != want {
			` + trimAssertion + `
		}
	}
}

func TestUpper(t *testing.T) {
	if got := Upper("a"); got != "A" {
		t.Errorf("Upper(a) = %q", got)
	}
}
`

// calcTest is a long test file, so the failing line is well down the page.
func calcTest() string {
	var b strings.Builder
	b.WriteString("package calc\n\nimport \"testing\"\n")
	for _, op := range []struct{ name, fn, sym string }{{"Add", "Add", "+"}, {"Sub", "Sub", "-"}, {"Mul", "Mul", "*"}} {
		fmt.Fprintf(&b, "\nfunc Test%s(t *testing.T) {\n\tfor _, tt := range []struct{ a, b, want int }{\n", op.name)
		for i := 1; i <= 12; i++ {
			fmt.Fprintf(&b, "\t\t{%d, %d, %d %s %d},\n", i, i+1, i, op.sym, i+1)
		}
		fmt.Fprintf(&b, "\t} {\n\t\tif got := %s(tt.a, tt.b); got != tt.want {\n\t\t\tt.Errorf(\"%s(%%d, %%d) = %%d, want %%d\", tt.a, tt.b, got, tt.want)\n\t\t}\n\t}\n}\n", op.fn, op.fn)
	}
	b.WriteString("\nfunc TestDiv(t *testing.T) {\n\tif got, err := Div(6, 3); got != 2 || err != nil {\n\t\tt.Errorf(\"Div(6, 3) = %d, %v\", got, err)\n\t}\n")
	b.WriteString("\tif got, err := Div(1, 0); err == nil {\n\t\t" + divAssertion + "\n\t}\n}\n")
	return b.String()
}

// lineOf is the 1-based line of the first line of text containing marker.
func lineOf(text, marker string) int32 {
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, marker) {
			return int32(i + 1)
		}
	}
	panic("marker not found: " + marker)
}

// tarOf packs files (path → content) as an uncompressed tar, sorted, with
// fixed times: the same files give the same bytes.
func tarOf(files map[string]string) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		hdr := &tar.Header{Name: n, Mode: 0o644, Size: int64(len(files[n])), Typeflag: tar.TypeReg, ModTime: time.Unix(0, 0)}
		if err := tw.WriteHeader(hdr); err != nil {
			panic(err) // writing to memory cannot fail
		}
		if _, err := tw.Write([]byte(files[n])); err != nil {
			panic(err)
		}
	}
	if err := tw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// treeAt is the source tree after round (0: the baseline).
func treeAt(round int) map[string]string {
	files := map[string]string{
		"go.mod":            "module example.com/svc\n\ngo 1.26\n",
		"README.md":         "# svc\n\nA small service.\n",
		"calc/calc.go":      calcBuggy,
		"calc/calc_test.go": calcTest(),
		"util/util.go":      utilBuggy,
		"util/util_test.go": utilTest,
	}
	if round >= 1 {
		files["calc/calc.go"] = calcFixed
	}
	if round >= 2 {
		files["util/util.go"] = utilFixed
	}
	return files
}
