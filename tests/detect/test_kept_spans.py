"""The rules reading's index of kept spans answers as asking every kept span would."""

from hypothesis import given, settings
from hypothesis import strategies as st

from lazaretto.proxy.detect.rules_reading import _Spans

_SPAN = st.tuples(st.sampled_from("ab"), st.integers(0, 30), st.integers(0, 8))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_SPAN, st.booleans()), max_size=40))
def test_overlaps_are_those_of_every_span_kept(steps):
    # Each step asks about a span, then keeps it or not; zero-length spans included.
    spans = _Spans([(kind, start) for (kind, start, _), _ in steps])
    kept: list[tuple[str, int, int]] = []
    for (kind, start, length), keep in steps:
        end = start + length
        naive = any(k == kind and s < end and start < e for k, s, e in kept)
        assert spans.overlaps(kind, start, end) is naive
        if keep:
            spans.add(kind, start, end)
            kept.append((kind, start, end))
