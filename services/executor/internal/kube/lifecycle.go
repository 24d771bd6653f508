package kube

import (
	"context"
	"errors"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

func getOptions() metav1.GetOptions { return metav1.GetOptions{} }

func listOptions(selector string) metav1.ListOptions {
	return metav1.ListOptions{LabelSelector: selector}
}

// Create creates the pod of spec behind a scheduling gate: it exists, is
// listed and can be removed, but nothing runs until Start. A spec the
// driver cannot map is refused here, as is an image the inventory does
// not list (sandbox.ErrImageNotFound).
func (r *Runtime) Create(ctx context.Context, spec sandbox.ContainerSpec) (string, error) {
	if _, err := r.Image(ctx, spec.Image); err != nil {
		return "", err
	}
	pod, err := podFor(spec, r.namespace)
	if err != nil {
		return "", fmt.Errorf("pod for %s: %w", spec.Image, err)
	}
	if err := r.ensurePolicies(ctx); err != nil {
		return "", err
	}
	var name string
	err = r.call(ctx, "pod create", func(ctx context.Context) error {
		p, err := r.cs.CoreV1().Pods(r.namespace).Create(ctx, pod, metav1.CreateOptions{})
		if err == nil {
			name = p.Name
		}
		return err
	})
	return name, err
}

// Start lets the pod be scheduled and waits (at most the start timeout)
// until its containers run; for a pod without network it then checks
// that the cut is in force, and for every pod that only the loopback has
// IPv6 (verifyNetwork); last it connects the
// attachment, if any, and lets the main process go.
func (r *Runtime) Start(ctx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(ctx, r.startTimeout)
	defer cancel()
	var pod *corev1.Pod
	err := r.call(ctx, "pod start", func(ctx context.Context) error {
		var err error
		pod, err = r.cs.CoreV1().Pods(r.namespace).Patch(ctx, id, types.MergePatchType,
			[]byte(`{"spec":{"schedulingGates":null}}`), metav1.PatchOptions{})
		return err
	})
	if err != nil {
		return err
	}
	if pod, err = r.waitRunning(ctx, pod); err != nil {
		return err
	}
	if err := r.verifyNetwork(ctx, pod, pod.Labels[LabelNetwork] == NetworkNone); err != nil {
		return err
	}
	if a := r.attachmentOf(id); a != nil {
		return a.connect(ctx, r, id)
	}
	return nil
}

// waitRunning follows the pod until its containers run, it fails to
// start, or ctx ends; it names what held it back.
func (r *Runtime) waitRunning(ctx context.Context, pod *corev1.Pod) (*corev1.Pod, error) {
	for {
		if done, err := started(pod); done || err != nil {
			return pod, err
		}
		w, err := r.cs.CoreV1().Pods(r.namespace).Watch(ctx, metav1.ListOptions{
			FieldSelector: "metadata.name=" + pod.Name, ResourceVersion: pod.ResourceVersion,
		})
		if err != nil {
			return pod, r.startErr(ctx, pod, err)
		}
		pod, err = r.follow(ctx, w, pod)
		w.Stop()
		if err != nil {
			return pod, err
		}
	}
}

// follow reads w until the pod has started or failed to, ctx ends, or w
// ends (then the caller watches again from the last version seen).
func (r *Runtime) follow(ctx context.Context, w watch.Interface, pod *corev1.Pod) (*corev1.Pod, error) {
	for {
		select {
		case <-ctx.Done():
			return pod, r.startErr(ctx, pod, ctx.Err())
		case ev, ok := <-w.ResultChan():
			if !ok {
				return pod, nil
			}
			p, isPod := ev.Object.(*corev1.Pod)
			switch {
			case ev.Type == watch.Deleted:
				return pod, fmt.Errorf("%w: pod %s was deleted while starting", sandbox.ErrContainerNotFound, pod.Name)
			case !isPod || p.Name != pod.Name:
				continue
			}
			pod = p
			if done, err := started(pod); done || err != nil {
				return pod, err
			}
		}
	}
}

// startErr explains a start that did not finish.
func (r *Runtime) startErr(ctx context.Context, pod *corev1.Pod, err error) error {
	why := "pending"
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse {
			why = "not scheduled: " + c.Reason + ": " + c.Message
		}
	}
	if ctx.Err() != nil {
		return fmt.Errorf("pod %s did not start within %s (%s): %w", pod.Name, r.startTimeout, why, err)
	}
	return mapErr("pod start", err)
}

