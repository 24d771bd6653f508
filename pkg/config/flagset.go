package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/peterbourgon/ff/v3"
)

// ErrInvalid wraps every configuration error: an unknown flag or file key, a
// malformed value, an unreadable config file. Binaries exit with code 2 on it.
var ErrInvalid = errors.New("invalid configuration")

// ErrHelp is returned by Parse when -h or --help was given; the usage text has
// then been written to the FlagSet's output.
var ErrHelp = flag.ErrHelp

// FlagSet binds the fields of a typed configuration struct to flags,
// environment variables and config file keys for one service.
//
// Each binder takes the default from the field's current value, so the typed
// struct (usually built by a DefaultConfig function) is the single source of
// defaults and the same struct can be filled in code by the embedded binary.
type FlagSet struct {
	service string
	fs      *flag.FlagSet
	file    string
}

// NewFlagSet returns an empty FlagSet for the named service ("loop",
// "gateway", ...). The service name selects the environment prefix
// GREENLIGHT_<SERVICE>_. The --config flag is registered already.
func NewFlagSet(service string) *FlagSet {
	f := &FlagSet{service: service, fs: flag.NewFlagSet("greenlight-"+service, flag.ContinueOnError)}
	f.fs.StringVar(&f.file, ConfigFlag, "", "optional YAML config `file`; keys are flag names (env "+f.EnvVar(ConfigFlag)+")")
	return f
}

// Service returns the service name given to NewFlagSet.
func (f *FlagSet) Service() string { return f.service }

// EnvVar returns the environment variable that sets the flag name,
// e.g. EnvVar("addr") == "GREENLIGHT_LOOP_ADDR" for the loop service.
func (f *FlagSet) EnvVar(name string) string {
	return envPrefix(f.service) + "_" + strings.ToUpper(envReplacer.Replace(name))
}

// ConfigFile returns the config file path in effect after Parse ("" if none).
func (f *FlagSet) ConfigFile() string { return f.file }

// Std returns the underlying standard library FlagSet, for callers that need
// flag.Value types this package does not offer.
func (f *FlagSet) Std() *flag.FlagSet { return f.fs }

// String binds a string field.
func (f *FlagSet) String(p *string, name, usage string) {
	f.fs.StringVar(p, name, *p, f.usageWithEnv(name, usage))
}

// Int binds an int field.
func (f *FlagSet) Int(p *int, name, usage string) {
	f.fs.IntVar(p, name, *p, f.usageWithEnv(name, usage))
}

// Int64 binds an int64 field.
func (f *FlagSet) Int64(p *int64, name, usage string) {
	f.fs.Int64Var(p, name, *p, f.usageWithEnv(name, usage))
}

// Bool binds a bool field ("true", "false", "1", "0", ...).
func (f *FlagSet) Bool(p *bool, name, usage string) {
	f.fs.BoolVar(p, name, *p, f.usageWithEnv(name, usage))
}

// Duration binds a time.Duration field in Go syntax ("1500ms", "10s", "2m").
// Negative durations are rejected.
func (f *FlagSet) Duration(p *time.Duration, name, usage string) {
	f.fs.Var((*durationValue)(p), name, f.usageWithEnv(name, usage))
}

// Bytes binds a byte-count field: a plain integer or one with a unit suffix
// (B, KB, MB, GB, KiB, MiB, GiB; case-insensitive), e.g. "16MiB". Negative
// sizes are rejected.
func (f *FlagSet) Bytes(p *int, name, usage string) {
	f.fs.Var((*bytesValue)(p), name, f.usageWithEnv(name, usage))
}

// Strings binds a list field. A value is a comma-separated list; a YAML list
// also works in the config file. The first value from any source replaces the
// default instead of appending to it.
func (f *FlagSet) Strings(p *[]string, name, usage string) {
	f.fs.Var(&stringsValue{p: p}, name, f.usageWithEnv(name, usage))
}

// Enum binds a string field that must be one of allowed.
func (f *FlagSet) Enum(p *string, name string, allowed []string, usage string) {
	usage = fmt.Sprintf("%s (one of %s)", usage, strings.Join(allowed, ", "))
	f.fs.Var(&enumValue{p: p, allowed: allowed}, name, f.usageWithEnv(name, usage))
}

// Addr binds a listen or dial address field that must have the form
// host:port (host may be empty, port may be 0 to pick a free one).
func (f *FlagSet) Addr(p *string, name, usage string) {
	f.fs.Var((*addrValue)(p), name, f.usageWithEnv(name, usage))
}

// Addrs binds a comma-separated list of host:port addresses.
func (f *FlagSet) Addrs(p *string, name, usage string) {
	f.fs.Var((*addrListValue)(p), name, f.usageWithEnv(name, usage))
}

// Var binds any flag.Value.
func (f *FlagSet) Var(v flag.Value, name, usage string) {
	f.fs.Var(v, name, f.usageWithEnv(name, usage))
}

// Parse applies, in increasing precedence, the config file, the environment
// and args (os.Args[1:] in a main). Errors wrap ErrInvalid and name the flag,
// environment variable or file key at fault; -h/--help returns ErrHelp after
// writing the usage to usage (nil: discard).
func (f *FlagSet) Parse(args []string, usage io.Writer) error {
	if usage == nil {
		usage = io.Discard
	}
	// The standard package prints errors itself; we return them instead and
	// print only the usage text on an explicit -h.
	f.fs.SetOutput(io.Discard)
	err := ff.Parse(f.fs, args,
		ff.WithEnvVarPrefix(envPrefix(f.service)),
		ff.WithConfigFileFlag(ConfigFlag),
		ff.WithConfigFileParser(parseYAML),
	)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		f.PrintUsage(usage)
		return ErrHelp
	default:
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
}

// PrintUsage writes the flag list with defaults and environment variables.
func (f *FlagSet) PrintUsage(w io.Writer) {
	fmt.Fprintf(w, "Usage of %s:\n", f.fs.Name())
	f.fs.SetOutput(w)
	f.fs.PrintDefaults()
	f.fs.SetOutput(io.Discard)
}

func (f *FlagSet) usageWithEnv(name, usage string) string {
	return usage + " (env " + f.EnvVar(name) + ")"
}

// envReplacer mirrors ff's flag-name to environment-variable mapping.
var envReplacer = strings.NewReplacer("-", "_", ".", "_", "/", "_")

func envPrefix(service string) string {
	return EnvPrefix + "_" + strings.ToUpper(envReplacer.Replace(service))
}
