package kube

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// Metadata the driver keeps on every pod besides the sandbox's labels.
const (
	// annLabels holds the sandbox's labels as JSON, exactly: a label
	// value Kubernetes cannot hold (greenlight's owners and image names
	// may have any character, and more than 63) is hashed in the pod's
	// label and kept whole here, so List returns the real values.
	annLabels = "greenlight.dev/labels"
	// annName is the container name the sandbox asked for (the pod's
	// name is its DNS-1123 form).
	annName = "greenlight.dev/name"
	// annPidsLimit records the spec's pids limit, which no pod field
	// can apply (see podFor).
	annPidsLimit = "greenlight.dev/pids-limit"
	// annLoopback6 says the spec asked for an IPv6 loopback, which Start
	// verifies instead of setting the sysctl (see podFor).
	annLoopback6 = "greenlight.dev/ipv6-loopback"
	// labelManaged marks the pods of this driver.
	labelManaged = "app.kubernetes.io/managed-by"
	managedBy    = "greenlight"
	// LabelNetwork selects the pod's NetworkPolicy: NetworkNone or
	// NetworkEgress (see network.go).
	LabelNetwork = "greenlight.network"
)

// labelValue is how a sandbox label value is written in a pod label: as
// is when Kubernetes accepts it, else "h-" and a hash (a selector on it
// then finds the pod, and List filters on the real value).
func labelValue(v string) string {
	if len(validation.IsValidLabelValue(v)) == 0 {
		return v
	}
	sum := sha256.Sum256([]byte(v))
	return "h-" + hex.EncodeToString(sum[:])[:40]
}

// podLabels returns the pod's labels and the annotation holding the real
// ones; a key Kubernetes cannot hold is refused (the sandbox's keys are
// all of the form greenlight.NAME).
func podLabels(labels map[string]string) (map[string]string, string, error) {
	out := make(map[string]string, len(labels)+2)
	for k, v := range labels {
		if errs := validation.IsQualifiedName(k); len(errs) > 0 {
			return nil, "", fmt.Errorf("label key %q is not a Kubernetes label key: %s", k, strings.Join(errs, "; "))
		}
		if k == labelManaged || k == LabelNetwork {
			return nil, "", fmt.Errorf("label key %q is the driver's own", k)
		}
		out[k] = labelValue(v)
	}
	out[labelManaged] = managedBy
	real, err := json.Marshal(labels)
	if err != nil {
		return nil, "", err
	}
	return out, string(real), nil
}

// realLabels returns the sandbox's labels of a pod: the annotation's, or
// (for a pod not made by this driver) its labels.
func realLabels(labels, annotations map[string]string) map[string]string {
	if s, ok := annotations[annLabels]; ok {
		var m map[string]string
		if json.Unmarshal([]byte(s), &m) == nil {
			return m
		}
	}
	return labels
}

// selector turns a List argument (key, or key=value) into a label
// selector on the driver's pods, and a filter on the real labels (a
// hashed value could match another value's hash only by collision, but
// the filter makes sure).
func selector(label string) (string, func(map[string]string) bool, error) {
	key, value, hasValue := strings.Cut(label, "=")
	if errs := validation.IsQualifiedName(key); len(errs) > 0 {
		return "", nil, fmt.Errorf("label key %q: %s", key, strings.Join(errs, "; "))
	}
	sel := labelManaged + "=" + managedBy + "," + key
	if hasValue {
		sel += "=" + labelValue(value)
	}
	match := func(real map[string]string) bool {
		v, ok := real[key]
		return ok && (!hasValue || v == value)
	}
	return sel, match, nil
}

// notDNS is what a DNS-1123 label may not contain.
var notDNS = regexp.MustCompile(`[^a-z0-9-]+`)

// podName is the DNS-1123 form of a container name: lower case, other
// characters as "-", at most 63 characters (a pod's hostname is its name).
// When that changed the name, a hash of the original is appended, so two
// names differing only in what was replaced stay two pods.
func podName(name string) string {
	if len(validation.IsDNS1123Label(name)) == 0 {
		return name
	}
	s := strings.Trim(notDNS.ReplaceAllString(strings.ToLower(name), "-"), "-")
	sum := sha256.Sum256([]byte(name))
	suffix := hex.EncodeToString(sum[:])[:8]
	if len(s) > 63-len(suffix)-1 {
		s = strings.TrimRight(s[:63-len(suffix)-1], "-")
	}
	if s == "" {
		return "greenlight-" + suffix
	}
	return s + "-" + suffix
}
