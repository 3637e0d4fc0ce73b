"""How a function's cost grows with its input: a growth exponent a busy, shared machine cannot fake.

The exponent compares the CPU time of one call at a small size and at RATIO times that size: 1.0
is linear, 2.0 quadratic. Three things keep it honest on a noisy 2-core machine shared with other
processes. CPU time of this thread, not the wall clock, so time spent descheduled is not counted.
The best (least) time of several interleaved repeats, since noise only ever adds time. And a size
ratio large enough that linear and quadratic are far apart: at 16x, linear work takes 16 times as
long and quadratic work 256 times, while the limit sits at 64 (an exponent of 1.5).
"""

import gc
import math
import time
from collections.abc import Callable

RATIO = 16
LIMIT = 1.5
# Repeats stop at the first MIN_REPEATS that are under the limit; more are taken only while the
# best times still say otherwise, so a slow moment on the machine costs a retry, not a failure.
MIN_REPEATS = 3
MAX_REPEATS = 6
# A short call is mostly fixed cost, which hides growth, and a small size finds only a steep
# regression: the small size is doubled until one call takes SHORTEST seconds, or the large size
# would pass LARGEST.
SHORTEST = 0.005
LARGEST = 1 << 24


def _cpu_seconds(function: Callable, argument: object) -> float:
    began = time.thread_time()
    function(argument)
    return time.thread_time() - began


def repeated(unit: str) -> Callable[[int], str]:
    """A maker of inputs: `unit` repeated to about n characters."""
    return lambda size: unit * (size // len(unit))


def growth_exponent(
    function: Callable, make: Callable[[int], object], small: int
) -> tuple[float, int]:
    """The growth exponent of `function(make(n))` from n = small (or more) to RATIO times that,
    and the small size it was measured from."""
    while small * 2 * RATIO <= LARGEST and _cpu_seconds(function, make(small)) < SHORTEST:
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
