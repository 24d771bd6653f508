package cisource

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// gitlabReserved are .gitlab-ci.yml's top-level keys that are not jobs.
var gitlabReserved = map[string]bool{
	"stages": true, "variables": true, "default": true, "include": true, "workflow": true, "image": true,
	"services": true, "before_script": true, "after_script": true, "cache": true,
}

// gitlab learns .gitlab-ci.yml's job scripts (before_script, then script).
func (r *reader) gitlab(file string) {
	root := r.yamlRoot(file)
	if root == nil {
		return
	}
	env := literalEnv(get(root, "variables"))
	before := get(root, "before_script")
	if d := get(get(root, "default"), "before_script"); d != nil {
		before = d
	}
	for _, p := range pairs(root) {
		id, job := p[0].Value, p[1]
		if gitlabReserved[id] || strings.HasPrefix(id, ".") || job.Kind != yaml.MappingNode {
			continue
		}
		job = extended(root, job, 0)
		if get(job, "script") == nil {
			continue
		}
		skip := releaseJob(id, scalar(get(job, "stage")))
		if skip == "" && get(job, "services") != nil {
			skip = "the job needs service containers"
		}
		if skip == "" && scalar(get(job, "when")) == "manual" {
			skip = "the job runs only by hand"
		}
		if skip == "" && (strings.Contains(nodeText(get(job, "only")), "tags") || strings.Contains(nodeText(get(job, "rules")), "CI_COMMIT_TAG")) {
			skip = "the job runs only for tags"
		}
		if skip != "" {
			r.note("%s:%d: job %s not learned from: %s", file, p[0].Line, id, skip)
		}
		jobEnv := merge(env, literalEnv(get(job, "variables")))
		jb := before
		if b := get(job, "before_script"); b != nil {
			jb = b
		}
		r.gitlabScript(file, id, "before_script", jb, jobEnv, skip)
		r.gitlabScript(file, id, "script", get(job, "script"), jobEnv, skip)
	}
}

// gitlabScript learns one script list (nested lists flattened).
func (r *reader) gitlabScript(file, job, key string, n *yaml.Node, env map[string]string, skip string) {
	var walk func(n *yaml.Node)
	i := 0
	walk = func(n *yaml.Node) {
		for _, item := range items(n) {
			if item.Kind == yaml.SequenceNode {
				walk(item)
				continue
			}
			if item.Kind != yaml.ScalarNode {
				continue
			}
			ctx := scriptCtx{file: file, key: fmt.Sprintf("%s.%s[%d]", job, key, i), label: job, line: scriptLine(item),
				dir: ".", env: env, name: job, skip: skip, fromCI: true}
			i++
			r.script(ctx, item.Value)
		}
	}
	walk(n)
}

// extended returns a job with the keys of the jobs its extends: names
// merged in under its own (as GitLab does, a few levels deep).
func extended(root, job *yaml.Node, depth int) *yaml.Node {
	bases := items(get(job, "extends"))
	if len(bases) == 0 || depth > 3 {
		return job
	}
	out := &yaml.Node{Kind: yaml.MappingNode, Line: job.Line}
	have := map[string]bool{}
	addAll := func(n *yaml.Node) {
		for _, p := range pairs(n) {
			if !have[p[0].Value] {
				have[p[0].Value] = true
				out.Content = append(out.Content, p[0], p[1])
			}
		}
	}
	addAll(job)
	for _, b := range bases {
		if base := get(root, b.Value); base != nil {
			addAll(extended(root, base, depth+1))
		}
	}
	return out
}
