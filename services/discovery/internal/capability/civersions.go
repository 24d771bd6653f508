package capability

import (
	"slices"
	"strings"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/cisource"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
)

// ciVersions adds the Node versions the maintainers' CI matrices test, all
// jobs together, to every Node subproject's version hints as one range
// ("20 || 22 || 24"): when CI never tests the image's default Node (18),
// the steps run on the newer Node the image carries, as they do for an
// engines range that starts at 20 (a package that still allows 18 but
// whose unlocked dev dependencies no longer run on it passes on every Node
// its CI uses). One job testing 18 keeps 18.
func ciVersions(det *detect.Result, ci cisource.Learned) {
	var values, sources []string
	for _, v := range ci.Versions {
		if v.Tool != "node" {
			continue
		}
		for _, x := range v.Values {
			if !slices.Contains(values, x) {
				values = append(values, x)
			}
		}
		sources = append(sources, v.Source)
	}
	if len(values) == 0 {
		return
	}
	hint := detect.VersionHint{Tool: "node", Version: strings.Join(values, " || "), Source: strings.Join(sources, ", ") + " (CI matrix)"}
	for i := range det.Subprojects {
		if rt := det.Subprojects[i].Runtime; rt == detect.RuntimeNode || rt == detect.RuntimeTypeScript {
			det.Subprojects[i].Versions = append(det.Subprojects[i].Versions, hint)
		}
	}
}
