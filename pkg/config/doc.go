// Package config loads a service's typed configuration from four layers, each
// overriding the one before it:
//
//	defaults (the typed struct's values) < YAML file (--config) < GREENLIGHT_<SERVICE>_* environment < flags
//
// A service builds its Config struct with defaults, binds each field to a flag
// with a FlagSet, and calls Parse. Every flag "some-name" is also read from the
// environment variable GREENLIGHT_<SERVICE>_SOME_NAME and from the key
// "some-name" of the YAML file named by --config (or GREENLIGHT_<SERVICE>_CONFIG).
// Unknown file keys and malformed values are errors that name the flag, the
// environment variable or the file key, wrapped in ErrInvalid.
//
// The precedence and source handling come from github.com/peterbourgon/ff/v3
// (stable, built on the standard library's flag package, tiny dependency
// footprint); the file is read as YAML 1.2 with go.yaml.in/yaml/v3 (see
// parseYAML for why not ff's own YAML parser). This package adds typed
// binders, value validation and the greenlight naming conventions on top.
//
// The default listen addresses of every greenlight service live here as
// constants so that the services, the CLI and docker-compose agree.
package config
