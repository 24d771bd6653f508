from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from greenlight_client.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Capabilities(_message.Message):
    __slots__ = ["commands", "configs", "max_level", "notes", "patch_allow", "risk_triggers", "subprojects", "time_budget"]
    COMMANDS_FIELD_NUMBER: _ClassVar[int]
    CONFIGS_FIELD_NUMBER: _ClassVar[int]
    MAX_LEVEL_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    PATCH_ALLOW_FIELD_NUMBER: _ClassVar[int]
    RISK_TRIGGERS_FIELD_NUMBER: _ClassVar[int]
    SUBPROJECTS_FIELD_NUMBER: _ClassVar[int]
    TIME_BUDGET_FIELD_NUMBER: _ClassVar[int]
    commands: _containers.RepeatedCompositeFieldContainer[_types_pb2.Step]
    configs: _containers.RepeatedCompositeFieldContainer[ConfigFile]
    max_level: _types_pb2.Level
    notes: _containers.RepeatedScalarFieldContainer[str]
    patch_allow: _containers.RepeatedScalarFieldContainer[str]
    risk_triggers: _containers.RepeatedCompositeFieldContainer[RiskTrigger]
    subprojects: _containers.RepeatedCompositeFieldContainer[Subproject]
    time_budget: _duration_pb2.Duration
    def __init__(self, subprojects: _Optional[_Iterable[_Union[Subproject, _Mapping]]] = ..., commands: _Optional[_Iterable[_Union[_types_pb2.Step, _Mapping]]] = ..., configs: _Optional[_Iterable[_Union[ConfigFile, _Mapping]]] = ..., risk_triggers: _Optional[_Iterable[_Union[RiskTrigger, _Mapping]]] = ..., max_level: _Optional[_Union[_types_pb2.Level, str]] = ..., notes: _Optional[_Iterable[str]] = ..., time_budget: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., patch_allow: _Optional[_Iterable[str]] = ...) -> None: ...

class CommandSelection(_message.Message):
    __slots__ = ["command", "name", "workdir"]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    WORKDIR_FIELD_NUMBER: _ClassVar[int]
    command: str
    name: str
    workdir: str
    def __init__(self, name: _Optional[str] = ..., command: _Optional[str] = ..., workdir: _Optional[str] = ...) -> None: ...

class ConfigFile(_message.Message):
    __slots__ = ["format", "path"]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    format: str
    path: str
    def __init__(self, path: _Optional[str] = ..., format: _Optional[str] = ...) -> None: ...

class LogChunk(_message.Message):
    __slots__ = ["data", "index", "offset", "step", "stream"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    STREAM_FIELD_NUMBER: _ClassVar[int]
    data: str
    index: int
    offset: int
    step: str
    stream: _types_pb2.Stream
    def __init__(self, index: _Optional[int] = ..., step: _Optional[str] = ..., stream: _Optional[_Union[_types_pb2.Stream, str]] = ..., data: _Optional[str] = ..., offset: _Optional[int] = ...) -> None: ...

class RiskTrigger(_message.Message):
    __slots__ = ["name", "patterns", "tier"]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PATTERNS_FIELD_NUMBER: _ClassVar[int]
    TIER_FIELD_NUMBER: _ClassVar[int]
    name: str
    patterns: _containers.RepeatedScalarFieldContainer[str]
    tier: _types_pb2.Tier
    def __init__(self, name: _Optional[str] = ..., patterns: _Optional[_Iterable[str]] = ..., tier: _Optional[_Union[_types_pb2.Tier, str]] = ...) -> None: ...

class StepFinished(_message.Message):
    __slots__ = ["index", "result"]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    index: int
    result: _types_pb2.StepResult
    def __init__(self, index: _Optional[int] = ..., result: _Optional[_Union[_types_pb2.StepResult, _Mapping]] = ...) -> None: ...

class StepStarted(_message.Message):
    __slots__ = ["index", "step", "time"]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    index: int
    step: _types_pb2.Step
    time: _timestamp_pb2.Timestamp
    def __init__(self, index: _Optional[int] = ..., step: _Optional[_Union[_types_pb2.Step, _Mapping]] = ..., time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Subproject(_message.Message):
    __slots__ = ["has_tests", "image", "linters", "markers", "package_manager", "root", "runtime", "test_frameworks", "versions"]
    HAS_TESTS_FIELD_NUMBER: _ClassVar[int]
    IMAGE_FIELD_NUMBER: _ClassVar[int]
    LINTERS_FIELD_NUMBER: _ClassVar[int]
    MARKERS_FIELD_NUMBER: _ClassVar[int]
    PACKAGE_MANAGER_FIELD_NUMBER: _ClassVar[int]
    ROOT_FIELD_NUMBER: _ClassVar[int]
    RUNTIME_FIELD_NUMBER: _ClassVar[int]
    TEST_FRAMEWORKS_FIELD_NUMBER: _ClassVar[int]
    VERSIONS_FIELD_NUMBER: _ClassVar[int]
    has_tests: bool
    image: str
    linters: _containers.RepeatedScalarFieldContainer[str]
    markers: _containers.RepeatedScalarFieldContainer[str]
    package_manager: str
    root: str
    runtime: str
    test_frameworks: _containers.RepeatedScalarFieldContainer[str]
    versions: _containers.RepeatedCompositeFieldContainer[VersionHint]
    def __init__(self, root: _Optional[str] = ..., runtime: _Optional[str] = ..., versions: _Optional[_Iterable[_Union[VersionHint, _Mapping]]] = ..., package_manager: _Optional[str] = ..., test_frameworks: _Optional[_Iterable[str]] = ..., linters: _Optional[_Iterable[str]] = ..., markers: _Optional[_Iterable[str]] = ..., image: _Optional[str] = ..., has_tests: bool = ...) -> None: ...

class VersionHint(_message.Message):
    __slots__ = ["source", "tool", "version"]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TOOL_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    source: str
    tool: str
    version: str
    def __init__(self, tool: _Optional[str] = ..., version: _Optional[str] = ..., source: _Optional[str] = ...) -> None: ...
