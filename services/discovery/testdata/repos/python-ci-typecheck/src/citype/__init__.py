"""A package whose CI type-checks it with a pinned mypy."""


def double(n: int) -> int:
    """Twice n."""
    return n * 2


def untyped(x):
    """Strict mode flags the missing annotations, whatever the version."""
    return x
