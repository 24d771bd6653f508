package plan

import (
	"fmt"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

// byNeed returns the runtime whose image a step must run in when the
// image of its own runtime lacks a program it calls (s.Needs) and one other
// offline image has them all, with a note saying so; "" to keep it. Only
// offline images are compared, whose tools are known: a configured image
// is the operator's or the repository's choice.
func byNeed(s command.Command, runtime string, table capability.Images) (string, string) {
	if len(s.Needs) == 0 || !offline(table, runtime) {
		return "", ""
	}
	var missing []string
	for _, p := range s.Needs {
		if !image.Provides(runtime, p) {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return "", ""
	}
	rt, ok := image.RuntimeFor(s.Needs, runtime)
	if !ok || !offline(table, rt) {
		return "", ""
	}
	return rt, fmt.Sprintf("step %q calls %s, which the %s image lacks: it runs in the %s image",
		s.Name, strings.Join(missing, ", "), image.Canonical(runtime), rt)
}

// offline reports whether the table resolves runtime to its offline image.
func offline(table capability.Images, runtime string) bool {
	img, _ := table.Resolve(runtime)
	return img != "" && img == image.Defaults()[image.Canonical(runtime)]
}
