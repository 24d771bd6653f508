from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from greenlight_client.v1 import events_pb2 as _events_pb2
from greenlight_client.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
PROVIDER_KIND_CLIENT: ProviderKind
PROVIDER_KIND_COMMAND: ProviderKind
PROVIDER_KIND_OPENAI: ProviderKind
PROVIDER_KIND_REPLAY: ProviderKind
PROVIDER_KIND_UNSPECIFIED: ProviderKind
RUN_KIND_FIX: RunKind
RUN_KIND_UNSPECIFIED: RunKind
RUN_KIND_VERIFY: RunKind
RUN_STATUS_CANCELED: RunStatus
RUN_STATUS_ERROR: RunStatus
RUN_STATUS_FAILED: RunStatus
RUN_STATUS_INTERRUPTED: RunStatus
RUN_STATUS_PASSED: RunStatus
RUN_STATUS_PENDING: RunStatus
RUN_STATUS_RUNNING: RunStatus
RUN_STATUS_UNSPECIFIED: RunStatus

class CancelRunRequest(_message.Message):
    __slots__ = ["run_id"]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    def __init__(self, run_id: _Optional[str] = ...) -> None: ...

class CancelRunResponse(_message.Message):
    __slots__ = ["run"]
    RUN_FIELD_NUMBER: _ClassVar[int]
    run: Run
    def __init__(self, run: _Optional[_Union[Run, _Mapping]] = ...) -> None: ...

class DiscoverWorkspaceRequest(_message.Message):
    __slots__ = ["snapshot"]
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    snapshot: _types_pb2.Digest
    def __init__(self, snapshot: _Optional[_Union[_types_pb2.Digest, _Mapping]] = ...) -> None: ...

class DiscoverWorkspaceResponse(_message.Message):
    __slots__ = ["capabilities"]
    CAPABILITIES_FIELD_NUMBER: _ClassVar[int]
    capabilities: _events_pb2.Capabilities
    def __init__(self, capabilities: _Optional[_Union[_events_pb2.Capabilities, _Mapping]] = ...) -> None: ...

class DiscoveryDone(_message.Message):
    __slots__ = ["attempt", "capabilities", "pipeline"]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    CAPABILITIES_FIELD_NUMBER: _ClassVar[int]
    PIPELINE_FIELD_NUMBER: _ClassVar[int]
    attempt: int
    capabilities: _events_pb2.Capabilities
    pipeline: _types_pb2.Pipeline
    def __init__(self, capabilities: _Optional[_Union[_events_pb2.Capabilities, _Mapping]] = ..., pipeline: _Optional[_Union[_types_pb2.Pipeline, _Mapping]] = ..., attempt: _Optional[int] = ...) -> None: ...

class ExecutorRetry(_message.Message):
    __slots__ = ["executor", "failed_executor", "reason"]
    EXECUTOR_FIELD_NUMBER: _ClassVar[int]
    FAILED_EXECUTOR_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    executor: str
    failed_executor: str
    reason: str
    def __init__(self, failed_executor: _Optional[str] = ..., reason: _Optional[str] = ..., executor: _Optional[str] = ...) -> None: ...

