"""A hook leaves a remote server's calls to its proxy: `lazaretto proxy --url` counts as a proxy."""

from lazaretto.proxy.hooks.proxied import proxy_server


def test_a_remote_proxy_command_line_serves_its_name():
    argv = ["/usr/bin/lazaretto", "proxy", "-n", "linear", "--url", "https://mcp.linear.app/mcp"]
    assert proxy_server(argv) == "linear"
    python = ["python3", "-m", "lazaretto.app", "proxy", "--url", "https://mcp.linear.app/mcp"]
    assert proxy_server(python) == "mcp.linear.app"  # no -n: the URL's host, as the proxy names it
    assert proxy_server(["lazaretto", "proxy", "-n", "x"]) is None  # neither a command nor a URL
