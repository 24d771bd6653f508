from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
FAILURE_KIND_COMPILE: FailureKind
FAILURE_KIND_CRASH: FailureKind
FAILURE_KIND_INSTALL: FailureKind
FAILURE_KIND_LINT: FailureKind
FAILURE_KIND_OOM: FailureKind
FAILURE_KIND_SECURITY: FailureKind
FAILURE_KIND_TEST_ASSERTION: FailureKind
FAILURE_KIND_TEST_ERROR: FailureKind
FAILURE_KIND_TIMEOUT: FailureKind
FAILURE_KIND_TYPECHECK: FailureKind
FAILURE_KIND_UNSPECIFIED: FailureKind
LEVEL_L1: Level
LEVEL_L2: Level
LEVEL_L3: Level
LEVEL_L4: Level
LEVEL_UNSPECIFIED: Level
PATCH_FORMAT_ENVELOPE: PatchFormat
PATCH_FORMAT_UNIFIED: PatchFormat
PATCH_FORMAT_UNSPECIFIED: PatchFormat
PHASE_BUILD: Phase
PHASE_INSTALL: Phase
PHASE_LINT: Phase
PHASE_SECURITY: Phase
PHASE_SMOKE: Phase
PHASE_TEST: Phase
PHASE_TYPECHECK: Phase
PHASE_UNSPECIFIED: Phase
RESOLUTION_FULL: Resolution
RESOLUTION_NO: Resolution
RESOLUTION_PARTIAL: Resolution
RESOLUTION_UNSPECIFIED: Resolution
SCORE_SOURCE_DETERMINISTIC: ScoreSource
SCORE_SOURCE_MODEL: ScoreSource
SCORE_SOURCE_UNSPECIFIED: ScoreSource
SECURITY_MODE_ADVISORY: SecurityMode
SECURITY_MODE_OFF: SecurityMode
SECURITY_MODE_REQUIRED: SecurityMode
SECURITY_MODE_UNSPECIFIED: SecurityMode
STEP_STATUS_CANCELED: StepStatus
STEP_STATUS_ERROR: StepStatus
STEP_STATUS_FAILED: StepStatus
STEP_STATUS_OK: StepStatus
STEP_STATUS_OOM_KILLED: StepStatus
STEP_STATUS_SKIPPED: StepStatus
STEP_STATUS_TIMED_OUT: StepStatus
STEP_STATUS_UNSPECIFIED: StepStatus
STREAM_STDERR: Stream
STREAM_STDOUT: Stream
STREAM_SYSTEM: Stream
STREAM_UNSPECIFIED: Stream
TEST_STATUS_ERROR: TestStatus
TEST_STATUS_FAILED: TestStatus
TEST_STATUS_PASSED: TestStatus
TEST_STATUS_SKIPPED: TestStatus
TEST_STATUS_UNSPECIFIED: TestStatus
TIER_0: Tier
TIER_1: Tier
TIER_2: Tier
TIER_UNSPECIFIED: Tier
TRANSITION_KIND_DISAPPEARED: TransitionKind
TRANSITION_KIND_FAIL_TO_FAIL: TransitionKind
TRANSITION_KIND_FAIL_TO_PASS: TransitionKind
TRANSITION_KIND_NEW: TransitionKind
TRANSITION_KIND_PASS_TO_FAIL: TransitionKind
TRANSITION_KIND_PASS_TO_PASS: TransitionKind
TRANSITION_KIND_UNSPECIFIED: TransitionKind
VERDICT_ERROR: Verdict
VERDICT_FAIL: Verdict
VERDICT_PASS: Verdict
VERDICT_UNSPECIFIED: Verdict

class Artifact(_message.Message):
    __slots__ = ["digest", "path"]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    digest: Digest
    path: str
    def __init__(self, path: _Optional[str] = ..., digest: _Optional[_Union[Digest, _Mapping]] = ...) -> None: ...

class CodeWindow(_message.Message):
    __slots__ = ["end_line", "file", "focus_line", "rank", "start_line", "text"]
    END_LINE_FIELD_NUMBER: _ClassVar[int]
    FILE_FIELD_NUMBER: _ClassVar[int]
    FOCUS_LINE_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    START_LINE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    end_line: int
    file: str
    focus_line: int
    rank: int
    start_line: int
    text: str
    def __init__(self, file: _Optional[str] = ..., start_line: _Optional[int] = ..., end_line: _Optional[int] = ..., focus_line: _Optional[int] = ..., text: _Optional[str] = ..., rank: _Optional[int] = ...) -> None: ...

class CommandRecord(_message.Message):
    __slots__ = ["command", "duration_ms", "exit_code", "name", "status", "workdir"]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    DURATION_MS_FIELD_NUMBER: _ClassVar[int]
    EXIT_CODE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    WORKDIR_FIELD_NUMBER: _ClassVar[int]
    command: str
    duration_ms: int
    exit_code: int
    name: str
    status: StepStatus
    workdir: str
    def __init__(self, name: _Optional[str] = ..., command: _Optional[str] = ..., exit_code: _Optional[int] = ..., duration_ms: _Optional[int] = ..., status: _Optional[_Union[StepStatus, str]] = ..., workdir: _Optional[str] = ...) -> None: ...