class FixMetrics(_message.Message):
    __slots__ = ["attempts_to_green", "baseline_hidden_tests", "baseline_inventory", "green", "hidden_tests", "patch_lines", "reruns", "rollbacks", "rounds", "stop_reason", "time_to_green", "transitions", "usage"]
    ATTEMPTS_TO_GREEN_FIELD_NUMBER: _ClassVar[int]
    BASELINE_HIDDEN_TESTS_FIELD_NUMBER: _ClassVar[int]
    BASELINE_INVENTORY_FIELD_NUMBER: _ClassVar[int]
    GREEN_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_TESTS_FIELD_NUMBER: _ClassVar[int]
    PATCH_LINES_FIELD_NUMBER: _ClassVar[int]
    RERUNS_FIELD_NUMBER: _ClassVar[int]
    ROLLBACKS_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    STOP_REASON_FIELD_NUMBER: _ClassVar[int]
    TIME_TO_GREEN_FIELD_NUMBER: _ClassVar[int]
    TRANSITIONS_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    attempts_to_green: int
    baseline_hidden_tests: _types_pb2.HiddenTests
    baseline_inventory: _types_pb2.TestInventory
    green: bool
    hidden_tests: _types_pb2.HiddenTests
    patch_lines: int
    reruns: int
    rollbacks: int
    rounds: int
    stop_reason: str
    time_to_green: _duration_pb2.Duration
    transitions: _types_pb2.Transitions
    usage: _types_pb2.Usage
    def __init__(self, green: bool = ..., rounds: _Optional[int] = ..., attempts_to_green: _Optional[int] = ..., time_to_green: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., rollbacks: _Optional[int] = ..., patch_lines: _Optional[int] = ..., usage: _Optional[_Union[_types_pb2.Usage, _Mapping]] = ..., stop_reason: _Optional[str] = ..., transitions: _Optional[_Union[_types_pb2.Transitions, _Mapping]] = ..., reruns: _Optional[int] = ..., baseline_inventory: _Optional[_Union[_types_pb2.TestInventory, _Mapping]] = ..., hidden_tests: _Optional[_Union[_types_pb2.HiddenTests, _Mapping]] = ..., baseline_hidden_tests: _Optional[_Union[_types_pb2.HiddenTests, _Mapping]] = ...) -> None: ...

class FixOptions(_message.Message):
    __slots__ = ["baseline", "cost_budget", "fail_fast", "guardrails", "hidden_targets", "hidden_tests", "max_rounds", "provider", "request_tokens", "score_threshold", "targets", "time_budget", "verify"]
    BASELINE_FIELD_NUMBER: _ClassVar[int]
    COST_BUDGET_FIELD_NUMBER: _ClassVar[int]
    FAIL_FAST_FIELD_NUMBER: _ClassVar[int]
    GUARDRAILS_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_TARGETS_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_TESTS_FIELD_NUMBER: _ClassVar[int]
    MAX_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    REQUEST_TOKENS_FIELD_NUMBER: _ClassVar[int]
    SCORE_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    TARGETS_FIELD_NUMBER: _ClassVar[int]
    TIME_BUDGET_FIELD_NUMBER: _ClassVar[int]
    VERIFY_FIELD_NUMBER: _ClassVar[int]
    baseline: bool
    cost_budget: float
    fail_fast: bool
    guardrails: Guardrails
    hidden_targets: _containers.RepeatedScalarFieldContainer[str]
    hidden_tests: _types_pb2.Digest
    max_rounds: int
    provider: ProviderConfig
    request_tokens: int
    score_threshold: float
    targets: FixTargets
    time_budget: _duration_pb2.Duration
    verify: VerifyOptions
    def __init__(self, verify: _Optional[_Union[VerifyOptions, _Mapping]] = ..., provider: _Optional[_Union[ProviderConfig, _Mapping]] = ..., max_rounds: _Optional[int] = ..., time_budget: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., cost_budget: _Optional[float] = ..., score_threshold: _Optional[float] = ..., baseline: bool = ..., guardrails: _Optional[_Union[Guardrails, _Mapping]] = ..., targets: _Optional[_Union[FixTargets, _Mapping]] = ..., request_tokens: _Optional[int] = ..., fail_fast: bool = ..., hidden_tests: _Optional[_Union[_types_pb2.Digest, _Mapping]] = ..., hidden_targets: _Optional[_Iterable[str]] = ...) -> None: ...

class FixRequest(_message.Message):
    __slots__ = ["patch", "start"]
    PATCH_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    patch: PatchReply
    start: FixStart
    def __init__(self, start: _Optional[_Union[FixStart, _Mapping]] = ..., patch: _Optional[_Union[PatchReply, _Mapping]] = ...) -> None: ...

class FixResponse(_message.Message):
    __slots__ = ["event"]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: RunEvent
    def __init__(self, event: _Optional[_Union[RunEvent, _Mapping]] = ...) -> None: ...

