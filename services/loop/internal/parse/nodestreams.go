package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"path"
	"strings"
)

// reStreamPrefix matches the prefix a workspace runner puts on each line
// of a member's output: pnpm -r ("packages/a test: "), turbo
// ("@ws/a:test: ") and yarn workspaces foreach ("[@ws/a]: ").
var reStreamPrefix = lazyregexp.New(`^(?:\[([^\]\s]+)\]|([^\s\[\]]+) ([\w:.-]+)|([^\s:\[\]]+):([\w.-]+)): `)

// maxStreams bounds the member streams one log is split into.
const maxStreams = 256

// stream is one workspace member's share of an interleaved log.
type stream struct {
	name string
	p    *nodeTestParser
}

// memberLine routes a prefixed line to its member's own parser, so that
// the TAP of parallel members (interleaved line by line) nests and counts
// as each member printed it. A prefix becomes a stream when its first TAP
// line arrives; it reports whether the line was taken.
func (p *nodeTestParser) memberLine(ln line) bool {
	t := ln.text
	i := bytes.Index(t[:min(len(t), 256)], []byte(": "))
	if i <= 0 {
		return false
	}
	rest := line{text: t[i+2:], off: ln.off + int64(i) + 2, cut: ln.cut}
	if s := p.streams[string(t[:i])]; s != nil {
		s.p.feed(rest)
		return true
	}
	if len(p.streams) >= maxStreams || !startsTAP(rest.text) {
		return false
	}
	m := reStreamPrefix.FindSubmatchIndex(t)
	if m == nil || m[1] != i+2 {
		return false
	}
	s := &stream{name: memberName(t, m), p: newNodeTestParser(p.lim, p.memberPaths(t, m))}
	if p.streams == nil {
		p.streams = map[string]*stream{}
	}
	p.streams[string(t[:i])] = s
	p.streamOrder = append(p.streamOrder, string(t[:i]))
	s.p.feed(rest)
	return true
}

// startsTAP says whether a member's line opens its TAP output.
func startsTAP(t []byte) bool {
	s := string(t)
	return s == "TAP version 13" || s == "TAP version 14" || strings.HasPrefix(strings.TrimLeft(s, " "), "# Subtest: ")
}

// memberName is the member a prefix names: pnpm's directory, turbo's or
// yarn's package name.
func memberName(t []byte, m []int) string {
	for _, g := range []int{2, 4, 8} {
		if m[g] >= 0 {
			return string(t[m[g]:m[g+1]])
		}
	}
	return ""
}

// memberPaths resolves paths of a pnpm member (prefixed by its directory,
// relative to the step's workdir) from that directory; other prefixes name
// packages, not directories.
func (p *nodeTestParser) memberPaths(t []byte, m []int) *Paths {
	if m[4] < 0 {
		return p.paths
	}
	dir := path.Clean(string(t[m[4]:m[5]]))
	if path.IsAbs(dir) || dir == ".." || strings.HasPrefix(dir, "../") {
		return p.paths
	}
	return NewPaths(p.paths.Root, path.Join(p.paths.Workdir, dir), p.paths.Files)
}

// finishStreams adds each member's tests to the log's, named with the
// member first ("packages/a > test/x.js > adds").
func (p *nodeTestParser) finishStreams() {
	for _, name := range p.streamOrder {
		s := p.streams[name]
		s.p.finish()
		if !s.p.set.seen {
			continue
		}
		if p.format == "" || p.format == FormatNodeSpec {
			p.format = s.p.format
		}
		c := s.p.set.final()
		p.set.seen = true
		p.set.counts = p.set.counts.Add(c)
		if p.set.summary != nil {
			*p.set.summary = p.set.summary.Add(c)
		}
		p.set.omitted += s.p.set.omitted
		if p.set.cutShort == "" && s.p.set.cutShort != "" {
			p.set.cutShort = s.name + ": " + s.p.set.cutShort
		}
		for _, o := range s.p.set.inv {
			p.set.note(s.name+" > "+o.ID, o.Status)
		}
		p.set.invCut += s.p.set.invCut
		for _, t := range s.p.set.records() {
			t.ID = s.name + " > " + t.ID
			t.Suite = strings.TrimSuffix(s.name+" > "+t.Suite, " > ")
			p.set.keep(t)
		}
	}
}