class CommandSource(_message.Message):
    __slots__ = ["file", "key", "line", "origin"]
    FILE_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    ORIGIN_FIELD_NUMBER: _ClassVar[int]
    file: str
    key: str
    line: int
    origin: str
    def __init__(self, file: _Optional[str] = ..., key: _Optional[str] = ..., line: _Optional[int] = ..., origin: _Optional[str] = ...) -> None: ...

class Coverage(_message.Message):
    __slots__ = ["baseline", "covered_lines", "files", "files_omitted", "percent", "tools", "total_lines"]
    BASELINE_FIELD_NUMBER: _ClassVar[int]
    COVERED_LINES_FIELD_NUMBER: _ClassVar[int]
    FILES_FIELD_NUMBER: _ClassVar[int]
    FILES_OMITTED_FIELD_NUMBER: _ClassVar[int]
    PERCENT_FIELD_NUMBER: _ClassVar[int]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_LINES_FIELD_NUMBER: _ClassVar[int]
    baseline: CoverageBaseline
    covered_lines: int
    files: _containers.RepeatedCompositeFieldContainer[FileCoverage]
    files_omitted: int
    percent: float
    tools: _containers.RepeatedScalarFieldContainer[str]
    total_lines: int
    def __init__(self, covered_lines: _Optional[int] = ..., total_lines: _Optional[int] = ..., percent: _Optional[float] = ..., files: _Optional[_Iterable[_Union[FileCoverage, _Mapping]]] = ..., tools: _Optional[_Iterable[str]] = ..., baseline: _Optional[_Union[CoverageBaseline, _Mapping]] = ..., files_omitted: _Optional[int] = ...) -> None: ...

class CoverageBaseline(_message.Message):
    __slots__ = ["covered_lines", "percent", "total_lines"]
    COVERED_LINES_FIELD_NUMBER: _ClassVar[int]
    PERCENT_FIELD_NUMBER: _ClassVar[int]
    TOTAL_LINES_FIELD_NUMBER: _ClassVar[int]
    covered_lines: int
    percent: float
    total_lines: int
    def __init__(self, covered_lines: _Optional[int] = ..., total_lines: _Optional[int] = ..., percent: _Optional[float] = ...) -> None: ...

class Digest(_message.Message):
    __slots__ = ["hash", "size_bytes"]
    HASH_FIELD_NUMBER: _ClassVar[int]
    SIZE_BYTES_FIELD_NUMBER: _ClassVar[int]
    hash: str
    size_bytes: int
    def __init__(self, hash: _Optional[str] = ..., size_bytes: _Optional[int] = ...) -> None: ...

class Evidence(_message.Message):
    __slots__ = ["command", "exit_code", "log_digest", "log_offset", "step", "workdir"]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    EXIT_CODE_FIELD_NUMBER: _ClassVar[int]
    LOG_DIGEST_FIELD_NUMBER: _ClassVar[int]
    LOG_OFFSET_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    WORKDIR_FIELD_NUMBER: _ClassVar[int]
    command: str
    exit_code: int
    log_digest: Digest
    log_offset: int
    step: str
    workdir: str
    def __init__(self, step: _Optional[str] = ..., command: _Optional[str] = ..., workdir: _Optional[str] = ..., exit_code: _Optional[int] = ..., log_offset: _Optional[int] = ..., log_digest: _Optional[_Union[Digest, _Mapping]] = ...) -> None: ...

class Failure(_message.Message):
    __slots__ = ["column", "evidence", "file", "flaky", "frames", "introduced", "kind", "line", "message", "rule", "severity", "test"]
    COLUMN_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    FILE_FIELD_NUMBER: _ClassVar[int]
    FLAKY_FIELD_NUMBER: _ClassVar[int]
    FRAMES_FIELD_NUMBER: _ClassVar[int]
    INTRODUCED_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    SEVERITY_FIELD_NUMBER: _ClassVar[int]
    TEST_FIELD_NUMBER: _ClassVar[int]
    column: int
    evidence: Evidence
    file: str
    flaky: bool
    frames: _containers.RepeatedCompositeFieldContainer[Frame]
    introduced: bool
    kind: FailureKind
    line: int
    message: str
    rule: str
    severity: str
    test: str
    def __init__(self, file: _Optional[str] = ..., line: _Optional[int] = ..., column: _Optional[int] = ..., kind: _Optional[_Union[FailureKind, str]] = ..., message: _Optional[str] = ..., test: _Optional[str] = ..., evidence: _Optional[_Union[Evidence, _Mapping]] = ..., frames: _Optional[_Iterable[_Union[Frame, _Mapping]]] = ..., flaky: bool = ..., rule: _Optional[str] = ..., severity: _Optional[str] = ..., introduced: bool = ...) -> None: ...

