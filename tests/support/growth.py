"""How a function's cost grows with its input: a growth exponent a busy, shared machine cannot fake.

The exponent compares the CPU time of one call at a small size and at RATIO times that size: 1.0
is linear, 2.0 quadratic. CPU time of this thread, not the wall clock, so time spent descheduled
is not counted; the best (least) time of several interleaved repeats, since noise only ever adds
time; and a size ratio large enough that neither noise nor the memory hierarchy can pass for
growth. At 64x, linear work takes 64 times as long and quadratic work 4096 times; the limit, an
exponent of 1.5, is 512 times, so a regression fails once it makes the large size about eight
times slower than linear work would be. A linear function whose text outgrows a cache level on
the way does cost more per character at the large size, up to about three times as much on the
inputs tested here, which reads as an exponent of 1.3.
"""

import gc
import math
import time
from collections.abc import Callable

RATIO = 64
LIMIT = 1.5
# Repeats stop once MIN_REPEATS are taken and the exponent is under the limit; while it is not,
# up to MAX_REPEATS are taken, so a slow moment on the machine costs a retry, not a failure.
MIN_REPEATS = 2
MAX_REPEATS = 4
# A short call is mostly fixed cost, which hides growth: the small size is doubled until one call
# takes SHORTEST seconds, or until the large size would pass LARGEST.
SHORTEST = 0.001
LARGEST = 1 << 24


def _cpu_seconds(function: Callable, argument: object) -> float:
    began = time.thread_time()
    function(argument)
    return time.thread_time() - began


def _best_of_two(function: Callable, argument: object) -> float:
    return min(_cpu_seconds(function, argument), _cpu_seconds(function, argument))


def repeated(unit: str) -> Callable[[int], str]:
    """A maker of inputs: `unit` repeated to about n characters."""
    return lambda size: unit * (size // len(unit))


def growth_exponent(
    function: Callable, make: Callable[[int], object], small: int
) -> tuple[float, int]:
    """The growth exponent of `function(make(n))` from n = small (or more) to RATIO times that,
    and the small size it was measured from."""
    function(make(small))  # the first call may compile patterns or fill caches: not growth
    while small * 2 * RATIO <= LARGEST and _best_of_two(function, make(small)) < SHORTEST:
        small *= 2
    inputs = (make(small), make(small * RATIO))
    best = [math.inf, math.inf]
    exponent = math.inf
    enabled = gc.isenabled()
    gc.disable()  # a collection landing in one reading would count a whole heap walk
    try:
        for repeat in range(1, MAX_REPEATS + 1):
            for i, argument in enumerate(inputs):
                best[i] = min(best[i], _cpu_seconds(function, argument))
            exponent = math.log(best[1] / best[0]) / math.log(RATIO)
            if repeat >= MIN_REPEATS and exponent <= LIMIT:
                break
    finally:
        if enabled:
            gc.enable()
    return exponent, small


def assert_linear(function: Callable, make: Callable[[int], object], small: int, name: str) -> None:
    """Fail unless `function(make(n))` grows at most linearly (up to LIMIT) from `small` on."""
    exponent, small = growth_exponent(function, make, small)
    assert exponent <= LIMIT, (
        f"{name}: cost grows as n^{exponent:.2f} from {small} to {small * RATIO} (limit n^{LIMIT})"
    )
