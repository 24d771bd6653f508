import ctypes


def test_crash():
    ctypes.string_at(0)
