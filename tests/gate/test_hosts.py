"""Host extraction from tool-call arguments and the allow_hosts list, one case per form."""

import json
import time

import pytest
from support.growth import assert_linear, repeated

from lazaretto.proxy.gate.hosts import (
    HostAllowList,
    HostScanTooLarge,
    host_of_url,
    hosts_in,
    normalize_host,
)

# (argument value, hosts it names) — one case per form the gate must see.
FORMS = {
    "url": ("https://evil.example/x", ["evil.example"]),
    "url in free text": (
        "please open https://evil.example/page?q=1 and summarize",
        ["evil.example"],
    ),
    "other scheme": ("clone ssh://git@code.example:22/o/r.git", ["code.example"]),
    "nested scheme": ("jdbc:mysql://db.example:3306/app", ["db.example"]),
    "upper-case scheme and host": ("HTTPS://EVIL.EXAMPLE/", ["evil.example"]),
    "special scheme without slashes": ("http:evil.example/x", ["evil.example"]),
    "special scheme with one slash": ("https:/evil.example/x", ["evil.example"]),
    "backslashes after scheme": ("https:\\\\evil.example\\x", ["evil.example"]),
    "scheme-relative": ("//evil.example/path", ["evil.example"]),
    "scheme-relative in text": ('<img src="//evil.example/p.png">', ["evil.example"]),
    "windows share": ("\\\\files.example\\share", ["files.example"]),
    "userinfo host is not the host": ("https://github.com@evil.example/", ["evil.example"]),
    "user and password": ("https://user:pass@evil.example:8443/x", ["evil.example"]),
    "token user info": ("https://x-access-token:ghp_abc@github.com/o/r", ["github.com"]),
    "several @": ("https://github.com@github.com@evil.example/", ["evil.example"]),
    # RFC 3986 clients look a percent-encoded name up as written: that spelling is named too.
    "percent-encoded @": (
        "https://github.com%40evil.example/",
        ["github.com%40evil.example", "evil.example"],
    ),
    # WHATWG ends the authority at the backslash, RFC 3986 parsers (urllib, httpx, curl) do not.
    "backslash ends the authority before @ in one reading": (
        "https://evil.example\\@github.com",
        ["evil.example", "github.com"],
    ),
    "backslash ends the authority before dot": (
        "https://evil.example\\.github.com",
        ["evil.example"],
    ),
    "user info with a closing paren": ("https://github.com)@evil.example/", ["evil.example"]),
    "space in whole-value user info": (
        "https://github.com @evil.example/",
        ["evil.example", "github.com"],
    ),
    "tab removed by parsers": (
        "https://git\thub.example/",
        ["github.example", "git", "hub.example"],
    ),
    "port": ("http://evil.example:8080/", ["evil.example"]),
    "percent-encoded host": ("https://%65vil.example/", ["evil.example", "%65vil.example"]),
    "percent-encoded dot": ("https://evil%2Eexample/", ["evil.example", "evil%2eexample"]),
    "ipv4 literal": ("http://10.0.0.1/x", ["10.0.0.1"]),
    "ipv4 decimal": ("http://2130706433/", ["127.0.0.1"]),
    "ipv4 hex parts": ("http://0x7f.1/", ["127.0.0.1"]),
    "ipv4 octal": ("http://0177.0.0.01/", ["127.0.0.1"]),
    "ipv4 hex whole": ("http://0x7F000001/", ["127.0.0.1"]),
    "ipv6 literal": ("http://[::1]:8080/", ["::1"]),
    "ipv6 long form": ("http://[0:0:0:0:0:0:0:1]/", ["::1"]),
    "ipv6 zone": ("http://[fe80::1%25eth0]/", ["fe80::1"]),
    "idn": ("https://exämple.com/", ["xn--exmple-cua.com"]),
    "punycode": ("https://xn--exmple-cua.com/", ["xn--exmple-cua.com"]),
    "idn upper case": ("https://EXÄMPLE.com/", ["xn--exmple-cua.com"]),
    "ideographic full stop": ("https://evil\u3002example/", ["evil.example"]),
    "full-width full stop": ("https://evil\uff0eexample/", ["evil.example"]),
    "half-width full stop": ("https://evil\uff61example/", ["evil.example"]),
    "full-width letters": ("https://\uff45vil.example/", ["evil.example"]),
    "soft hyphen ignored": ("https://git\u00adhub.com/", ["github.com"]),
    "trailing dot": ("https://evil.example./", ["evil.example"]),
    "unparsable host is kept as written": ("http://1.2.3.999/", ["1.2.3.999"]),
    "two urls in a row": ("http://http://evil.example/", ["http", "evil.example"]),
    "markdown link": ("see [docs](https://docs.example/a) now", ["docs.example"]),
    "email": ("bob@evil.example", ["evil.example"]),
    "email in text": ("write to bob@evil.example, thanks", ["evil.example"]),
    "email address literal": ("bob@[192.0.2.1]", ["192.0.2.1"]),
    "mailto": ("mailto:bob@evil.example?subject=hi", ["evil.example"]),
    "mailto percent-encoded @": ("mailto:bob%40evil.example", ["evil.example"]),
    "mailto several recipients": (
        "mailto:a@one.example,b@two.example",
        ["one.example", "two.example"],
    ),
    "scp-like git remote": ("git@code.example:o/r.git", ["code.example"]),
    "bare host": ("paste.example", ["paste.example"]),
    "bare host with port and path": ("paste.example:8080/ingest", ["paste.example"]),
    "bare host with path": ("  paste.example/ingest  ", ["paste.example"]),
    "bare idn": ("пример.рф", ["xn--e1afmkfd.xn--p1ai"]),
    "bare ipv4": ("192.0.2.7", ["192.0.2.7"]),
    "bare ipv4 with port": ("192.0.2.7:9000", ["192.0.2.7"]),
    "bare ipv6": ("2001:db8::1", ["2001:db8::1"]),
    "bare bracketed ipv6 with port": ("[::1]:8080", ["::1"]),
    "localhost": ("localhost:3000", ["localhost"]),
    "bare hex ipv4": ("0xc0000201", ["192.0.2.1"]),
    "bare octal ipv4 with path": ("0300.0.02.01/x", ["192.0.2.1"]),
    "e-mail at a hex ipv4": ("bob@0xc0000201", ["192.0.2.1"]),
    "bare host, backslash before user info": (
        "github.com\\@evil.example/x",
        ["github.com", "evil.example"],
    ),
    "bare host with port, backslash before user info": (
        "github.com:443\\@evil.example",
        ["github.com", "evil.example"],
    ),
    "idna 2003 deviation": ("https://faß.example/", ["xn--fa-hia.example", "fass.example"]),
    "path-like token in text": ("upload it to paste.example/ingest please", ["paste.example"]),
    "path-like token with port": ("post to paste.example:8080/x", ["paste.example"]),
}

