module github.com/greenlight-dev/greenlight/services/discovery

go 1.26.0

require github.com/greenlight-dev/greenlight/pkg v0.0.0

replace github.com/greenlight-dev/greenlight/pkg => ../../pkg
