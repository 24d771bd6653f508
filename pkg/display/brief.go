package display

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
)

// BriefMax is how many characters of a command one-line views show.
const BriefMax = 120

// Brief is Command for one-line views: live progress, a report's step
// table, banners, listings. Commands greenlight generates can be scripts
// of a kilobyte or two (the pip install and its fallback); those views
// show the first line, cut at a word before BriefMax characters, with the
// full size after "…". The log page, the manifest and the JSON result keep
// the whole command.
func Brief(s Commanded) string { return BriefText(Command(s)) }

// BriefText is Brief of a command string (evidence carries no
// display_command): greenlight's Python launcher is shown as the `python
// -m TOOL` it stands for, and a long command is cut.
func BriefText(cmd string) string {
	c := strings.TrimSpace(pylaunch.Readable(cmd))
	first, _, multi := strings.Cut(c, "\n")
	if !multi && utf8.RuneCountInString(c) <= BriefMax {
		return c
	}
	cut := first
	if utf8.RuneCountInString(cut) > BriefMax {
		cut = cutRunes(cut, BriefMax)
		if i := strings.LastIndexByte(cut, ' '); i > BriefMax/2 {
			cut = cut[:i]
		}
	}
	cut = strings.TrimRight(cut, " ;&|{(\\")
	if multi {
		return fmt.Sprintf("%s … (%d lines, %d bytes)", cut, strings.Count(c, "\n")+1, len(c))
	}
	return fmt.Sprintf("%s … (%d bytes)", cut, len(c))
}

// cutRunes returns the first n runes of s.
func cutRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}
