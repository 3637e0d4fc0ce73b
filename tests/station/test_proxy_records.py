"""Through a station a client records only itself as a running proxy: the process id is the kernel's.

A hostile process that reaches the station cannot record another process (the real proxy's
look-alike, or the client) as the proxy of a server: whatever id it sends, its own is written.
"""

import os

from lazaretto.proxy.presence import start_time


def test_a_client_records_itself_whatever_id_it_sends(client, station):
    started = start_time(os.getpid())
    assert started is not None
    client.proxies.register(pid=1, started=started, server="slack", session="s")
    [record] = client.proxies.of_session("s")
    assert (record["pid"], record["started"], record["server"]) == (os.getpid(), started, "slack")
    client.proxies.unregister(pid=1, started=started)
    assert client.proxies.of_session("s") == []
