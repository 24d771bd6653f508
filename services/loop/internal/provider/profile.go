package provider

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// Profile is a COMMAND or OPENAI provider configured by the loop's
// operator. A request selects it by name (ProviderConfig.profile) and can
// never set what runs on the host or where keys go: the command line, the
// base URL and the key variable exist only here.
type Profile struct {
	// Name is what requests select; letters, digits, '.', '_' and '-'.
	Name string
	// Kind is PROVIDER_KIND_COMMAND or PROVIDER_KIND_OPENAI.
	Kind glv1.ProviderKind
	// Command is the COMMAND profile's program, run with /bin/sh -c.
	Command string
	// BaseURL is the OPENAI profile's endpoint; empty means
	// DefaultOpenAIBaseURL.
	BaseURL string
	// Model is the OPENAI profile's model.
	Model string
	// KeyEnv names the variable of the loop's environment that holds the
	// OPENAI profile's API key; it must be set when the loop starts. Empty
	// means GREENLIGHT_OPENAI_API_KEY, then OPENAI_API_KEY, else no key.
	KeyEnv string
	// AllowModel lets a request choose another model than Model.
	AllowModel bool
	// Timeout bounds one proposal; zero means the kind's default. A
	// request may ask for less, never more.
	Timeout time.Duration
	// CostPer1KTokens prices the OPENAI profile's tokens; when zero the
	// request's price applies.
	CostPer1KTokens float64
}

// profileName is what a profile name may look like.
var profileName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// ProfileSyntax documents ParseProfile's format for flag help and errors.
const ProfileSyntax = "name=NAME,kind=command,[timeout=5m,]command=CMD (command last: it takes the rest) or " +
	"name=NAME,kind=openai,model=M[,base-url=URL][,key-env=VAR][,allow-model=true][,timeout=2m][,cost-per-1k=0.002]"

// ParseProfile reads one profile from comma-separated key=value fields:
// name, kind (command or openai), command, base-url, model, key-env,
// allow-model, timeout, cost-per-1k. The command field comes last and
// takes the rest of the text verbatim, commas included.
func ParseProfile(spec string) (Profile, error) {
	var p Profile
	rest := strings.TrimSpace(spec)
	for rest != "" {
		field := rest
		if !strings.HasPrefix(rest, "command=") {
			field, rest, _ = strings.Cut(rest, ",")
		} else {
			rest = ""
		}
		key, value, ok := strings.Cut(strings.TrimSpace(field), "=")
		if !ok {
			return Profile{}, fmt.Errorf("provider profile %q: field %q is not key=value; want %s", spec, field, ProfileSyntax)
		}
		if err := p.set(key, value); err != nil {
			return Profile{}, fmt.Errorf("provider profile %q: %w", spec, err)
		}
		rest = strings.TrimSpace(rest)
	}
	if err := p.Validate(); err != nil {
		return Profile{}, err
	}
	return p, nil
}

// set applies one field.
func (p *Profile) set(key, value string) error {
	var err error
	switch key {
	case "name":
		p.Name = value
	case "kind":
		switch strings.ToLower(value) {
		case "command":
			p.Kind = glv1.ProviderKind_PROVIDER_KIND_COMMAND
		case "openai":
			p.Kind = glv1.ProviderKind_PROVIDER_KIND_OPENAI
		default:
			return fmt.Errorf("kind %q: a profile is command or openai (client and replay need no profile)", value)
		}
	case "command":
		p.Command = value
	case "base-url":
		p.BaseURL = value
	case "model":
		p.Model = value
	case "key-env":
		p.KeyEnv = value
	case "allow-model":
		p.AllowModel, err = strconv.ParseBool(value)
	case "timeout":
		p.Timeout, err = time.ParseDuration(value)
	case "cost-per-1k":
		p.CostPer1KTokens, err = strconv.ParseFloat(value, 64)
	default:
		return fmt.Errorf("unknown field %q; want %s", key, ProfileSyntax)
	}
	if err != nil {
		return fmt.Errorf("%s=%q: %w", key, value, err)
	}
	return nil
}

// Validate checks the profile on its own (not the environment).
func (p Profile) Validate() error {
	where := fmt.Sprintf("provider profile %q", p.Name)
	switch {
	case !profileName.MatchString(p.Name):
		return fmt.Errorf("%w: %s: the name must be 1-64 letters, digits, '.', '_' or '-'", ErrConfig, where)
	case p.Timeout < 0 || p.CostPer1KTokens < 0:
		return fmt.Errorf("%w: %s: timeout and cost-per-1k must not be negative", ErrConfig, where)
	}
	switch p.Kind {
	case glv1.ProviderKind_PROVIDER_KIND_COMMAND:
		if strings.TrimSpace(p.Command) == "" {
			return fmt.Errorf("%w: %s: a command profile needs command=CMD", ErrConfig, where)
		}
		if p.BaseURL != "" || p.Model != "" || p.KeyEnv != "" || p.AllowModel || p.CostPer1KTokens != 0 {
			return fmt.Errorf("%w: %s: base-url, model, key-env, allow-model and cost-per-1k belong to openai profiles", ErrConfig, where)
		}
	case glv1.ProviderKind_PROVIDER_KIND_OPENAI:
		if p.Command != "" {
			return fmt.Errorf("%w: %s: command belongs to command profiles", ErrConfig, where)
		}
		if p.Model == "" {
			return fmt.Errorf("%w: %s: an openai profile needs model=NAME", ErrConfig, where)
		}
		if p.BaseURL != "" && !strings.HasPrefix(p.BaseURL, "http://") && !strings.HasPrefix(p.BaseURL, "https://") {
			return fmt.Errorf("%w: %s: base-url must start with http:// or https://", ErrConfig, where)
		}
	default:
		return fmt.Errorf("%w: %s: kind must be command or openai", ErrConfig, where)
	}
	return nil
}

// String is a summary safe to log or show: name and kind, no command, URL
// or key variable.
func (p Profile) String() string { return p.Name + " (" + kindName(p.Kind) + ")" }

// kindName is the lower-case name of a provider kind.
func kindName(k glv1.ProviderKind) string {
	return strings.ToLower(display.Enum(k))
}