class FixStart(_message.Message):
    __slots__ = ["detach", "options", "snapshot", "source_dir"]
    DETACH_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    SOURCE_DIR_FIELD_NUMBER: _ClassVar[int]
    detach: bool
    options: FixOptions
    snapshot: _types_pb2.Digest
    source_dir: str
    def __init__(self, snapshot: _Optional[_Union[_types_pb2.Digest, _Mapping]] = ..., options: _Optional[_Union[FixOptions, _Mapping]] = ..., source_dir: _Optional[str] = ..., detach: bool = ...) -> None: ...

class FixTargets(_message.Message):
    __slots__ = ["fail_to_pass", "pass_to_pass", "steps"]
    FAIL_TO_PASS_FIELD_NUMBER: _ClassVar[int]
    PASS_TO_PASS_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    fail_to_pass: _containers.RepeatedScalarFieldContainer[str]
    pass_to_pass: _containers.RepeatedScalarFieldContainer[str]
    steps: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, fail_to_pass: _Optional[_Iterable[str]] = ..., pass_to_pass: _Optional[_Iterable[str]] = ..., steps: _Optional[_Iterable[str]] = ...) -> None: ...

class GetRunRequest(_message.Message):
    __slots__ = ["run_id"]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    def __init__(self, run_id: _Optional[str] = ...) -> None: ...

class GetRunResponse(_message.Message):
    __slots__ = ["run"]
    RUN_FIELD_NUMBER: _ClassVar[int]
    run: Run
    def __init__(self, run: _Optional[_Union[Run, _Mapping]] = ...) -> None: ...

class Guardrails(_message.Message):
    __slots__ = ["allow_config_changes", "allow_lockfile_edits", "allow_test_changes", "allowed_globs", "max_bytes", "max_changed_lines"]
    ALLOWED_GLOBS_FIELD_NUMBER: _ClassVar[int]
    ALLOW_CONFIG_CHANGES_FIELD_NUMBER: _ClassVar[int]
    ALLOW_LOCKFILE_EDITS_FIELD_NUMBER: _ClassVar[int]
    ALLOW_TEST_CHANGES_FIELD_NUMBER: _ClassVar[int]
    MAX_BYTES_FIELD_NUMBER: _ClassVar[int]
    MAX_CHANGED_LINES_FIELD_NUMBER: _ClassVar[int]
    allow_config_changes: bool
    allow_lockfile_edits: bool
    allow_test_changes: bool
    allowed_globs: _containers.RepeatedScalarFieldContainer[str]
    max_bytes: int
    max_changed_lines: int
    def __init__(self, allowed_globs: _Optional[_Iterable[str]] = ..., max_bytes: _Optional[int] = ..., max_changed_lines: _Optional[int] = ..., allow_test_changes: bool = ..., allow_lockfile_edits: bool = ..., allow_config_changes: bool = ...) -> None: ...

