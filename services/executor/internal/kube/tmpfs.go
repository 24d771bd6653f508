package kube

import (
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// tmpfsOpts is what a Docker tmpfs option string asks for.
type tmpfsOpts struct {
	size     int64 // bytes, 0 = unsized
	mode     string
	uid, gid string
}

// parseTmpfs reads a tmpfs mount's options. The options a memory-backed
// emptyDir cannot honour are refused, except nosuid and nodev: the
// kubelet mounts emptyDirs without them, and what they prevent is
// prevented anyway in a sandbox (no-new-privileges makes set-uid bits
// inert; no CAP_MKNOD, so no device node can be made there).
func parseTmpfs(opts string) (tmpfsOpts, error) {
	var t tmpfsOpts
	for _, o := range strings.Split(opts, ",") {
		k, v, _ := strings.Cut(o, "=")
		var err error
		switch k {
		case "", "rw", "exec", "nosuid", "nodev":
		case "size":
			t.size, err = tmpfsSize(v)
		case "mode":
			if _, perr := strconv.ParseUint(v, 8, 32); perr != nil {
				err = fmt.Errorf("mode %q", v)
			}
			t.mode = v
		case "uid":
			_, err = strconv.ParseUint(v, 10, 32)
			t.uid = v
		case "gid":
			_, err = strconv.ParseUint(v, 10, 32)
			t.gid = v
		default:
			err = fmt.Errorf("option %q cannot be applied to an emptyDir", o)
		}
		if err != nil {
			return t, fmt.Errorf("tmpfs options %q: %w", opts, err)
		}
	}
	return t, nil
}

// tmpfsSize parses tmpfs's size=: bytes with an optional k, m or g.
func tmpfsSize(v string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(v, "k"), strings.HasSuffix(v, "K"):
		mult = 1 << 10
	case strings.HasSuffix(v, "m"), strings.HasSuffix(v, "M"):
		mult = 1 << 20
	case strings.HasSuffix(v, "g"), strings.HasSuffix(v, "G"):
		mult = 1 << 30
	}
	if mult > 1 {
		v = v[:len(v)-1]
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("size %q", v)
	}
	return n * mult, nil
}

// tmpfsVolumes maps the spec's tmpfs mounts to memory-backed emptyDirs
// (a tmpfs of sizeLimit, charged to the memory of the pod, as a tmpfs
// is to the container's) and, when one asks for a mode or an owner, the
// init container that applies them: the kubelet makes every emptyDir
// root-owned and mode 0777, but the sandbox's workspace and home must
// belong to the sandbox user (git refuses a repository owned by another
// user) and /tmp must be sticky.
func tmpfsVolumes(spec sandbox.ContainerSpec) ([]corev1.Volume, []corev1.VolumeMount, *corev1.Container, error) {
	var (
		volumes []corev1.Volume
		mounts  []corev1.VolumeMount
		args    []string
	)
	for i, dir := range sortedKeys(spec.Tmpfs) {
		t, err := parseTmpfs(spec.Tmpfs[dir])
		if err != nil {
			return nil, nil, nil, err
		}
		name := "tmpfs-" + strconv.Itoa(i)
		ed := &corev1.EmptyDirVolumeSource{Medium: corev1.StorageMediumMemory}
		if t.size > 0 {
			ed.SizeLimit = resource.NewQuantity(t.size, resource.BinarySI)
		}
		volumes = append(volumes, corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{EmptyDir: ed}})
		mounts = append(mounts, corev1.VolumeMount{Name: name, MountPath: dir})
		if t.mode != "" || t.uid != "" || t.gid != "" {
			owner := t.uid
			if t.gid != "" {
				owner += ":" + t.gid
			}
			args = append(args, "/mnt/"+name, t.mode, owner)
		}
	}
	if len(args) == 0 {
		return volumes, mounts, nil, nil
	}
	init := &corev1.Container{
		Name: tmpfsContainer, Image: spec.Image, ImagePullPolicy: corev1.PullNever,
		Command: append([]string{"/bin/sh", "-c", tmpfsScript, "greenlight-tmpfs"}, args...),
		// Root with CAP_CHOWN alone, before any of the sandbox's own
		// processes exist, running the image's sh, chmod and chown.
		SecurityContext: &corev1.SecurityContext{
			RunAsUser: ptr(int64(0)), RunAsGroup: ptr(int64(0)), Privileged: ptr(false),
			AllowPrivilegeEscalation: ptr(false), ReadOnlyRootFilesystem: ptr(true),
			Capabilities:   &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}, Add: []corev1.Capability{"CHOWN"}},
			SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
		},
		Resources:                idleResources,
		TerminationMessagePolicy: corev1.TerminationMessageReadFile,
	}
	for _, m := range mounts {
		init.VolumeMounts = append(init.VolumeMounts, corev1.VolumeMount{Name: m.Name, MountPath: "/mnt/" + m.Name})
	}
	return volumes, mounts, init, nil
}

// tmpfsScript applies (directory, mode, owner) triples: chmod first,
// while root still owns the directory (no CAP_FOWNER needed), then chown.
const tmpfsScript = `set -e
while [ $# -ge 3 ]; do
  if [ -n "$2" ]; then chmod "$2" "$1"; fi
  if [ -n "$3" ]; then chown "$3" "$1"; fi
  shift 3
done`
