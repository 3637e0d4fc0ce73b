"""allow_hosts against real URL parsers: every host any of them reaches is checked.

The attacker writes a host that is not on the list so that the check reads an allowed one (or
none) while the client that runs the call reaches theirs. Each spelling below is first shown to
send at least one real parser (WHATWG, urllib, httpx, urllib3, curl) to the attacker's host;
then the host check must name every host each parser reaches, and the gate must refuse the call
on a clean session. Allowed hosts, spelled as people spell them, must still pass.
"""

import pytest
from support.growth import assert_linear, repeated
from support.url_parsers import curl_parser, hosts_reached

from lazaretto.proxy.classify import classify
from lazaretto.proxy.gate.check import Gate
from lazaretto.proxy.gate.hosts import HostAllowList, hosts_in, hosts_of_url
from lazaretto.proxy.policy import parse_policy

ALLOW = ["github.com", "*.githubusercontent.com", "127.0.0.1", "exämple.com", "faß.example"]

# (URL, the attacker's host that at least one real parser reaches), one per kind of spelling.
ATTACKS = {
    "backslash before user info": ("http://github.com\\@evil.example/", "evil.example"),
    "backslash after the host": ("http://evil.example\\@github.com/", "evil.example"),
    "allowed ip, backslash": ("http://127.0.0.1\\@192.0.2.1/", "192.0.2.1"),
    "port-like user info": ("http://github.com:443@evil.example/", "evil.example"),
    "sub-delimiter user info": ("http://github.com;@evil.example/", "evil.example"),
    "space in user info": ("http://github.com @evil.example/", "evil.example"),
    "encoded slash in user info": ("http://github.com%2f@evil.example/", "evil.example"),
    "fragment after the host": ("http://evil.example#@github.com/", "evil.example"),
    "query after the host": ("https://evil.example?@github.com/", "evil.example"),
    "upper case and trailing dot": ("HTTP://EVIL.EXAMPLE./", "evil.example"),
    "full-width letters and stop": (
        "http://\uff45\uff56\uff49\uff4c\uff0eexample/",
        "evil.example",
    ),
    "ideographic full stop": ("http://evil\u3002example/", "evil.example"),
    "percent-encoded letters": ("http://%65vil%2eexample/", "evil.example"),
    "soft hyphen": ("http://ev\u00adil.example/", "evil.example"),
    "tab inside the host": ("http://ev\til.example/", "evil.example"),
    "no slashes": ("https:evil.example/", "evil.example"),
    "backslashes for slashes": ("https:\\\\evil.example/", "evil.example"),
    "three slashes": ("https:///evil.example/", "evil.example"),
    "decimal ipv4": ("http://3221225985/", "192.0.2.1"),
    "hex ipv4": ("http://0xc0000201/", "192.0.2.1"),
    "octal ipv4": ("http://0300.0.02.01/", "192.0.2.1"),
    "two-part ipv4": ("http://192.513/", "192.0.2.1"),
    "mixed-base ipv4": ("http://0xc0.0.0x2.01/", "192.0.2.1"),
    "ipv4-mapped ipv6": ("http://[::ffff:192.0.2.1]/", "::ffff:c000:201"),
    "long ipv6": ("http://[0:0:0:0:0:ffff:c000:0201]/", "::ffff:c000:201"),
    "idna 2003 deviation": ("http://faß.example/", "fass.example"),
    "final sigma": ("http://\u03c3\u03c2.example/", "xn--4xaa.example"),
}

# Allowed hosts as people write them: every parser reaches an allowed host, and the check agrees.
ALLOWED = [
    "https://github.com/owner/repo",
    "https://GitHub.COM./owner/repo",
    "https://github.com:443/owner/repo?tab=readme#top",
    "https://x-access-token:ghp_abc@github.com/owner/repo.git",
    "https://raw.githubusercontent.com/owner/repo/main/README.md",
    "http://127.0.0.1:8080/health",
    "http://0x7f.1/",
    "https://exämple.com/",
    "https://EXÄMPLE.com/a",
    "https://xn--exmple-cua.com/",
]

POLICY = parse_policy(
    "allow_hosts = [" + ", ".join(f'"{host}"' for host in ALLOW) + "]\n"
    '[servers.web]\nnot_outbound = ["fetch"]\n'
)
FETCH = classify(POLICY.server("web"), "fetch")


@pytest.fixture(scope="module")
def curl():
    with curl_parser() as parse:
        yield parse


@pytest.mark.parametrize(("url", "target"), ATTACKS.values(), ids=ATTACKS.keys())
def test_each_spelling_reaches_the_attacker_in_some_parser_and_is_checked_in_all(url, target, curl):
    reached = hosts_reached(url, curl)
    assert target in reached.values(), f"no parser reaches {target}: {reached}"
    named = hosts_in({"url": url})
    missed = {parser: host for parser, host in reached.items() if host not in named}
    assert not missed, f"the check reads {named}, these parsers reach others: {missed}"
    assert target in HostAllowList(ALLOW).disallowed(named)
    assert target in hosts_of_url(url)


@pytest.mark.parametrize(("url", "target"), ATTACKS.values(), ids=ATTACKS.keys())
def test_each_spelling_is_refused_on_a_clean_session_wherever_it_stands(url, target, store):
    gate = Gate(store, POLICY, "web", "clean")
    places = [{"url": url}, {"request": {"target": url}}, {"body": f'["{url}"]'}]
    if not any(c.isspace() for c in url):
        places.append({"text": f"please read {url} and sum it up"})
    for arguments in places:
        refusal = gate.check(FETCH, arguments)
        assert refusal is not None and refusal.code == "host_not_allowed", arguments
        assert target in store.blocked.by_token(refusal.token)["hosts"]
    assert not store.sessions.state("clean").tainted


@pytest.mark.parametrize("url", ALLOWED)
def test_allowed_hosts_pass_in_their_ordinary_spellings(url, store, curl):
    allow = HostAllowList(ALLOW)
    reached = hosts_reached(url, curl)
    assert reached and not allow.disallowed(reached.values()), reached
    assert hosts_in({"url": url}) and not allow.disallowed(hosts_in({"url": url}))
    assert Gate(store, POLICY, "web", "clean").check(FETCH, {"url": url}) is None


HOSTILE = {
    "backslash user info": "http://a\\@",
    "percent authority": "//a%",
    "at signs after slashes": "//@",
    "backslashes after a scheme": "http:\\",
    "long user info": "a\\a@",
}


@pytest.mark.serial  # measures how CPU time grows
@pytest.mark.parametrize("unit", HOSTILE.values(), ids=HOSTILE.keys())
def test_every_reading_costs_linear_time(unit):
    assert_linear(hosts_in, repeated(unit), 16_000, f"hosts_in({unit!r} repeated)")
