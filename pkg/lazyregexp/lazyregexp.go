// Package lazyregexp holds regular expressions compiled on first use
// instead of at package initialisation, like the go command's own
// internal/lazyregexp. Packages with large tables of patterns (the loop's
// output parsers and patch audit) are linked into every greenlight binary,
// and compiling all of them at start cost a one-shot `greenlight verify`
// ~20-35 ms before it did anything; most runs use a handful.
package lazyregexp

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled the first time it is used. Its
// methods are *regexp.Regexp's; Regexp gives the compiled value itself.
type Regexp struct {
	src  string
	once sync.Once
	rx   *regexp.Regexp
}

// all holds every Regexp made by New, so a test can compile them all (a
// bad pattern must fail a test, not the first run that uses it).
var (
	allMu sync.Mutex
	all   []*Regexp
)

// New returns a Regexp for src, compiled (with regexp.MustCompile, which
// panics on a bad pattern) on first use.
func New(src string) *Regexp {
	r := &Regexp{src: src}
	allMu.Lock()
	all = append(all, r)
	allMu.Unlock()
	return r
}

// CompileAll compiles every Regexp made so far and returns the first bad
// pattern's error; the packages that use New call it from a test.
func CompileAll() error {
	allMu.Lock()
	list := append([]*Regexp(nil), all...)
	allMu.Unlock()
	for _, r := range list {
		if _, err := regexp.Compile(r.src); err != nil {
			return err
		}
	}
	return nil
}

// Regexp returns the compiled expression.
func (r *Regexp) Regexp() *regexp.Regexp {
	r.once.Do(func() { r.rx = regexp.MustCompile(r.src) })
	return r.rx
}

// String returns the source text.
func (r *Regexp) String() string { return r.src }

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.Regexp().MatchString(s) }

// Match is regexp.Regexp.Match.
func (r *Regexp) Match(b []byte) bool { return r.Regexp().Match(b) }

// FindString is regexp.Regexp.FindString.
func (r *Regexp) FindString(s string) string { return r.Regexp().FindString(s) }

// FindStringIndex is regexp.Regexp.FindStringIndex.
func (r *Regexp) FindStringIndex(s string) []int { return r.Regexp().FindStringIndex(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.Regexp().FindStringSubmatch(s) }

// FindStringSubmatchIndex is regexp.Regexp.FindStringSubmatchIndex.
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Regexp().FindStringSubmatchIndex(s)
}

// FindAllString is regexp.Regexp.FindAllString.
func (r *Regexp) FindAllString(s string, n int) []string { return r.Regexp().FindAllString(s, n) }

// FindAllStringIndex is regexp.Regexp.FindAllStringIndex.
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringIndex(s, n)
}

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Regexp().FindAllStringSubmatch(s, n)
}

// FindAllStringSubmatchIndex is regexp.Regexp.FindAllStringSubmatchIndex.
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringSubmatchIndex(s, n)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Regexp().ReplaceAllString(src, repl)
}

// ReplaceAllLiteralString is regexp.Regexp.ReplaceAllLiteralString.
func (r *Regexp) ReplaceAllLiteralString(src, repl string) string {
	return r.Regexp().ReplaceAllLiteralString(src, repl)
}

// ReplaceAllStringFunc is regexp.Regexp.ReplaceAllStringFunc.
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Regexp().ReplaceAllStringFunc(src, repl)
}

// Split is regexp.Regexp.Split.
func (r *Regexp) Split(s string, n int) []string { return r.Regexp().Split(s, n) }

// SubexpIndex is regexp.Regexp.SubexpIndex.
func (r *Regexp) SubexpIndex(name string) int { return r.Regexp().SubexpIndex(name) }

// SubexpNames is regexp.Regexp.SubexpNames.
func (r *Regexp) SubexpNames() []string { return r.Regexp().SubexpNames() }

// Find is regexp.Regexp.Find.
func (r *Regexp) Find(b []byte) []byte { return r.Regexp().Find(b) }

// FindIndex is regexp.Regexp.FindIndex.
func (r *Regexp) FindIndex(b []byte) []int { return r.Regexp().FindIndex(b) }

// FindSubmatch is regexp.Regexp.FindSubmatch.
func (r *Regexp) FindSubmatch(b []byte) [][]byte { return r.Regexp().FindSubmatch(b) }

// FindSubmatchIndex is regexp.Regexp.FindSubmatchIndex.
func (r *Regexp) FindSubmatchIndex(b []byte) []int { return r.Regexp().FindSubmatchIndex(b) }

// FindAll is regexp.Regexp.FindAll.
func (r *Regexp) FindAll(b []byte, n int) [][]byte { return r.Regexp().FindAll(b, n) }

// FindAllIndex is regexp.Regexp.FindAllIndex.
func (r *Regexp) FindAllIndex(b []byte, n int) [][]int { return r.Regexp().FindAllIndex(b, n) }

// FindAllSubmatch is regexp.Regexp.FindAllSubmatch.
func (r *Regexp) FindAllSubmatch(b []byte, n int) [][][]byte {
	return r.Regexp().FindAllSubmatch(b, n)
}

// FindAllSubmatchIndex is regexp.Regexp.FindAllSubmatchIndex.
func (r *Regexp) FindAllSubmatchIndex(b []byte, n int) [][]int {
	return r.Regexp().FindAllSubmatchIndex(b, n)
}

// ReplaceAll is regexp.Regexp.ReplaceAll.
func (r *Regexp) ReplaceAll(src, repl []byte) []byte { return r.Regexp().ReplaceAll(src, repl) }

// ReplaceAllLiteral is regexp.Regexp.ReplaceAllLiteral.
func (r *Regexp) ReplaceAllLiteral(src, repl []byte) []byte {
	return r.Regexp().ReplaceAllLiteral(src, repl)
}

// ReplaceAllFunc is regexp.Regexp.ReplaceAllFunc.
func (r *Regexp) ReplaceAllFunc(src []byte, repl func([]byte) []byte) []byte {
	return r.Regexp().ReplaceAllFunc(src, repl)
}