# Strings that name no host.
NOT_HOSTS = {
    "file name": "notes.txt",
    "source file": "proxy/hosts.py",
    "lock file": "package.lock",
    "bare name in prose": "the page at example.com says hello",
    "ipv4 in prose": "the box at 10.0.0.1 is down",
    "dotted identifier": "call os.path.join on both parts",
    "abbreviations": "e.g. this, i.e. that",
    "version": "3.11",
    "version with v": "v1.2.3",
    "npm spec": "install lodash@4.17.21",
    "retina image": "icon@2x.png",
    "mention": "thanks @alice",
    "file url": "file:///etc/passwd",
    "code comment": "//TODO fix this",
    "relative path": "docs/README.md",
    "division in code": "x = a//b",
    "time": "12:30:45",
    "c++ name": "std::vector",
    "empty": "",
    "url without host": "https://",
}


@pytest.mark.parametrize("value, expected", FORMS.values(), ids=FORMS.keys())
def test_every_form_is_found(value, expected):
    assert hosts_in(value) == expected


@pytest.mark.parametrize("value", NOT_HOSTS.values(), ids=NOT_HOSTS.keys())
def test_strings_that_name_no_host(value):
    assert hosts_in(value) == []


@pytest.mark.parametrize(
    "key, value, expected",
    [
        ("host", "db", ["db"]),
        ("smtp_host", "mail", ["mail"]),
        ("path", "db", []),
        ("server", "main.py", ["main.py"]),
        ("file", "main.py", []),
        ("webhookUrl", "hooks.sh", ["hooks.sh"]),
        ("to", ["bob@evil.sh"], ["evil.sh"]),
        ("host", "3221225985", ["192.0.2.1"]),
        ("count", "3221225985", []),
        ("version", "2024.01.05", []),
        ("body", "sent from bob@evil.sh", []),
        ("cc", "evil.md", ["evil.md"]),
    ],
)
def test_host_ish_keys_admit_file_like_and_single_label_names(key, value, expected):
    assert hosts_in({key: value}) == expected


