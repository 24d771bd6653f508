package zzorig

import (
	"bytes"
	"regexp"
	"strconv"
)

// reGeneric is the plain closing line any runner may print:
// `N passed, N failed` alone on a line, optionally `, N skipped` after it and
// one word with a colon before it.
var reGeneric = regexp.MustCompile(`^(?:\w+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\.?$`)

// genericParser reads the generic summary line.
type genericParser struct{ set *testSet }

func (p *genericParser) feed(ln line) {
	t := ln.text
	if len(t) < 17 || len(t) > 80 || !bytes.Contains(t, []byte(" passed, ")) {
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