// started says whether the pod's containers run, or why they never will.
func started(pod *corev1.Pod) (bool, error) {
	statuses := append(append([]corev1.ContainerStatus(nil), pod.Status.InitContainerStatuses...), pod.Status.ContainerStatuses...)
	for _, cs := range statuses {
		if w := cs.State.Waiting; w != nil {
			switch w.Reason {
			case "ErrImageNeverPull", "ErrImagePull", "ImagePullBackOff", "InvalidImageName":
				return false, fmt.Errorf("%w: %s on the node (%s: %s)", sandbox.ErrImageNotFound, cs.Image, w.Reason, w.Message)
			case "CreateContainerConfigError", "CreateContainerError", "RunContainerError":
				return false, fmt.Errorf("pod %s container %s: %s: %s", pod.Name, cs.Name, w.Reason, w.Message)
			}
		}
	}
	switch pod.Status.Phase {
	case corev1.PodFailed, corev1.PodSucceeded:
		return false, fmt.Errorf("pod %s ended before it ran: %s", pod.Name, ended(pod))
	case corev1.PodRunning:
		if cs := status(pod, mainContainer); cs != nil && cs.State.Running != nil {
			return true, nil
		}
		if cs := status(pod, mainContainer); cs != nil && cs.State.Terminated != nil {
			return false, fmt.Errorf("pod %s ended before it ran: %s", pod.Name, ended(pod))
		}
	}
	return false, nil
}

// ended describes how a pod's containers ended.
func ended(pod *corev1.Pod) string {
	var parts []string
	statuses := append(append([]corev1.ContainerStatus(nil), pod.Status.InitContainerStatuses...), pod.Status.ContainerStatuses...)
	for _, cs := range statuses {
		if t := cs.State.Terminated; t != nil {
			parts = append(parts, fmt.Sprintf("%s exited %d (%s) %s", cs.Name, t.ExitCode, t.Reason, strings.TrimSpace(t.Message)))
		}
	}
	if len(parts) == 0 {
		return string(pod.Status.Phase) + " " + pod.Status.Reason + " " + pod.Status.Message
	}
	return strings.Join(parts, "; ")
}

// status returns the status of the named container, nil before it has
// one.
func status(pod *corev1.Pod, name string) *corev1.ContainerStatus {
	for i := range pod.Status.ContainerStatuses {
		if pod.Status.ContainerStatuses[i].Name == name {
			return &pod.Status.ContainerStatuses[i]
		}
	}
	return nil
}

// getPod reads a pod; a missing one is sandbox.ErrContainerNotFound.
func (r *Runtime) getPod(ctx context.Context, id string) (*corev1.Pod, error) {
	var pod *corev1.Pod
	err := r.call(ctx, "pod get", func(ctx context.Context) error {
		var err error
		pod, err = r.cs.CoreV1().Pods(r.namespace).Get(ctx, id, getOptions())
		return err
	})
	return pod, err
}

// State is the main container's: running, or its exit code; OOMKilled
// when any container of the pod was killed for memory.
func (r *Runtime) State(ctx context.Context, id string) (sandbox.ContainerState, error) {
	pod, err := r.getPod(ctx, id)
	if err != nil {
		return sandbox.ContainerState{}, err
	}
	return stateOf(pod), nil
}

func stateOf(pod *corev1.Pod) sandbox.ContainerState {
	var st sandbox.ContainerState
	if cs := status(pod, mainContainer); cs != nil {
		if cs.State.Running != nil && pod.DeletionTimestamp == nil {
			st.Running = true
		}
		if t := cs.State.Terminated; t != nil {
			st.ExitCode = int(t.ExitCode)
		}
	}
	for _, cs := range pod.Status.ContainerStatuses {
		if t := cs.State.Terminated; t != nil && t.Reason == "OOMKilled" {
			st.OOMKilled = true
		}
	}
	return st
}

// Remove deletes the pod at once (grace period 0: the API object goes
// now, and the kubelet kills its processes as soon as it sees that,
// typically well within a second). A missing pod is not an error. It
// does not wait for the kubelet: a Docker remove returns once the
// container is gone, but nothing of the pod can be reached any more.
func (r *Runtime) Remove(ctx context.Context, id string) error {
	if a := r.attachmentOf(id); a != nil {
		_ = a.Close()
	}
	err := r.call(ctx, "pod delete", func(ctx context.Context) error {
		bg := metav1.DeletePropagationBackground
		return r.cs.CoreV1().Pods(r.namespace).Delete(ctx, id, metav1.DeleteOptions{GracePeriodSeconds: ptr(int64(0)), PropagationPolicy: &bg})
	})
	if errors.Is(err, sandbox.ErrContainerNotFound) {
		return nil
	}
	return err
}

// List returns the driver's pods carrying label (key or key=value), with
// the sandbox's real labels.
func (r *Runtime) List(ctx context.Context, label string) ([]sandbox.ContainerInfo, error) {
	sel, match, err := selector(label)
	if err != nil {
		return nil, err
	}
	var out []sandbox.ContainerInfo
	err = r.call(ctx, "pod list", func(ctx context.Context) error {
		pods, err := r.cs.CoreV1().Pods(r.namespace).List(ctx, listOptions(sel))
		if err != nil {
			return err
		}
		for _, p := range pods.Items {
			labels := realLabels(p.Labels, p.Annotations)
			if !match(labels) {
				continue
			}
			out = append(out, sandbox.ContainerInfo{ID: p.Name, Name: p.Annotations[annName], Labels: labels,
				Created: p.CreationTimestamp.Time, State: stateName(&p)})
		}
		return nil
	})
	return out, err
}

// stateName is a pod's state in Docker's words.
func stateName(pod *corev1.Pod) string {
	switch {
	case stateOf(pod).Running:
		return "running"
	case pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed:
		return "exited"
	}
	return "created"
}