def test_nested_values_keys_lists_and_json_inside_strings():
    args = {
        "https://key.example/": 1,
        "list": ["a", {"deep": ["https://deep.example/"]}],
        "payload": json.dumps({"endpoint": "inner.example", "more": [{"url": "x.py"}]}),
        "again": "https://deep.example/",
    }
    assert hosts_in(args) == ["key.example", "deep.example", "inner.example", "x.py"]


def test_first_seen_order_across_values():
    args = {
        "a": "https://one.example",
        "b": ["bob@two.example", "https://one.example"],
        "c": "three.example",
    }
    assert hosts_in(args) == ["one.example", "two.example", "three.example"]


def test_ten_thousand_levels_deep_without_recursion():
    value: object = "https://bottom.example/"
    for depth in range(10_000):
        value = {"k": value} if depth % 2 else [value]
    assert hosts_in(value) == ["bottom.example"]


def test_deeply_nested_json_inside_a_string_is_still_scanned_as_text():
    text = "[" * 100_000 + '"https://inside.example/"' + "]" * 100_000
    assert hosts_in(text) == ["inside.example"]


def test_work_cap_fails_closed():
    with pytest.raises(HostScanTooLarge):
        hosts_in(["x" * 1_000_000] * 60)


# Inputs built to make a backtracking pattern quadratic or worse: each must come back right, and
# its cost must grow linearly with its length.
HOSTILE = {
    "a@ repeated": ("a@", []),
    "http:// repeated": ("http://", ["http"]),
    "dots": (".", []),
    "a. repeated": ("a.", []),
    "http: repeated": ("http:", ["http"]),
    "slashes": ("/", []),
    "a.b@ repeated": ("a.b@", []),
    "colon at": (":@", []),
    "percent": ("%", []),
    "brackets": ("[", []),
    "mailto repeated": ("mailto:", []),
}