class FileCoverage(_message.Message):
    __slots__ = ["covered_lines", "new_file", "path", "percent", "total_lines", "uncovered_change"]
    COVERED_LINES_FIELD_NUMBER: _ClassVar[int]
    NEW_FILE_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    PERCENT_FIELD_NUMBER: _ClassVar[int]
    TOTAL_LINES_FIELD_NUMBER: _ClassVar[int]
    UNCOVERED_CHANGE_FIELD_NUMBER: _ClassVar[int]
    covered_lines: int
    new_file: bool
    path: str
    percent: float
    total_lines: int
    uncovered_change: int
    def __init__(self, path: _Optional[str] = ..., covered_lines: _Optional[int] = ..., total_lines: _Optional[int] = ..., percent: _Optional[float] = ..., uncovered_change: _Optional[int] = ..., new_file: bool = ...) -> None: ...

class Frame(_message.Message):
    __slots__ = ["column", "file", "function", "line", "project"]
    COLUMN_FIELD_NUMBER: _ClassVar[int]
    FILE_FIELD_NUMBER: _ClassVar[int]
    FUNCTION_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    PROJECT_FIELD_NUMBER: _ClassVar[int]
    column: int
    file: str
    function: str
    line: int
    project: bool
    def __init__(self, file: _Optional[str] = ..., line: _Optional[int] = ..., column: _Optional[int] = ..., function: _Optional[str] = ..., project: bool = ...) -> None: ...

class HiddenTests(_message.Message):
    __slots__ = ["failed", "failing", "missing", "passed"]
    FAILED_FIELD_NUMBER: _ClassVar[int]
    FAILING_FIELD_NUMBER: _ClassVar[int]
    MISSING_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    failed: int
    failing: _containers.RepeatedScalarFieldContainer[str]
    missing: int
    passed: int
    def __init__(self, passed: _Optional[int] = ..., failed: _Optional[int] = ..., missing: _Optional[int] = ..., failing: _Optional[_Iterable[str]] = ...) -> None: ...

class Limits(_message.Message):
    __slots__ = ["cpus", "log_bytes_per_step", "memory_bytes", "pids", "run_timeout", "tmpfs_bytes", "workspace_bytes"]
    CPUS_FIELD_NUMBER: _ClassVar[int]
    LOG_BYTES_PER_STEP_FIELD_NUMBER: _ClassVar[int]
    MEMORY_BYTES_FIELD_NUMBER: _ClassVar[int]
    PIDS_FIELD_NUMBER: _ClassVar[int]
    RUN_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    TMPFS_BYTES_FIELD_NUMBER: _ClassVar[int]
    WORKSPACE_BYTES_FIELD_NUMBER: _ClassVar[int]
    cpus: float
    log_bytes_per_step: int
    memory_bytes: int
    pids: int
    run_timeout: _duration_pb2.Duration
    tmpfs_bytes: int
    workspace_bytes: int
    def __init__(self, cpus: _Optional[float] = ..., memory_bytes: _Optional[int] = ..., pids: _Optional[int] = ..., tmpfs_bytes: _Optional[int] = ..., workspace_bytes: _Optional[int] = ..., log_bytes_per_step: _Optional[int] = ..., run_timeout: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class Manifest(_message.Message):
    __slots__ = ["commands_executed", "commit_sha", "limits", "platform", "run_id", "snapshot", "timestamp_end", "timestamp_start"]
    COMMANDS_EXECUTED_FIELD_NUMBER: _ClassVar[int]
    COMMIT_SHA_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    PLATFORM_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_END_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_START_FIELD_NUMBER: _ClassVar[int]
    commands_executed: _containers.RepeatedCompositeFieldContainer[CommandRecord]
    commit_sha: str
    limits: Limits
    platform: Platform
    run_id: str
    snapshot: Digest
    timestamp_end: _timestamp_pb2.Timestamp
    timestamp_start: _timestamp_pb2.Timestamp
    def __init__(self, run_id: _Optional[str] = ..., timestamp_start: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., timestamp_end: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., commit_sha: _Optional[str] = ..., snapshot: _Optional[_Union[Digest, _Mapping]] = ..., commands_executed: _Optional[_Iterable[_Union[CommandRecord, _Mapping]]] = ..., platform: _Optional[_Union[Platform, _Mapping]] = ..., limits: _Optional[_Union[Limits, _Mapping]] = ...) -> None: ...

class Partial(_message.Message):
    __slots__ = ["steps", "tests"]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    TESTS_FIELD_NUMBER: _ClassVar[int]
    steps: _containers.RepeatedScalarFieldContainer[str]
    tests: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, steps: _Optional[_Iterable[str]] = ..., tests: _Optional[_Iterable[str]] = ...) -> None: ...

