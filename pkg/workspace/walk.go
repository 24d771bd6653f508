package workspace

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// walk adds the entries of a directory outside git: everything except the
// default exclusions, .gitignore'd paths and Exclude patterns.
func (l *lister) walk() error {
	var ign ignoreSet
	if !l.verbatim {
		if err := l.readIgnore(&ign, ".", nil); err != nil {
			return err
		}
	}
	return filepath.WalkDir(l.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("pack: %w", err)
		}
		if err := l.ctx.Err(); err != nil {
			return fmt.Errorf("pack: %w", err)
		}
		rel, err := filepath.Rel(l.dir, p)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		parts := strings.Split(rel, "/")
		if d.IsDir() {
			return l.walkDir(&ign, p, rel, parts)
		}
		if d.Name() == ".git" && !l.verbatim {
			l.stats.skip(rel, "git metadata")
			return nil
		}
		if l.exclude.match(parts, false) || ign.match(parts, false) {
			l.stats.Ignored++
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return fmt.Errorf("pack %q: %w", rel, err)
		}
		return l.addNonDir(rel, info)
	})
}

// walkDir decides whether to descend into a directory, reading its
// .gitignore when it does.
func (l *lister) walkDir(ign *ignoreSet, abs, rel string, parts []string) error {
	if l.verbatim {
		if l.exclude.match(parts, true) {
			l.stats.skip(rel, "excluded by pattern")
			return filepath.SkipDir
		}
		l.entries = append(l.entries, entry{rel: rel, kind: kindDir})
		return nil
	}
	if reason := defaultExcludeReason(filepath.Dir(abs), path.Base(rel), abs); reason != "" {
		l.stats.skip(rel, "excluded: "+reason)
		return filepath.SkipDir
	}
	if l.exclude.match(parts, true) {
		l.stats.skip(rel, "excluded by pattern")
		return filepath.SkipDir
	}
	if ign.match(parts, true) {
		l.stats.skip(rel, "ignored by .gitignore")
		return filepath.SkipDir
	}
	l.entries = append(l.entries, entry{rel: rel, kind: kindDir})
	return l.readIgnore(ign, rel, parts)
}

// readIgnore adds the patterns of rel/.gitignore, scoped to rel.
func (l *lister) readIgnore(ign *ignoreSet, rel string, parts []string) error {
	data, err := l.root.ReadFile(path.Join(rel, ".gitignore"))
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		info, lerr := l.root.Lstat(path.Join(rel, ".gitignore"))
		if lerr == nil && !info.Mode().IsRegular() {
			return nil // a symlinked or odd .gitignore is not honoured
		}
		return fmt.Errorf("pack: reading %s/.gitignore: %w", rel, err)
	}
	ign.add(data, parts)
	return nil
}
