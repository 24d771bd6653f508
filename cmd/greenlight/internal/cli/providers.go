package cli

import (
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/clientprovider"
	"github.com/greenlight-dev/greenlight/services/loop/loopsvc"
)

// cliProfile names the provider profile an embedded fix configures from its
// own --provider command|openai flags.
const cliProfile = "cli"

// routedProvider says where a fix's patch provider runs.
type routedProvider struct {
	// request is the provider configuration sent in FixStart.
	request *glv1.ProviderConfig
	// profiles are configured on the embedded loop (none when remote).
	profiles []loopsvc.ProviderProfile
	// answer answers PatchRequested events from this process (nil when
	// the loop's own provider answers).
	answer patchSource
}

// routeProvider decides where the provider the flags describe runs. A loop
// runs COMMAND and OPENAI providers only as profiles its operator
// configured (selected with --profile). Without --profile: embedded, this
// process is the loop, so the flags become its profile "cli"; remote
// (--addr), the command or model runs here, on the CLI's machine with the
// CLI's environment, and answers the loop's patch requests as a CLIENT
// provider.
func (a *app) routeProvider(f *fixFlags, prov *glv1.ProviderConfig) (routedProvider, error) {
	switch {
	case !clientprovider.Local(prov.GetKind()) || prov.GetProfile() != "":
		answer, err := a.patchSource(f, prov)
		return routedProvider{request: prov, answer: answer}, err
	case a.addr == "":
		p := loopsvc.ProviderProfile{
			Name: cliProfile, Kind: prov.GetKind(), Command: prov.GetCommand(), BaseURL: prov.GetBaseUrl(), Model: prov.GetModel(),
			KeyEnv: prov.GetApiKeyEnv(), Timeout: prov.GetTimeout().AsDuration(), CostPer1KTokens: prov.GetCostPer_1KTokens(),
		}
		if err := p.Validate(); err != nil {
			return routedProvider{}, usagef("--provider %s: %v", f.provider, err)
		}
		return routedProvider{request: &glv1.ProviderConfig{Kind: prov.GetKind(), Profile: cliProfile},
			profiles: []loopsvc.ProviderProfile{p}}, nil
	}
	answer, err := clientprovider.New(prov, clientprovider.Options{Getenv: a.env.Getenv})
	if err != nil {
		return routedProvider{}, usagef("--provider %s: %v", f.provider, err)
	}
	return routedProvider{request: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_CLIENT},
		answer: patchSource(answer)}, nil
}
