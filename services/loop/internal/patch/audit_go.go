package patch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// goScopes reads a Go file's functions with go/parser: exact bodies
// whatever the formatting, package-level initializers and init functions
// as init-time code. It returns nil when the file does not parse (a
// partial view, a syntax error the compiler will report anyway), and the
// brace scanner takes over.
func goScopes(s *source) *scopes {
	if s.partial {
		return nil
	}
	text := make([]string, len(s.lines))
	for i, l := range s.lines {
		text[i] = l.text
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, s.path, strings.Join(text, "\n"), parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	n := len(s.lines)
	sc := &scopes{fn: make([]int, n), entry: make([]bool, n), initTime: make([]bool, n)}
	whole := entryFile(s)
	for i := range sc.fn {
		sc.fn[i], sc.entry[i], sc.initTime[i] = -1, whole, true
	}
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			markFuncLits(fset, d, sc, n)
			continue
		}
		f := auditFunc{
			name:  fd.Name.Name,
			start: fset.Position(fd.Pos()).Line - 1,
			end:   fset.Position(fd.End()).Line - 1,
		}
		for _, field := range fd.Type.Params.List {
			for _, name := range field.Names {
				f.params = append(f.params, name.Name)
			}
		}
		if fd.Type.Results != nil {
			for _, field := range fd.Type.Results.List {
				for _, name := range field.Names {
					f.locals = append(f.locals, name.Name) // named results are the function's own
				}
			}
		}
		sc.funcs = append(sc.funcs, f)
		k := len(sc.funcs) - 1
		isInit := fd.Recv == nil && fd.Name.Name == "init"
		for i := f.start; i <= f.end && i < n; i++ {
			sc.fn[i], sc.initTime[i] = k, isInit
		}
	}
	return sc
}

// markFuncLits takes the function literals of a package-level
// declaration out of init time (var Usage = func() {…} runs when called),
// except those called right away (var _ = func() int {…}()).
func markFuncLits(fset *token.FileSet, d ast.Decl, sc *scopes, n int) {
	called := map[*ast.FuncLit]bool{}
	ast.Inspect(d, func(node ast.Node) bool {
		if c, ok := node.(*ast.CallExpr); ok {
			if lit, ok := c.Fun.(*ast.FuncLit); ok {
				called[lit] = true
			}
		}
		return true
	})
	ast.Inspect(d, func(node ast.Node) bool {
		lit, ok := node.(*ast.FuncLit)
		if !ok || called[lit] {
			return true
		}
		for i := fset.Position(lit.Body.Lbrace).Line - 1; i < fset.Position(lit.Body.Rbrace).Line && i < n; i++ {
			if i >= 0 {
				sc.initTime[i] = false
			}
		}
		return false
	})
}
