"""Arithmetic used by the unittest golden cases."""


def add(a, b):
    return a + b


def mean(xs):
    return sum(xs) / len(xs)