@pytest.mark.serial  # measures how CPU time grows
@pytest.mark.parametrize(("unit", "expected"), HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_inputs_run_in_linear_time(unit, expected):
    assert hosts_in(repeated(unit)(100_000)) == expected
    assert_linear(hosts_in, repeated(unit), 16_000, f"hosts_in({unit!r} repeated)")


def test_measure_typical_arguments():
    small = {
        "to": ["alice@corp.example", "bob@corp.example"],
        "subject": "Weekly report",
        "body": ("See https://dashboard.corp.example/r/42 and the notes in docs/report.md. " * 50)[
            :3500
        ],
        "attachments": [{"name": "report.pdf", "url": "https://files.corp.example/report.pdf"}],
    }
    assert 3500 < len(json.dumps(small)) < 4500
    large = ("Plain words and a link https://site.example/x?y=1 and mail x@y.example. " * 15000)[
        :1_000_000
    ]
    for label, value, expected in [
        (
            "4 KB JSON arguments",
            small,
            ["corp.example", "dashboard.corp.example", "files.corp.example"],
        ),
        ("1 MB string", large, ["site.example", "y.example"]),
    ]:
        rounds, found = 5, []
        started = time.perf_counter()
        for _ in range(rounds):
            normalize_host.cache_clear()  # cold: no host remembered from an earlier call
            found = hosts_in(value)
        print(f"\n{label}: {(time.perf_counter() - started) / rounds * 1000:.2f} ms per call")
        assert found == expected


@pytest.mark.parametrize(
    "url, host",
    [
        ("https://github.com@evil.example/", "evil.example"),
        ("//cdn.example/x", "cdn.example"),
        ("///cdn.example/x", "cdn.example"),
        ("mailto:a@one.example,b@two.example", "one.example"),
        ("paste.example:8080/ingest", "paste.example"),
        ("  http://EVIL.example\n", "evil.example"),
        ("http://evil.example:80@github.com/", "github.com"),
        ("file:///etc/passwd", None),
        ("urn:isbn:0451450523", None),
        ("C:\\Users\\me", None),
        ("https://", None),
    ],
)
def test_host_of_url(url, host):
    assert host_of_url(url) == host


@pytest.mark.parametrize(
    "raw, host",
    [
        ("GitHub.COM.", "github.com"),
        ("exämple.com", "xn--exmple-cua.com"),
        ("XN--EXMPLE-CUA.com", "xn--exmple-cua.com"),
        ("evil\uff0eexample", "evil.example"),
        ("[::FFFF:127.0.0.1]", "::ffff:7f00:1"),
        ("::1", "::1"),
        ("0x7f.0.0.1", "127.0.0.1"),
        ("1.2.3.256", None),
        ("a..b", None),
        ("evil example", None),
        ("a" * 64 + ".example", None),
        ("", None),
    ],
)
def test_normalize_host(raw, host):
    assert normalize_host(raw) == host


# --- allow_hosts semantics ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pattern, host, allowed",
    [
        ("github.com", "github.com", True),
        ("github.com", "api.github.com", False),
        ("github.com", "evilgithub.com", False),
        ("*.github.com", "api.github.com", True),
        ("*.github.com", "a.b.github.com", True),
        ("*.github.com", "github.com", False),
        ("*.github.com", "evilgithub.com", False),
        (".github.com", "github.com", True),
        (".github.com", "api.github.com", True),
        (".github.com", "notgithub.com", False),
        ("GitHub.COM", "github.com", True),
        ("github.com", "GITHUB.com.", True),
        ("exämple.com", "xn--exmple-cua.com", True),
        ("xn--exmple-cua.com", "EXÄMPLE.com", True),
        ("*.exämple.com", "api.xn--exmple-cua.com", True),
        ("127.0.0.1", "127.0.0.1", True),
        ("127.0.0.1", "0x7f.1", True),
        ("::1", "[::1]", True),
        ("github.com", "github.com@evil.example", False),
        ("github.com", "", False),
    ],
)
def test_allow_list_semantics(pattern, host, allowed):
    assert HostAllowList([pattern]).allows(host) is allowed


def test_allow_list_end_to_end_with_hosts_in():
    allow = HostAllowList(["github.com", "*.githubusercontent.com"])
    args = {
        "url": "https://github.com@evil.example/",
        "img": "https://raw.githubusercontent.com/x.png",
    }
    assert allow.disallowed(hosts_in(args)) == ["evil.example"]


def test_disallowed_keeps_order_and_drops_repeats():
    allow = HostAllowList([".corp.example"])
    assert allow.disallowed(["b.example", "x.corp.example", "a.example", "b.example"]) == [
        "b.example",
        "a.example",
    ]


def test_empty_list_is_false_and_any_entry_is_true():
    assert not HostAllowList([])
    assert HostAllowList(["github.com"])


@pytest.mark.parametrize(
    "pattern", ["*", "git*.com", "*.127.0.0.1", ".::1", "", "github.com:443", "a b.example"]
)
def test_patterns_that_name_no_host_are_rejected(pattern):
    with pytest.raises(ValueError):
        HostAllowList([pattern])


def test_a_url_host_that_cannot_be_normalized_is_reported_and_never_allowed():
    found = hosts_in("http://" + "a." * 200 + "com/")
    assert len(found) == 1 and found[0].endswith("...")
    assert HostAllowList([".a", ".com"]).disallowed(found) == found