class ListRunsRequest(_message.Message):
    __slots__ = ["page_size", "page_token", "statuses"]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    statuses: _containers.RepeatedScalarFieldContainer[RunStatus]
    def __init__(self, statuses: _Optional[_Iterable[_Union[RunStatus, str]]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListRunsResponse(_message.Message):
    __slots__ = ["next_page_token", "runs"]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    RUNS_FIELD_NUMBER: _ClassVar[int]
    next_page_token: str
    runs: _containers.RepeatedCompositeFieldContainer[Run]
    def __init__(self, runs: _Optional[_Iterable[_Union[Run, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class LogCapped(_message.Message):
    __slots__ = ["index", "step", "stored_bytes"]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    STORED_BYTES_FIELD_NUMBER: _ClassVar[int]
    index: int
    step: str
    stored_bytes: int
    def __init__(self, index: _Optional[int] = ..., step: _Optional[str] = ..., stored_bytes: _Optional[int] = ...) -> None: ...

class PatchEvaluated(_message.Message):
    __slots__ = ["outcome"]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    outcome: _types_pb2.PatchOutcome
    def __init__(self, outcome: _Optional[_Union[_types_pb2.PatchOutcome, _Mapping]] = ...) -> None: ...

class PatchReply(_message.Message):
    __slots__ = ["attempt", "give_up", "patch", "usage"]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    GIVE_UP_FIELD_NUMBER: _ClassVar[int]
    PATCH_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    attempt: int
    give_up: bool
    patch: str
    usage: _types_pb2.Usage
    def __init__(self, attempt: _Optional[int] = ..., patch: _Optional[str] = ..., give_up: bool = ..., usage: _Optional[_Union[_types_pb2.Usage, _Mapping]] = ...) -> None: ...

class PatchReplyRefused(_message.Message):
    __slots__ = ["attempt", "reason"]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    attempt: int
    reason: str
    def __init__(self, attempt: _Optional[int] = ..., reason: _Optional[str] = ...) -> None: ...

class PatchRequest(_message.Message):
    __slots__ = ["attempt", "changed_files", "constraints", "exit_code", "failing_command", "failures", "feedback", "log_tail", "prompt", "run_id", "windows", "workdir"]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    CHANGED_FILES_FIELD_NUMBER: _ClassVar[int]
    CONSTRAINTS_FIELD_NUMBER: _ClassVar[int]
    EXIT_CODE_FIELD_NUMBER: _ClassVar[int]
    FAILING_COMMAND_FIELD_NUMBER: _ClassVar[int]
    FAILURES_FIELD_NUMBER: _ClassVar[int]
    FEEDBACK_FIELD_NUMBER: _ClassVar[int]
    LOG_TAIL_FIELD_NUMBER: _ClassVar[int]
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    WINDOWS_FIELD_NUMBER: _ClassVar[int]
    WORKDIR_FIELD_NUMBER: _ClassVar[int]
    attempt: int
    changed_files: _containers.RepeatedScalarFieldContainer[str]
    constraints: Guardrails
    exit_code: int
    failing_command: str
    failures: _containers.RepeatedCompositeFieldContainer[_types_pb2.Failure]
    feedback: str
    log_tail: str
    prompt: str
    run_id: str
    windows: _containers.RepeatedCompositeFieldContainer[_types_pb2.CodeWindow]
    workdir: str
    def __init__(self, run_id: _Optional[str] = ..., attempt: _Optional[int] = ..., failing_command: _Optional[str] = ..., workdir: _Optional[str] = ..., exit_code: _Optional[int] = ..., log_tail: _Optional[str] = ..., failures: _Optional[_Iterable[_Union[_types_pb2.Failure, _Mapping]]] = ..., windows: _Optional[_Iterable[_Union[_types_pb2.CodeWindow, _Mapping]]] = ..., changed_files: _Optional[_Iterable[str]] = ..., constraints: _Optional[_Union[Guardrails, _Mapping]] = ..., feedback: _Optional[str] = ..., prompt: _Optional[str] = ...) -> None: ...

class PatchRequested(_message.Message):
    __slots__ = ["request"]
    REQUEST_FIELD_NUMBER: _ClassVar[int]
    request: PatchRequest
    def __init__(self, request: _Optional[_Union[PatchRequest, _Mapping]] = ...) -> None: ...

class ProviderConfig(_message.Message):
    __slots__ = ["api_key_env", "base_url", "command", "cost_per_1k_tokens", "kind", "model", "profile", "recording_id", "timeout"]
    API_KEY_ENV_FIELD_NUMBER: _ClassVar[int]
    BASE_URL_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    COST_PER_1K_TOKENS_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    PROFILE_FIELD_NUMBER: _ClassVar[int]
    RECORDING_ID_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    api_key_env: str
    base_url: str
    command: str
    cost_per_1k_tokens: float
    kind: ProviderKind
    model: str
    profile: str
    recording_id: str
    timeout: _duration_pb2.Duration
    def __init__(self, kind: _Optional[_Union[ProviderKind, str]] = ..., command: _Optional[str] = ..., base_url: _Optional[str] = ..., model: _Optional[str] = ..., api_key_env: _Optional[str] = ..., recording_id: _Optional[str] = ..., timeout: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., cost_per_1k_tokens: _Optional[float] = ..., profile: _Optional[str] = ...) -> None: ...

class Queued(_message.Message):
    __slots__ = ["capacity", "position"]
    CAPACITY_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    capacity: int
    position: int
    def __init__(self, position: _Optional[int] = ..., capacity: _Optional[int] = ...) -> None: ...

class ResumeFrom(_message.Message):
    __slots__ = ["after_seq", "reason"]
    AFTER_SEQ_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    after_seq: int
    reason: str
    def __init__(self, after_seq: _Optional[int] = ..., reason: _Optional[str] = ...) -> None: ...

class ReviewOptions(_message.Message):
    __slots__ = ["plan", "profile"]
    PLAN_FIELD_NUMBER: _ClassVar[int]
    PROFILE_FIELD_NUMBER: _ClassVar[int]
    plan: str
    profile: str
    def __init__(self, profile: _Optional[str] = ..., plan: _Optional[str] = ...) -> None: ...

class RoundStarted(_message.Message):
    __slots__ = ["round", "snapshot"]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    round: int
    snapshot: _types_pb2.Digest
    def __init__(self, round: _Optional[int] = ..., snapshot: _Optional[_Union[_types_pb2.Digest, _Mapping]] = ...) -> None: ...

class Run(_message.Message):
    __slots__ = ["created_at", "current_snapshot", "error", "finished_at", "fix_options", "id", "kind", "last_seq", "metrics", "patches", "result", "snapshot", "source_dir", "started_at", "status", "verify_options"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURRENT_SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_FIELD_NUMBER: _ClassVar[int]
    FIX_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LAST_SEQ_FIELD_NUMBER: _ClassVar[int]
    METRICS_FIELD_NUMBER: _ClassVar[int]
    PATCHES_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    SOURCE_DIR_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    VERIFY_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    current_snapshot: _types_pb2.Digest
    error: str
    finished_at: _timestamp_pb2.Timestamp
    fix_options: FixOptions
    id: str
    kind: RunKind
    last_seq: int
    metrics: FixMetrics
    patches: _containers.RepeatedCompositeFieldContainer[_types_pb2.PatchOutcome]
    result: _types_pb2.Result
    snapshot: _types_pb2.Digest
    source_dir: str
    started_at: _timestamp_pb2.Timestamp
    status: RunStatus
    verify_options: VerifyOptions
    def __init__(self, id: _Optional[str] = ..., kind: _Optional[_Union[RunKind, str]] = ..., status: _Optional[_Union[RunStatus, str]] = ..., snapshot: _Optional[_Union[_types_pb2.Digest, _Mapping]] = ..., current_snapshot: _Optional[_Union[_types_pb2.Digest, _Mapping]] = ..., verify_options: _Optional[_Union[VerifyOptions, _Mapping]] = ..., fix_options: _Optional[_Union[FixOptions, _Mapping]] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., started_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., finished_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., result: _Optional[_Union[_types_pb2.Result, _Mapping]] = ..., last_seq: _Optional[int] = ..., patches: _Optional[_Iterable[_Union[_types_pb2.PatchOutcome, _Mapping]]] = ..., metrics: _Optional[_Union[FixMetrics, _Mapping]] = ..., error: _Optional[str] = ..., source_dir: _Optional[str] = ...) -> None: ...

class RunCreated(_message.Message):
    __slots__ = ["run"]
    RUN_FIELD_NUMBER: _ClassVar[int]
    run: Run
    def __init__(self, run: _Optional[_Union[Run, _Mapping]] = ...) -> None: ...

class RunEvent(_message.Message):
    __slots__ = ["discovery_done", "executor_retry", "log_capped", "log_chunk", "patch_evaluated", "patch_reply_refused", "patch_requested", "queued", "resume_from", "round_started", "run_created", "run_finished", "run_id", "score", "seq", "step_finished", "step_started", "tests_parsed", "tier_skipped", "time", "verification_done", "verify_failed_max_retries", "verify_failed_retry"]
    DISCOVERY_DONE_FIELD_NUMBER: _ClassVar[int]
    EXECUTOR_RETRY_FIELD_NUMBER: _ClassVar[int]
    LOG_CAPPED_FIELD_NUMBER: _ClassVar[int]
    LOG_CHUNK_FIELD_NUMBER: _ClassVar[int]
    PATCH_EVALUATED_FIELD_NUMBER: _ClassVar[int]
    PATCH_REPLY_REFUSED_FIELD_NUMBER: _ClassVar[int]
    PATCH_REQUESTED_FIELD_NUMBER: _ClassVar[int]
    QUEUED_FIELD_NUMBER: _ClassVar[int]
    RESUME_FROM_FIELD_NUMBER: _ClassVar[int]
    ROUND_STARTED_FIELD_NUMBER: _ClassVar[int]
    RUN_CREATED_FIELD_NUMBER: _ClassVar[int]
    RUN_FINISHED_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    STEP_FINISHED_FIELD_NUMBER: _ClassVar[int]
    STEP_STARTED_FIELD_NUMBER: _ClassVar[int]
    TESTS_PARSED_FIELD_NUMBER: _ClassVar[int]
    TIER_SKIPPED_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    VERIFICATION_DONE_FIELD_NUMBER: _ClassVar[int]
    VERIFY_FAILED_MAX_RETRIES_FIELD_NUMBER: _ClassVar[int]
    VERIFY_FAILED_RETRY_FIELD_NUMBER: _ClassVar[int]
    discovery_done: DiscoveryDone
    executor_retry: ExecutorRetry
    log_capped: LogCapped
    log_chunk: _events_pb2.LogChunk
    patch_evaluated: PatchEvaluated
    patch_reply_refused: PatchReplyRefused
    patch_requested: PatchRequested
    queued: Queued
    resume_from: ResumeFrom
    round_started: RoundStarted
    run_created: RunCreated
    run_finished: RunFinished
    run_id: str
    score: _types_pb2.Score
    seq: int
    step_finished: _events_pb2.StepFinished
    step_started: _events_pb2.StepStarted
    tests_parsed: TestsParsed
    tier_skipped: TierSkipped
    time: _timestamp_pb2.Timestamp
    verification_done: VerificationDone
    verify_failed_max_retries: VerifyFailedMaxRetries
    verify_failed_retry: VerifyFailedRetry
    def __init__(self, run_id: _Optional[str] = ..., seq: _Optional[int] = ..., time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., run_created: _Optional[_Union[RunCreated, _Mapping]] = ..., discovery_done: _Optional[_Union[DiscoveryDone, _Mapping]] = ..., step_started: _Optional[_Union[_events_pb2.StepStarted, _Mapping]] = ..., log_chunk: _Optional[_Union[_events_pb2.LogChunk, _Mapping]] = ..., step_finished: _Optional[_Union[_events_pb2.StepFinished, _Mapping]] = ..., tests_parsed: _Optional[_Union[TestsParsed, _Mapping]] = ..., score: _Optional[_Union[_types_pb2.Score, _Mapping]] = ..., verification_done: _Optional[_Union[VerificationDone, _Mapping]] = ..., verify_failed_retry: _Optional[_Union[VerifyFailedRetry, _Mapping]] = ..., verify_failed_max_retries: _Optional[_Union[VerifyFailedMaxRetries, _Mapping]] = ..., tier_skipped: _Optional[_Union[TierSkipped, _Mapping]] = ..., round_started: _Optional[_Union[RoundStarted, _Mapping]] = ..., patch_requested: _Optional[_Union[PatchRequested, _Mapping]] = ..., patch_evaluated: _Optional[_Union[PatchEvaluated, _Mapping]] = ..., run_finished: _Optional[_Union[RunFinished, _Mapping]] = ..., resume_from: _Optional[_Union[ResumeFrom, _Mapping]] = ..., log_capped: _Optional[_Union[LogCapped, _Mapping]] = ..., patch_reply_refused: _Optional[_Union[PatchReplyRefused, _Mapping]] = ..., queued: _Optional[_Union[Queued, _Mapping]] = ..., executor_retry: _Optional[_Union[ExecutorRetry, _Mapping]] = ...) -> None: ...

class RunFinished(_message.Message):
    __slots__ = ["metrics", "result", "status"]
    METRICS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    metrics: FixMetrics
    result: _types_pb2.Result
    status: RunStatus
    def __init__(self, status: _Optional[_Union[RunStatus, str]] = ..., result: _Optional[_Union[_types_pb2.Result, _Mapping]] = ..., metrics: _Optional[_Union[FixMetrics, _Mapping]] = ...) -> None: ...

class StartRunRequest(_message.Message):
    __slots__ = ["fix", "verify"]
    FIX_FIELD_NUMBER: _ClassVar[int]
    VERIFY_FIELD_NUMBER: _ClassVar[int]
    fix: FixStart
    verify: VerifyRequest
    def __init__(self, verify: _Optional[_Union[VerifyRequest, _Mapping]] = ..., fix: _Optional[_Union[FixStart, _Mapping]] = ...) -> None: ...

class StartRunResponse(_message.Message):
    __slots__ = ["run"]
    RUN_FIELD_NUMBER: _ClassVar[int]
    run: Run
    def __init__(self, run: _Optional[_Union[Run, _Mapping]] = ...) -> None: ...

class TestsParsed(_message.Message):
    __slots__ = ["counts", "failures", "lint_issues", "step"]
    COUNTS_FIELD_NUMBER: _ClassVar[int]
    FAILURES_FIELD_NUMBER: _ClassVar[int]
    LINT_ISSUES_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    counts: _types_pb2.TestCounts
    failures: _containers.RepeatedCompositeFieldContainer[_types_pb2.Failure]
    lint_issues: int
    step: str
    def __init__(self, step: _Optional[str] = ..., counts: _Optional[_Union[_types_pb2.TestCounts, _Mapping]] = ..., failures: _Optional[_Iterable[_Union[_types_pb2.Failure, _Mapping]]] = ..., lint_issues: _Optional[int] = ...) -> None: ...

class TierSkipped(_message.Message):
    __slots__ = ["reason", "tier"]
    REASON_FIELD_NUMBER: _ClassVar[int]
    TIER_FIELD_NUMBER: _ClassVar[int]
    reason: str
    tier: _types_pb2.Tier
    def __init__(self, tier: _Optional[_Union[_types_pb2.Tier, str]] = ..., reason: _Optional[str] = ...) -> None: ...

class VerificationDone(_message.Message):
    __slots__ = ["attempt", "duration", "failed_command", "hidden_tests", "ok", "score", "tiers"]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    DURATION_FIELD_NUMBER: _ClassVar[int]
    FAILED_COMMAND_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_TESTS_FIELD_NUMBER: _ClassVar[int]
    OK_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    TIERS_FIELD_NUMBER: _ClassVar[int]
    attempt: int
    duration: _duration_pb2.Duration
    failed_command: str
    hidden_tests: bool
    ok: bool
    score: _types_pb2.Score
    tiers: _containers.RepeatedCompositeFieldContainer[_types_pb2.TierSelection]
    def __init__(self, ok: bool = ..., attempt: _Optional[int] = ..., score: _Optional[_Union[_types_pb2.Score, _Mapping]] = ..., failed_command: _Optional[str] = ..., duration: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., tiers: _Optional[_Iterable[_Union[_types_pb2.TierSelection, _Mapping]]] = ..., hidden_tests: bool = ...) -> None: ...

class VerifyFailedMaxRetries(_message.Message):
    __slots__ = ["attempts", "stop_memo"]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    STOP_MEMO_FIELD_NUMBER: _ClassVar[int]
    attempts: int
    stop_memo: str
    def __init__(self, attempts: _Optional[int] = ..., stop_memo: _Optional[str] = ...) -> None: ...

class VerifyFailedRetry(_message.Message):
    __slots__ = ["attempt", "failed_command", "fix_instructions", "max_attempts"]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    FAILED_COMMAND_FIELD_NUMBER: _ClassVar[int]
    FIX_INSTRUCTIONS_FIELD_NUMBER: _ClassVar[int]
    MAX_ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    attempt: int
    failed_command: str
    fix_instructions: str
    max_attempts: int
    def __init__(self, attempt: _Optional[int] = ..., max_attempts: _Optional[int] = ..., failed_command: _Optional[str] = ..., fix_instructions: _Optional[str] = ...) -> None: ...

class VerifyOptions(_message.Message):
    __slots__ = ["changed_files", "commit_sha", "high_risk", "images", "labels", "limits", "max_attempts", "milestone_end", "plan", "rerun_failed", "review", "run_end", "security", "selection", "tests", "time_budget"]
    class ImagesEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class LabelsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    CHANGED_FILES_FIELD_NUMBER: _ClassVar[int]
    COMMIT_SHA_FIELD_NUMBER: _ClassVar[int]
    HIGH_RISK_FIELD_NUMBER: _ClassVar[int]
    IMAGES_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    MAX_ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    MILESTONE_END_FIELD_NUMBER: _ClassVar[int]
    PLAN_FIELD_NUMBER: _ClassVar[int]
    RERUN_FAILED_FIELD_NUMBER: _ClassVar[int]
    REVIEW_FIELD_NUMBER: _ClassVar[int]
    RUN_END_FIELD_NUMBER: _ClassVar[int]
    SECURITY_FIELD_NUMBER: _ClassVar[int]
    SELECTION_FIELD_NUMBER: _ClassVar[int]
    TESTS_FIELD_NUMBER: _ClassVar[int]
    TIME_BUDGET_FIELD_NUMBER: _ClassVar[int]
    changed_files: _containers.RepeatedScalarFieldContainer[str]
    commit_sha: str
    high_risk: bool
    images: _containers.ScalarMap[str, str]
    labels: _containers.ScalarMap[str, str]
    limits: _types_pb2.Limits
    max_attempts: int
    milestone_end: bool
    plan: str
    rerun_failed: bool
    review: ReviewOptions
    run_end: bool
    security: _types_pb2.SecurityMode
    selection: _containers.RepeatedCompositeFieldContainer[_events_pb2.CommandSelection]
    tests: _containers.RepeatedScalarFieldContainer[str]
    time_budget: _duration_pb2.Duration
    def __init__(self, changed_files: _Optional[_Iterable[str]] = ..., high_risk: bool = ..., milestone_end: bool = ..., run_end: bool = ..., time_budget: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., max_attempts: _Optional[int] = ..., limits: _Optional[_Union[_types_pb2.Limits, _Mapping]] = ..., selection: _Optional[_Iterable[_Union[_events_pb2.CommandSelection, _Mapping]]] = ..., commit_sha: _Optional[str] = ..., labels: _Optional[_Mapping[str, str]] = ..., images: _Optional[_Mapping[str, str]] = ..., rerun_failed: bool = ..., tests: _Optional[_Iterable[str]] = ..., review: _Optional[_Union[ReviewOptions, _Mapping]] = ..., plan: _Optional[str] = ..., security: _Optional[_Union[_types_pb2.SecurityMode, str]] = ...) -> None: ...

class VerifyRequest(_message.Message):
    __slots__ = ["detach", "options", "snapshot", "source_dir"]
    DETACH_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    SOURCE_DIR_FIELD_NUMBER: _ClassVar[int]
    detach: bool
    options: VerifyOptions
    snapshot: _types_pb2.Digest
    source_dir: str
    def __init__(self, snapshot: _Optional[_Union[_types_pb2.Digest, _Mapping]] = ..., options: _Optional[_Union[VerifyOptions, _Mapping]] = ..., source_dir: _Optional[str] = ..., detach: bool = ...) -> None: ...

class VerifyResponse(_message.Message):
    __slots__ = ["event"]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: RunEvent
    def __init__(self, event: _Optional[_Union[RunEvent, _Mapping]] = ...) -> None: ...

class WatchRunRequest(_message.Message):
    __slots__ = ["after_seq", "run_id"]
    AFTER_SEQ_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    after_seq: int
    run_id: str
    def __init__(self, run_id: _Optional[str] = ..., after_seq: _Optional[int] = ...) -> None: ...

class WatchRunResponse(_message.Message):
    __slots__ = ["event"]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: RunEvent
    def __init__(self, event: _Optional[_Union[RunEvent, _Mapping]] = ...) -> None: ...

class RunKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class RunStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ProviderKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
