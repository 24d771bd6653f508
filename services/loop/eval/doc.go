// Package eval is the engine of `greenlight eval`: it runs the repair loop
// n times on every task of a suite and reports pass@1, pass@k, median
// patch size, median attempts-to-green, median time-to-green and the
// rollback rate, as JSON and as a text table. It is public so that the CLI
// (another module) and other callers share one implementation.
//
// A suite is a directory with one subdirectory per task. A task holds a
// task.yaml and its workspace: the subdirectory repo/ when present, else
// the task directory itself (minus task.yaml). task.yaml:
//
//	name: calc-add                # optional, default: the directory name
//	provider:                     # how patches are proposed (not CLIENT);
//	                              # optional when the caller passes one
//	  kind: command               # command | openai | replay
//	  command: ./fix.sh           # see "Command providers" below
//	  base_url: http://127.0.0.1:8000/v1   # openai
//	  model: qwen2.5-coder
//	  api_key_env: OPENAI_API_KEY
//	  recording_id: r_...         # replay
//	  timeout: 2m
//	max_rounds: 3
//	time_budget: 10m              # per repair run
//	score_threshold: 8
//	changed_files: [calc.py]
//	reference_check: pytest       # optional: a whitelisted step name or
//	                              # command that must pass on the final
//	                              # snapshot for the attempt to count
//	allow_config_changes: false   # let patches edit verification config
//	                              # (greenlight.yaml, CI, pytest.ini, ...);
//	                              # the plan stays pinned either way
//	hidden_tests: hidden/         # optional: tests the model never sees, a
//	                              # diff file or a directory laid over the
//	                              # workspace (left out of its snapshot);
//	                              # they grade every candidate
//	hidden_targets: [test_three]  # optional: which hidden tests must pass
//	                              # (default: every test collected from them)
//
// Command and openai providers run in the eval's own process, not in the
// loop (a loop runs only the provider profiles its operator configured):
// the eval asks the loop for a CLIENT provider and answers every patch
// request itself. A command runs with /bin/sh -c in the task directory
// (suite/<task>/, not the suite directory and not repo/), where relative
// paths such as ./fix.sh or fix.patch resolve, with the PatchRequest as
// JSON on stdin and the patch expected on stdout (empty output gives up);
// a failing command ends that sample with an error. An openai provider
// reads its key from the eval's environment. So a suite runs the same
// against the embedded loop, a local greenlight serve or a remote one.
//
// A sample passes when the repair run ends green and, when the task names
// a reference check, a Verify of the final snapshot selecting that command
// passes too. pass@k uses the unbiased estimator of Chen et al. (2021),
// 1 − C(n−c, k)/C(n, k) for n samples with c passing, averaged over tasks.
// Everything runs through a RunService client, so a suite can be evaluated
// against a remote loop, the gateway or the embedded one alike.
package eval
