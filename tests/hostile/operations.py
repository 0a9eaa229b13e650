"""Counting the work a piece of code does, for tests about how it grows with its input.

A timed test fails on a loaded machine and passes on a fast one whatever the code does; the
number of Python function calls a piece of work makes is the same on every run. Linear code
makes about ten times the calls for ten times the input, quadratic code about a hundred.
Speed itself is measured by `bench/`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import TypeVar

T = TypeVar("T")


def python_calls(work: Callable[[], T]) -> tuple[T, int]:
    """Run `work` and return its result and the number of Python function calls it made."""
    count = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal count
        if event == "call":
            count += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = work()
    finally:
        sys.setprofile(previous)
    return result, count


def calls_made(work: Callable[[], T]) -> tuple[T, int]:
    """Run `work` and return its result and the number of function calls it made, those of
    built-in functions and methods (`str.startswith`) included: a loop that only calls
    built-ins makes no Python call, however many times it turns."""
    count = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = work()
    finally:
        sys.setprofile(previous)
    return result, count