class PatchOutcome(_message.Message):
    __slots__ = ["applied", "attempt", "diff", "failing_after", "failing_before", "files", "format", "hidden_tests", "lines_added", "lines_removed", "reason", "rolled_back", "rule", "snapshot_after", "snapshot_before", "transitions", "usage"]
    APPLIED_FIELD_NUMBER: _ClassVar[int]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    DIFF_FIELD_NUMBER: _ClassVar[int]
    FAILING_AFTER_FIELD_NUMBER: _ClassVar[int]
    FAILING_BEFORE_FIELD_NUMBER: _ClassVar[int]
    FILES_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_TESTS_FIELD_NUMBER: _ClassVar[int]
    LINES_ADDED_FIELD_NUMBER: _ClassVar[int]
    LINES_REMOVED_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    ROLLED_BACK_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_AFTER_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_BEFORE_FIELD_NUMBER: _ClassVar[int]
    TRANSITIONS_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    applied: bool
    attempt: int
    diff: str
    failing_after: int
    failing_before: int
    files: _containers.RepeatedScalarFieldContainer[str]
    format: PatchFormat
    hidden_tests: HiddenTests
    lines_added: int
    lines_removed: int
    reason: str
    rolled_back: bool
    rule: str
    snapshot_after: Digest
    snapshot_before: Digest
    transitions: Transitions
    usage: Usage
    def __init__(self, attempt: _Optional[int] = ..., diff: _Optional[str] = ..., format: _Optional[_Union[PatchFormat, str]] = ..., applied: bool = ..., rolled_back: bool = ..., reason: _Optional[str] = ..., lines_added: _Optional[int] = ..., lines_removed: _Optional[int] = ..., files: _Optional[_Iterable[str]] = ..., snapshot_before: _Optional[_Union[Digest, _Mapping]] = ..., snapshot_after: _Optional[_Union[Digest, _Mapping]] = ..., failing_before: _Optional[int] = ..., failing_after: _Optional[int] = ..., usage: _Optional[_Union[Usage, _Mapping]] = ..., rule: _Optional[str] = ..., transitions: _Optional[_Union[Transitions, _Mapping]] = ..., hidden_tests: _Optional[_Union[HiddenTests, _Mapping]] = ...) -> None: ...

class Pipeline(_message.Message):
    __slots__ = ["coverage_off", "coverage_score", "image", "limits", "max_level", "notes", "plan", "runtime", "steps", "tiers", "time_budget"]
    COVERAGE_OFF_FIELD_NUMBER: _ClassVar[int]
    COVERAGE_SCORE_FIELD_NUMBER: _ClassVar[int]
    IMAGE_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    MAX_LEVEL_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    PLAN_FIELD_NUMBER: _ClassVar[int]
    RUNTIME_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    TIERS_FIELD_NUMBER: _ClassVar[int]
    TIME_BUDGET_FIELD_NUMBER: _ClassVar[int]
    coverage_off: bool
    coverage_score: bool
    image: str
    limits: Limits
    max_level: Level
    notes: _containers.RepeatedScalarFieldContainer[str]
    plan: _containers.RepeatedCompositeFieldContainer[PlanCommand]
    runtime: str
    steps: _containers.RepeatedCompositeFieldContainer[Step]
    tiers: _containers.RepeatedCompositeFieldContainer[TierSelection]
    time_budget: _duration_pb2.Duration
    def __init__(self, runtime: _Optional[str] = ..., image: _Optional[str] = ..., steps: _Optional[_Iterable[_Union[Step, _Mapping]]] = ..., limits: _Optional[_Union[Limits, _Mapping]] = ..., tiers: _Optional[_Iterable[_Union[TierSelection, _Mapping]]] = ..., max_level: _Optional[_Union[Level, str]] = ..., notes: _Optional[_Iterable[str]] = ..., time_budget: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., plan: _Optional[_Iterable[_Union[PlanCommand, _Mapping]]] = ..., coverage_score: bool = ..., coverage_off: bool = ...) -> None: ...

class PlanCommand(_message.Message):
    __slots__ = ["block", "command", "line", "refused", "step"]
    BLOCK_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    block: str
    command: str
    line: int
    refused: str
    step: str
    def __init__(self, block: _Optional[str] = ..., command: _Optional[str] = ..., line: _Optional[int] = ..., step: _Optional[str] = ..., refused: _Optional[str] = ...) -> None: ...

class Platform(_message.Message):
    __slots__ = ["arch", "container_image", "engine_version", "executor", "image_digest", "os"]
    ARCH_FIELD_NUMBER: _ClassVar[int]
    CONTAINER_IMAGE_FIELD_NUMBER: _ClassVar[int]
    ENGINE_VERSION_FIELD_NUMBER: _ClassVar[int]
    EXECUTOR_FIELD_NUMBER: _ClassVar[int]
    IMAGE_DIGEST_FIELD_NUMBER: _ClassVar[int]
    OS_FIELD_NUMBER: _ClassVar[int]
    arch: str
    container_image: str
    engine_version: str
    executor: str
    image_digest: str
    os: str
    def __init__(self, os: _Optional[str] = ..., arch: _Optional[str] = ..., container_image: _Optional[str] = ..., image_digest: _Optional[str] = ..., engine_version: _Optional[str] = ..., executor: _Optional[str] = ...) -> None: ...

