"""A calculator."""


def mul(a, b):
    return a + b


def neg(a):
    return -a
