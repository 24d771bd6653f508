package cisource

import (
	"fmt"
	"path"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// versionKeys are matrix keys and setup-action inputs naming the runtime
// versions CI tests with.
var versionKeys = withPackVersionKeys(map[string]string{
	"go": "go", "go-version": "go", "golang": "go", "python": "python", "python-version": "python",
	"node": "node", "node-version": "node", "nodejs": "node",
	"java": "java", "java-version": "java", "jdk": "java",
})

// withPackVersionKeys adds the toolchain packs' version keys.
func withPackVersionKeys(keys map[string]string) map[string]string {
	for _, p := range packs.Registry.All() {
		s := p.Spec()
		for _, k := range s.Words.VersionKeys {
			keys[k] = s.Name
		}
	}
	return keys
}

// runDefaults are a workflow's or job's defaults.run.
type runDefaults struct{ dir, shell string }

// workflow learns a GitHub Actions workflow's run: steps.
func (r *reader) workflow(file string) {
	root := r.yamlRoot(file)
	if root == nil {
		return
	}
	env := literalEnv(get(root, "env"))
	defs := defaults(get(root, "defaults"), runDefaults{dir: "."})
	var uses []string
	jobs := get(root, "jobs")
	for _, p := range pairs(jobs) {
		id, job := p[0].Value, p[1]
		if job.Kind != yaml.MappingNode {
			continue
		}
		for _, u := range r.job(file, id, job, merge(env, literalEnv(get(job, "env"))), defaults(get(job, "defaults"), defs)) {
			if !contains(uses, u) {
				uses = append(uses, u)
			}
		}
	}
	for _, n := range actionNotes(file, uses) {
		r.note("%s", n)
	}
}

// job learns one job's steps and returns the actions it uses.
func (r *reader) job(file, id string, job *yaml.Node, env map[string]string, defs runDefaults) []string {
	if u := scalar(get(job, "uses")); u != "" { // a reusable workflow
		action, _, _ := strings.Cut(u, "@")
		return []string{action}
	}
	skip := jobSkip(id, job)
	if skip != "" {
		r.note("%s:%d: job %s not learned from: %s", file, job.Line, id, skip)
	}
	matrix := matrixValues(get(get(job, "strategy"), "matrix"))
	r.versionNotes(file, id, matrix, get(get(job, "strategy"), "matrix"))
	var uses []string
	for i, step := range items(get(job, "steps")) {
		if u := scalar(get(step, "uses")); u != "" {
			action, _, _ := strings.Cut(u, "@")
			if !contains(uses, action) {
				uses = append(uses, action)
			}
			continue
		}
		run := get(step, "run")
		if run == nil || run.Kind != yaml.ScalarNode {
			continue
		}
		stepName := scalar(get(step, "name"))
		ctx := scriptCtx{file: file, key: fmt.Sprintf("jobs.%s.steps[%d].run", id, i), line: scriptLine(run),
			label: id + "/" + firstNonEmpty(stepName, fmt.Sprintf("steps[%d]", i)),
			name:  stepName, matrix: matrix, fromCI: true, env: merge(env, literalEnv(get(step, "env")))}
		ctx.dir, ctx.skip = r.stepDir(step, defs, skip)
		if ctx.skip == "" {
			ctx.skip = stepSkip(step, defs, matrix)
		}
		if ctx.skip != "" && skip == "" {
			r.note("%s:%d: step %s not learned from: %s", file, run.Line, ctx.label, ctx.skip)
		}
		r.script(ctx, run.Value)
	}
	return uses
}

// jobSkip says why a whole job is not learned from: it ships (deploy,
// release, publish), needs service containers, runs on Windows or macOS
// only, or only for tags.
func jobSkip(id string, job *yaml.Node) string {
	if why := releaseJob(id, scalar(get(job, "name"))); why != "" {
		return why
	}
	if s := get(job, "services"); s != nil {
		return "the job needs service containers (" + strings.Join(keys(s), ", ") + ")"
	}
	if ro := strings.ToLower(scalar(get(job, "runs-on"))); strings.Contains(ro, "windows") || strings.Contains(ro, "macos") {
		return "the job runs on " + ro
	}
	if tagOnly.MatchString(scalar(get(job, "if"))) {
		return "the job runs only for tags or releases"
	}
	return ""
}

// stepSkip says why one run: step is not learned from: another shell,
// a tag-only condition, secrets in its environment.
func stepSkip(step *yaml.Node, defs runDefaults, matrix map[string][]string) string {
	if sh := firstNonEmpty(scalar(get(step, "shell")), defs.shell); !posixShell(sh, matrix) {
		return "runs in " + sh + ", not a POSIX shell"
	}
	if tagOnly.MatchString(scalar(get(step, "if"))) {
		return "runs only for tags or releases"
	}
	if secretRef.MatchString(nodeText(get(step, "env"))) {
		return "needs repository secrets"
	}
	return ""
}

// stepDir resolves a step's working-directory (over the defaults).
func (r *reader) stepDir(step *yaml.Node, defs runDefaults, skip string) (string, string) {
	wd := firstNonEmpty(scalar(get(step, "working-directory")), defs.dir)
	if strings.Contains(wd, "${{") {
		return ".", firstNonEmpty(skip, "its working-directory is a GitHub expression")
	}
	wd = path.Clean(strings.TrimPrefix(wd, "./"))
	if strings.HasPrefix(wd, "/") || wd == ".." || strings.HasPrefix(wd, "../") {
		return ".", firstNonEmpty(skip, "its working-directory "+wd+" is outside the workspace")
	}
	return wd, skip
}

// defaults reads defaults.run over inherited defaults.
func defaults(n *yaml.Node, in runDefaults) runDefaults {
	run := get(n, "run")
	if d := scalar(get(run, "working-directory")); d != "" {
		in.dir = d
	}
	if s := scalar(get(run, "shell")); s != "" {
		in.shell = s
	}
	return in
}

// matrixValues collects each matrix key's values: its list, plus the
// values include entries add. A value that is a mapping contributes its
// scalar fields as "key.field" (matrix.platform.shell).
func matrixValues(m *yaml.Node) map[string][]string {
	out := map[string][]string{}
	var add func(k string, v *yaml.Node)
	add = func(k string, v *yaml.Node) {
		switch {
		case v.Kind == yaml.MappingNode:
			for _, f := range pairs(v) {
				add(k+"."+f[0].Value, f[1])
			}
		case v.Kind == yaml.ScalarNode && !strings.Contains(v.Value, "${{") && !contains(out[k], v.Value):
			out[k] = append(out[k], v.Value)
		}
	}
	for _, p := range pairs(m) {
		k, v := p[0].Value, p[1]
		switch k {
		case "exclude":
		case "include":
			for _, entry := range items(v) {
				for _, e := range pairs(entry) {
					add(e[0].Value, e[1])
				}
			}
		default:
			for _, item := range items(v) {
				add(k, item)
			}
		}
	}
	return out
}

// posixShell reports whether a step's shell is sh or bash; a shell taken
// from the matrix is POSIX when any of its values is.
func posixShell(sh string, matrix map[string][]string) bool {
	for _, v := range expandMatrix(sh, matrix) {
		if v == "" || strings.HasPrefix(v, "bash") || strings.HasPrefix(v, "sh") {
			return true
		}
	}
	return false
}

// versionNotes says which runtime versions the CI matrix tests.
func (r *reader) versionNotes(file, job string, matrix map[string][]string, m *yaml.Node) {
	for _, k := range sortedKeys(matrix) {
		if tool, ok := versionKeys[k]; ok && m != nil {
			r.note("%s:%d: job %s tests %s %s", file, m.Line, job, tool, strings.Join(matrix[k], ", "))
			r.out.Versions = append(r.out.Versions, Version{Tool: tool, Values: matrix[k], Source: fmt.Sprintf("%s:%d", file, m.Line)})
		}
	}
}

// scriptLine is the line of a run value's first line: the line after a
// block scalar's | or > indicator, else the scalar's own line.
func scriptLine(n *yaml.Node) int {
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return n.Line + 1
	}
	return n.Line
}

// literalEnv keeps the env entries whose values are plain literals.
func literalEnv(n *yaml.Node) map[string]string {
	var out map[string]string
	for _, p := range pairs(n) {
		if p[1].Kind != yaml.ScalarNode || strings.Contains(p[1].Value, "${{") {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[p[0].Value] = p[1].Value
	}
	return out
}

func merge(a, b map[string]string) map[string]string {
	if len(b) == 0 {
		return a
	}
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
