"""mylib lives in src/: its tests import it only once it is installed."""


def add(a, b):
    return a + b
