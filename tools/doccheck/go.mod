module github.com/greenlight-dev/greenlight/tools/doccheck

go 1.26.0
