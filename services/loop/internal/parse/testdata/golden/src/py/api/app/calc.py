"""Arithmetic helpers."""


def add(a, b):
    return a + b


def div(a, b):
    return a / b


def mean(xs):
    total = 0
    for x in xs:
        total = add(total, x)
    return div(total, len(xs))
