"""The lines a relay hands the mediator: blank ones skipped, a last one without its break completed."""

import io

from support.mediators import mediator_for

from lazaretto.proxy.policy import parse_policy
from lazaretto.proxy.transport.client_link import ClientLink


def test_blank_lines_are_skipped_and_the_last_line_is_completed(store):
    link = ClientLink(mediator_for(store, parse_policy('[servers.web]\ntrust = "untrusted"\n')))
    stream = io.BytesIO(b'{"a":1}\n\n \t\r\n\x0b\x0c\n{"b":2}\n  {"c":3}')
    assert list(link._lines(stream, "server")) == [
        [b'{"a":1}\n'],
        [b'{"b":2}\n'],
        [b'  {"c":3}\n'],
    ]
