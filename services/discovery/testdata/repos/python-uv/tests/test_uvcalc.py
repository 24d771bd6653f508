import pytest

from uvcalc import inc


def test_inc():
    assert inc(1) == 2
