package main

import (
	"maps"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/image"
)

func TestParseImagesSets(t *testing.T) {
	got, err := parseImages([]string{"upstream"})
	if want, _ := image.Set(image.SetUpstream); err != nil || !maps.Equal(got, want) {
		t.Fatalf("--images upstream = %v, %v", got, err)
	}
	got, err = parseImages([]string{"node=node:20-slim"})
	if err != nil || got["node"] != "node:20-slim" || len(got) != 1 {
		t.Fatalf("--images node=node:20-slim = %v, %v", got, err)
	}
	if _, err := parseImages([]string{"node"}); err == nil || !strings.Contains(err.Error(), `unknown image set "node"`) {
		t.Fatalf("--images node: %v", err)
	}
}
