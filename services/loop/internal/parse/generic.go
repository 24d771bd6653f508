package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"
)

// reGeneric is the plain closing line any runner may print:
// `N passed, N failed` alone on a line, optionally `, N skipped` after it and
// one word with a colon before it.
var reGeneric = lazyregexp.New(`^(?:\w+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\.?$`)

// isWordByte is regexp's \w: [0-9A-Za-z_].
func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// genericParser reads the generic summary line.
type genericParser struct{ set *testSet }

func (p *genericParser) feed(ln line) {
	t := ln.text
	// The line starts with a word character and ends in "failed" or
	// "skipped", maybe with a period: cheap tests before the scan.
	if len(t) < 17 || len(t) > 80 || !isWordByte(t[0]) || t[len(t)-1] != 'd' && t[len(t)-1] != '.' ||
		!bytes.Contains(t, []byte(" passed, ")) {
		return
	}
	m := reGeneric.FindSubmatch(t)
	if m == nil {
		return
	}
	n := func(i int) int { v, _ := strconv.Atoi(string(m[i])); return v }
	c := Counts{Passed: n(1), Failed: n(2)}
	if len(m[3]) > 0 {
		c.Skipped = n(3)
	}
	p.set.summary = &c
	p.set.seen = true
}