class Result(_message.Message):
    __slots__ = ["artifact_paths", "artifacts", "counts", "coverage", "failures", "infra_retries", "inventory", "level", "manifest", "partial", "plan", "review", "run_id", "score", "status", "steps", "stop_memo", "summary", "tail_log", "tests", "tiers"]
    ARTIFACTS_FIELD_NUMBER: _ClassVar[int]
    ARTIFACT_PATHS_FIELD_NUMBER: _ClassVar[int]
    COUNTS_FIELD_NUMBER: _ClassVar[int]
    COVERAGE_FIELD_NUMBER: _ClassVar[int]
    FAILURES_FIELD_NUMBER: _ClassVar[int]
    INFRA_RETRIES_FIELD_NUMBER: _ClassVar[int]
    INVENTORY_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    MANIFEST_FIELD_NUMBER: _ClassVar[int]
    PARTIAL_FIELD_NUMBER: _ClassVar[int]
    PLAN_FIELD_NUMBER: _ClassVar[int]
    REVIEW_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    STOP_MEMO_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    TAIL_LOG_FIELD_NUMBER: _ClassVar[int]
    TESTS_FIELD_NUMBER: _ClassVar[int]
    TIERS_FIELD_NUMBER: _ClassVar[int]
    artifact_paths: _containers.RepeatedScalarFieldContainer[str]
    artifacts: _containers.RepeatedCompositeFieldContainer[Artifact]
    counts: TestCounts
    coverage: Coverage
    failures: _containers.RepeatedCompositeFieldContainer[Failure]
    infra_retries: _containers.RepeatedScalarFieldContainer[str]
    inventory: TestInventory
    level: Level
    manifest: Manifest
    partial: Partial
    plan: _containers.RepeatedCompositeFieldContainer[PlanCommand]
    review: Review
    run_id: str
    score: Score
    status: Verdict
    steps: _containers.RepeatedCompositeFieldContainer[StepResult]
    stop_memo: str
    summary: str
    tail_log: str
    tests: _containers.RepeatedCompositeFieldContainer[TestCase]
    tiers: _containers.RepeatedCompositeFieldContainer[TierSelection]
    def __init__(self, status: _Optional[_Union[Verdict, str]] = ..., run_id: _Optional[str] = ..., tail_log: _Optional[str] = ..., artifact_paths: _Optional[_Iterable[str]] = ..., manifest: _Optional[_Union[Manifest, _Mapping]] = ..., steps: _Optional[_Iterable[_Union[StepResult, _Mapping]]] = ..., counts: _Optional[_Union[TestCounts, _Mapping]] = ..., failures: _Optional[_Iterable[_Union[Failure, _Mapping]]] = ..., score: _Optional[_Union[Score, _Mapping]] = ..., level: _Optional[_Union[Level, str]] = ..., tests: _Optional[_Iterable[_Union[TestCase, _Mapping]]] = ..., artifacts: _Optional[_Iterable[_Union[Artifact, _Mapping]]] = ..., summary: _Optional[str] = ..., tiers: _Optional[_Iterable[_Union[TierSelection, _Mapping]]] = ..., stop_memo: _Optional[str] = ..., inventory: _Optional[_Union[TestInventory, _Mapping]] = ..., infra_retries: _Optional[_Iterable[str]] = ..., partial: _Optional[_Union[Partial, _Mapping]] = ..., review: _Optional[_Union[Review, _Mapping]] = ..., coverage: _Optional[_Union[Coverage, _Mapping]] = ..., plan: _Optional[_Iterable[_Union[PlanCommand, _Mapping]]] = ...) -> None: ...

