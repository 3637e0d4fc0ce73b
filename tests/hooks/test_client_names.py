"""One list of hook clients: every name the thin hook and the refusals know has an adapter."""

import importlib

from lazaretto.proxy.hooks import clients, dispatch


def test_every_named_client_has_an_adapter_with_events():
    assert set(dispatch.CLIENTS) == set(clients.CLIENTS)
    for name in clients.CLIENTS:
        adapter = importlib.import_module(dispatch.CLIENTS[name])
        assert adapter.EVENTS, name
        assert callable(adapter.handle) and callable(adapter.fail), name
