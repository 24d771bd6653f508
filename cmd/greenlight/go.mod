module github.com/greenlight-dev/greenlight/cmd/greenlight

go 1.26.0

require (
	github.com/greenlight-dev/greenlight/pkg v0.0.0
	github.com/greenlight-dev/greenlight/services/discovery v0.0.0
	github.com/greenlight-dev/greenlight/services/executor v0.0.0
	github.com/greenlight-dev/greenlight/services/gateway v0.0.0
	github.com/greenlight-dev/greenlight/services/loop v0.0.0
)

replace (
	github.com/greenlight-dev/greenlight/pkg => ../../pkg
	github.com/greenlight-dev/greenlight/services/discovery => ../../services/discovery
	github.com/greenlight-dev/greenlight/services/executor => ../../services/executor
	github.com/greenlight-dev/greenlight/services/gateway => ../../services/gateway
	github.com/greenlight-dev/greenlight/services/loop => ../../services/loop
)