class Review(_message.Message):
    __slots__ = ["created_at", "criteria", "error", "issues", "overall", "profile", "summary", "usage"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CRITERIA_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    OVERALL_FIELD_NUMBER: _ClassVar[int]
    PROFILE_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    criteria: _containers.RepeatedCompositeFieldContainer[ReviewCriterion]
    error: str
    issues: _containers.RepeatedScalarFieldContainer[str]
    overall: float
    profile: str
    summary: str
    usage: Usage
    def __init__(self, profile: _Optional[str] = ..., criteria: _Optional[_Iterable[_Union[ReviewCriterion, _Mapping]]] = ..., overall: _Optional[float] = ..., summary: _Optional[str] = ..., issues: _Optional[_Iterable[str]] = ..., error: _Optional[str] = ..., usage: _Optional[_Union[Usage, _Mapping]] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ReviewCriterion(_message.Message):
    __slots__ = ["comment", "max", "name", "score"]
    COMMENT_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    comment: str
    max: float
    name: str
    score: float
    def __init__(self, name: _Optional[str] = ..., score: _Optional[float] = ..., max: _Optional[float] = ..., comment: _Optional[str] = ...) -> None: ...

class Score(_message.Message):
    __slots__ = ["build", "coverage", "coverage_measured", "decided_by", "has_model_score", "level", "lint", "lint_issues", "model_score", "no_critical", "rule", "security", "security_findings", "security_ran", "tests", "total"]
    BUILD_FIELD_NUMBER: _ClassVar[int]
    COVERAGE_FIELD_NUMBER: _ClassVar[int]
    COVERAGE_MEASURED_FIELD_NUMBER: _ClassVar[int]
    DECIDED_BY_FIELD_NUMBER: _ClassVar[int]
    HAS_MODEL_SCORE_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    LINT_FIELD_NUMBER: _ClassVar[int]
    LINT_ISSUES_FIELD_NUMBER: _ClassVar[int]
    MODEL_SCORE_FIELD_NUMBER: _ClassVar[int]
    NO_CRITICAL_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    SECURITY_FIELD_NUMBER: _ClassVar[int]
    SECURITY_FINDINGS_FIELD_NUMBER: _ClassVar[int]
    SECURITY_RAN_FIELD_NUMBER: _ClassVar[int]
    TESTS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    build: float
    coverage: float
    coverage_measured: bool
    decided_by: ScoreSource
    has_model_score: bool
    level: Level
    lint: float
    lint_issues: int
    model_score: float
    no_critical: float
    rule: str
    security: float
    security_findings: int
    security_ran: bool
    tests: float
    total: float
    def __init__(self, total: _Optional[float] = ..., build: _Optional[float] = ..., tests: _Optional[float] = ..., lint: _Optional[float] = ..., no_critical: _Optional[float] = ..., level: _Optional[_Union[Level, str]] = ..., model_score: _Optional[float] = ..., has_model_score: bool = ..., decided_by: _Optional[_Union[ScoreSource, str]] = ..., rule: _Optional[str] = ..., lint_issues: _Optional[int] = ..., security: _Optional[float] = ..., security_findings: _Optional[int] = ..., security_ran: bool = ..., coverage: _Optional[float] = ..., coverage_measured: bool = ...) -> None: ...

class Step(_message.Message):
    __slots__ = ["cache_key_files", "cache_paths", "command", "continue_on_failure", "display_command", "env", "failure_scope", "group", "image", "level", "name", "network", "optional", "phase", "report_files", "required_by", "source", "subproject", "tier", "timeout", "toolchain_only", "workdir"]
    class EnvEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    CACHE_KEY_FILES_FIELD_NUMBER: _ClassVar[int]
    CACHE_PATHS_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    CONTINUE_ON_FAILURE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_COMMAND_FIELD_NUMBER: _ClassVar[int]
    ENV_FIELD_NUMBER: _ClassVar[int]
    FAILURE_SCOPE_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    IMAGE_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    NETWORK_FIELD_NUMBER: _ClassVar[int]
    OPTIONAL_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    REPORT_FILES_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_BY_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    SUBPROJECT_FIELD_NUMBER: _ClassVar[int]
    TIER_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    TOOLCHAIN_ONLY_FIELD_NUMBER: _ClassVar[int]
    WORKDIR_FIELD_NUMBER: _ClassVar[int]
    cache_key_files: _containers.RepeatedScalarFieldContainer[str]
    cache_paths: _containers.RepeatedScalarFieldContainer[str]
    command: str
    continue_on_failure: bool
    display_command: str
    env: _containers.ScalarMap[str, str]
    failure_scope: str
    group: str
    image: str
    level: Level
    name: str
    network: bool
    optional: bool
    phase: Phase
    report_files: _containers.RepeatedScalarFieldContainer[str]
    required_by: CommandSource
    source: CommandSource
    subproject: str
    tier: Tier
    timeout: _duration_pb2.Duration
    toolchain_only: bool
    workdir: str
    def __init__(self, name: _Optional[str] = ..., phase: _Optional[_Union[Phase, str]] = ..., command: _Optional[str] = ..., workdir: _Optional[str] = ..., env: _Optional[_Mapping[str, str]] = ..., timeout: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., network: bool = ..., tier: _Optional[_Union[Tier, str]] = ..., level: _Optional[_Union[Level, str]] = ..., continue_on_failure: bool = ..., group: _Optional[str] = ..., source: _Optional[_Union[CommandSource, _Mapping]] = ..., subproject: _Optional[str] = ..., image: _Optional[str] = ..., cache_key_files: _Optional[_Iterable[str]] = ..., cache_paths: _Optional[_Iterable[str]] = ..., optional: bool = ..., report_files: _Optional[_Iterable[str]] = ..., failure_scope: _Optional[str] = ..., display_command: _Optional[str] = ..., required_by: _Optional[_Union[CommandSource, _Mapping]] = ..., toolchain_only: bool = ...) -> None: ...

class StepResult(_message.Message):
    __slots__ = ["cache_hit", "cache_note", "command", "counts", "display_command", "duration", "exit_code", "finished_at", "image", "level", "lint_issues", "log_digest", "name", "optional", "output_bytes", "phase", "reason", "rule", "source", "started_at", "status", "tail", "tier", "truncated", "workdir"]
    CACHE_HIT_FIELD_NUMBER: _ClassVar[int]
    CACHE_NOTE_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    COUNTS_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_COMMAND_FIELD_NUMBER: _ClassVar[int]
    DURATION_FIELD_NUMBER: _ClassVar[int]
    EXIT_CODE_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_FIELD_NUMBER: _ClassVar[int]
    IMAGE_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    LINT_ISSUES_FIELD_NUMBER: _ClassVar[int]
    LOG_DIGEST_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONAL_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_BYTES_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TAIL_FIELD_NUMBER: _ClassVar[int]
    TIER_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    WORKDIR_FIELD_NUMBER: _ClassVar[int]
    cache_hit: bool
    cache_note: str
    command: str
    counts: TestCounts
    display_command: str
    duration: _duration_pb2.Duration
    exit_code: int
    finished_at: _timestamp_pb2.Timestamp
    image: str
    level: Level
    lint_issues: int
    log_digest: Digest
    name: str
    optional: bool
    output_bytes: int
    phase: Phase
    reason: str
    rule: str
    source: CommandSource
    started_at: _timestamp_pb2.Timestamp
    status: StepStatus
    tail: str
    tier: Tier
    truncated: bool
    workdir: str
    def __init__(self, name: _Optional[str] = ..., phase: _Optional[_Union[Phase, str]] = ..., command: _Optional[str] = ..., workdir: _Optional[str] = ..., exit_code: _Optional[int] = ..., status: _Optional[_Union[StepStatus, str]] = ..., started_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., finished_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., duration: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., log_digest: _Optional[_Union[Digest, _Mapping]] = ..., tail: _Optional[str] = ..., truncated: bool = ..., output_bytes: _Optional[int] = ..., reason: _Optional[str] = ..., cache_hit: bool = ..., tier: _Optional[_Union[Tier, str]] = ..., level: _Optional[_Union[Level, str]] = ..., image: _Optional[str] = ..., optional: bool = ..., counts: _Optional[_Union[TestCounts, _Mapping]] = ..., lint_issues: _Optional[int] = ..., cache_note: _Optional[str] = ..., display_command: _Optional[str] = ..., rule: _Optional[str] = ..., source: _Optional[_Union[CommandSource, _Mapping]] = ...) -> None: ...

class TestCase(_message.Message):
    __slots__ = ["duration", "file", "flaky", "id", "line", "message", "name", "status", "step", "suite"]
    DURATION_FIELD_NUMBER: _ClassVar[int]
    FILE_FIELD_NUMBER: _ClassVar[int]
    FLAKY_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    SUITE_FIELD_NUMBER: _ClassVar[int]
    duration: _duration_pb2.Duration
    file: str
    flaky: bool
    id: str
    line: int
    message: str
    name: str
    status: TestStatus
    step: str
    suite: str
    def __init__(self, id: _Optional[str] = ..., suite: _Optional[str] = ..., name: _Optional[str] = ..., status: _Optional[_Union[TestStatus, str]] = ..., duration: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., message: _Optional[str] = ..., file: _Optional[str] = ..., line: _Optional[int] = ..., flaky: bool = ..., step: _Optional[str] = ...) -> None: ...

class TestCounts(_message.Message):
    __slots__ = ["errors", "failed", "flaky", "format", "incomplete", "incomplete_reason", "omitted", "passed", "skipped", "total"]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    FAILED_FIELD_NUMBER: _ClassVar[int]
    FLAKY_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    INCOMPLETE_FIELD_NUMBER: _ClassVar[int]
    INCOMPLETE_REASON_FIELD_NUMBER: _ClassVar[int]
    OMITTED_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    SKIPPED_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    errors: int
    failed: int
    flaky: int
    format: str
    incomplete: bool
    incomplete_reason: str
    omitted: int
    passed: int
    skipped: int
    total: int
    def __init__(self, passed: _Optional[int] = ..., failed: _Optional[int] = ..., skipped: _Optional[int] = ..., errors: _Optional[int] = ..., total: _Optional[int] = ..., flaky: _Optional[int] = ..., format: _Optional[str] = ..., omitted: _Optional[int] = ..., incomplete: bool = ..., incomplete_reason: _Optional[str] = ...) -> None: ...

class TestInventory(_message.Message):
    __slots__ = ["blob", "complete", "tests"]
    BLOB_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    TESTS_FIELD_NUMBER: _ClassVar[int]
    blob: Digest
    complete: bool
    tests: int
    def __init__(self, blob: _Optional[_Union[Digest, _Mapping]] = ..., tests: _Optional[int] = ..., complete: bool = ...) -> None: ...

class TestTransition(_message.Message):
    __slots__ = ["after", "before", "id", "kind", "step", "target"]
    AFTER_FIELD_NUMBER: _ClassVar[int]
    BEFORE_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    after: TestStatus
    before: TestStatus
    id: str
    kind: TransitionKind
    step: str
    target: bool
    def __init__(self, step: _Optional[str] = ..., id: _Optional[str] = ..., kind: _Optional[_Union[TransitionKind, str]] = ..., before: _Optional[_Union[TestStatus, str]] = ..., after: _Optional[_Union[TestStatus, str]] = ..., target: bool = ...) -> None: ...

class TierSelection(_message.Message):
    __slots__ = ["reasons", "selected", "tier"]
    REASONS_FIELD_NUMBER: _ClassVar[int]
    SELECTED_FIELD_NUMBER: _ClassVar[int]
    TIER_FIELD_NUMBER: _ClassVar[int]
    reasons: _containers.RepeatedScalarFieldContainer[str]
    selected: bool
    tier: Tier
    def __init__(self, tier: _Optional[_Union[Tier, str]] = ..., selected: bool = ..., reasons: _Optional[_Iterable[str]] = ...) -> None: ...

class Transitions(_message.Message):
    __slots__ = ["changes", "changes_omitted", "complete", "disappeared", "fail_to_fail", "fail_to_pass", "failing_fail_to_pass", "failing_outside_target", "failing_pass_to_pass", "failing_target_steps", "new_tests", "pass_to_fail", "pass_to_pass", "resolution", "target_fail_to_pass", "target_fail_to_pass_passed", "target_pass_to_pass", "target_pass_to_pass_passed"]
    CHANGES_FIELD_NUMBER: _ClassVar[int]
    CHANGES_OMITTED_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    DISAPPEARED_FIELD_NUMBER: _ClassVar[int]
    FAILING_FAIL_TO_PASS_FIELD_NUMBER: _ClassVar[int]
    FAILING_OUTSIDE_TARGET_FIELD_NUMBER: _ClassVar[int]
    FAILING_PASS_TO_PASS_FIELD_NUMBER: _ClassVar[int]
    FAILING_TARGET_STEPS_FIELD_NUMBER: _ClassVar[int]
    FAIL_TO_FAIL_FIELD_NUMBER: _ClassVar[int]
    FAIL_TO_PASS_FIELD_NUMBER: _ClassVar[int]
    NEW_TESTS_FIELD_NUMBER: _ClassVar[int]
    PASS_TO_FAIL_FIELD_NUMBER: _ClassVar[int]
    PASS_TO_PASS_FIELD_NUMBER: _ClassVar[int]
    RESOLUTION_FIELD_NUMBER: _ClassVar[int]
    TARGET_FAIL_TO_PASS_FIELD_NUMBER: _ClassVar[int]
    TARGET_FAIL_TO_PASS_PASSED_FIELD_NUMBER: _ClassVar[int]
    TARGET_PASS_TO_PASS_FIELD_NUMBER: _ClassVar[int]
    TARGET_PASS_TO_PASS_PASSED_FIELD_NUMBER: _ClassVar[int]
    changes: _containers.RepeatedCompositeFieldContainer[TestTransition]
    changes_omitted: int
    complete: bool
    disappeared: int
    fail_to_fail: int
    fail_to_pass: int
    failing_fail_to_pass: _containers.RepeatedScalarFieldContainer[str]
    failing_outside_target: _containers.RepeatedScalarFieldContainer[str]
    failing_pass_to_pass: _containers.RepeatedScalarFieldContainer[str]
    failing_target_steps: _containers.RepeatedScalarFieldContainer[str]
    new_tests: int
    pass_to_fail: int
    pass_to_pass: int
    resolution: Resolution
    target_fail_to_pass: int
    target_fail_to_pass_passed: int
    target_pass_to_pass: int
    target_pass_to_pass_passed: int
    def __init__(self, fail_to_pass: _Optional[int] = ..., pass_to_pass: _Optional[int] = ..., pass_to_fail: _Optional[int] = ..., fail_to_fail: _Optional[int] = ..., new_tests: _Optional[int] = ..., disappeared: _Optional[int] = ..., changes: _Optional[_Iterable[_Union[TestTransition, _Mapping]]] = ..., changes_omitted: _Optional[int] = ..., resolution: _Optional[_Union[Resolution, str]] = ..., target_fail_to_pass: _Optional[int] = ..., target_fail_to_pass_passed: _Optional[int] = ..., target_pass_to_pass: _Optional[int] = ..., target_pass_to_pass_passed: _Optional[int] = ..., failing_target_steps: _Optional[_Iterable[str]] = ..., failing_outside_target: _Optional[_Iterable[str]] = ..., complete: bool = ..., failing_fail_to_pass: _Optional[_Iterable[str]] = ..., failing_pass_to_pass: _Optional[_Iterable[str]] = ...) -> None: ...

class Usage(_message.Message):
    __slots__ = ["completion_tokens", "cost", "prompt_tokens"]
    COMPLETION_TOKENS_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    PROMPT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    completion_tokens: int
    cost: float
    prompt_tokens: int
    def __init__(self, prompt_tokens: _Optional[int] = ..., completion_tokens: _Optional[int] = ..., cost: _Optional[float] = ...) -> None: ...

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Tier(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Level(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class StepStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Stream(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Verdict(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class TestStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class FailureKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class SecurityMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ScoreSource(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class TransitionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Resolution(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class PatchFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
