from greenlight_client.v1 import types_pb2 as _types_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ReadRequest(_message.Message):
    __slots__ = ["digest", "limit", "offset"]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    digest: _types_pb2.Digest
    limit: int
    offset: int
    def __init__(self, digest: _Optional[_Union[_types_pb2.Digest, _Mapping]] = ..., offset: _Optional[int] = ..., limit: _Optional[int] = ...) -> None: ...

class ReadResponse(_message.Message):
    __slots__ = ["data"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    data: bytes
    def __init__(self, data: _Optional[bytes] = ...) -> None: ...

class StatRequest(_message.Message):
    __slots__ = ["digest"]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    digest: _types_pb2.Digest
    def __init__(self, digest: _Optional[_Union[_types_pb2.Digest, _Mapping]] = ...) -> None: ...

class StatResponse(_message.Message):
    __slots__ = ["found", "size_bytes"]
    FOUND_FIELD_NUMBER: _ClassVar[int]
    SIZE_BYTES_FIELD_NUMBER: _ClassVar[int]
    found: bool
    size_bytes: int
    def __init__(self, found: bool = ..., size_bytes: _Optional[int] = ...) -> None: ...

class WriteRequest(_message.Message):
    __slots__ = ["data", "digest", "finish_write"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    FINISH_WRITE_FIELD_NUMBER: _ClassVar[int]
    data: bytes
    digest: _types_pb2.Digest
    finish_write: bool
    def __init__(self, digest: _Optional[_Union[_types_pb2.Digest, _Mapping]] = ..., data: _Optional[bytes] = ..., finish_write: bool = ...) -> None: ...

class WriteResponse(_message.Message):
    __slots__ = ["already_existed", "digest"]
    ALREADY_EXISTED_FIELD_NUMBER: _ClassVar[int]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    already_existed: bool
    digest: _types_pb2.Digest
    def __init__(self, digest: _Optional[_Union[_types_pb2.Digest, _Mapping]] = ..., already_existed: bool = ...) -> None: ...
