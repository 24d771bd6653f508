package web

import (
	"bytes"
	"html/template"
	"regexp"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// The stop memo is Markdown that quotes repository-controlled text (test
// names, failure messages, log lines), so rendering it is two locks:
//
//  1. goldmark (CommonMark + GFM tables and strikethrough) without
//     html.WithUnsafe: raw HTML blocks and inline HTML are dropped, and
//     links or images to javascript:, vbscript:, file: and data: URLs lose
//     their destination.
//  2. bluemonday with an allow-list of the elements Markdown produces:
//     anything else (script, style, iframe, img, event handlers, style
//     attributes) is removed, links keep only http, https and mailto URLs
//     (and relative ones) and get rel="nofollow noreferrer".
//
// Headings move down two levels so the memo sits under the page's own h2.

// memoHeadingShift is how many levels memo headings move down.
const memoHeadingShift = 2

var (
	markdown = goldmark.New(
		goldmark.WithExtensions(extension.Strikethrough,
			extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute))),
		goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(headingShift{}, 100))),
	)
	memoPolicy = newMemoPolicy()
)

// renderMarkdown renders untrusted Markdown as sanitized HTML.
func renderMarkdown(src string) template.HTML {
	var buf bytes.Buffer
	if err := markdown.Convert([]byte(src), &buf); err != nil {
		// goldmark fails only when the writer does; show the text.
		return template.HTML(template.HTMLEscapeString(src)) //nolint:gosec // escaped just above
	}
	return template.HTML(memoPolicy.SanitizeBytes(buf.Bytes())) //nolint:gosec // sanitized by the allow-list policy
}

func newMemoPolicy() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "strong", "em", "del", "code", "pre",
		"blockquote", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td", "a")
	p.AllowStandardURLs() // http, https, mailto and relative URLs; parseable only
	p.AllowAttrs("href").OnElements("a")
	p.AllowAttrs("start").Matching(regexp.MustCompile(`^[0-9]{1,6}$`)).OnElements("ol")
	p.AllowAttrs("align").Matching(regexp.MustCompile(`^(left|right|center)$`)).OnElements("th", "td")
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	return p
}

// headingShift moves every heading down memoHeadingShift levels.
type headingShift struct{}

func (headingShift) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			h.Level = min(h.Level+memoHeadingShift, 6)
		}
		return ast.WalkContinue, nil
	})
}
