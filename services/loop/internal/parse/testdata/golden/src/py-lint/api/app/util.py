import os
import sys


def greet(name: str) -> int:
    unused = 1
    return "hello " + name


def count(xs: list[int]) -> str:
    return len(xs)
