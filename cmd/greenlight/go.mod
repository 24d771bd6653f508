module github.com/greenlight-dev/greenlight/cmd/greenlight

go 1.26.0

require (
	github.com/greenlight-dev/greenlight/pkg v0.0.0
	github.com/greenlight-dev/greenlight/services/discovery v0.0.0
	github.com/greenlight-dev/greenlight/services/executor v0.0.0
	github.com/greenlight-dev/greenlight/services/gateway v0.0.0
	github.com/greenlight-dev/greenlight/services/loop v0.0.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/cobra v1.10.2 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/term v0.47.0 // indirect
)

replace (
	github.com/greenlight-dev/greenlight/pkg => ../../pkg
	github.com/greenlight-dev/greenlight/services/discovery => ../../services/discovery
	github.com/greenlight-dev/greenlight/services/executor => ../../services/executor
	github.com/greenlight-dev/greenlight/services/gateway => ../../services/gateway
	github.com/greenlight-dev/greenlight/services/loop => ../../services/loop
)
