"""Fixtures of the end-to-end tests: a real proxy in front of the scripted server, untrusted."""

import pytest
from support.proxy_harness import SCRIPTED_SERVER


@pytest.fixture
def untrusted_scripted(start_proxy, proxy_env, tmp_path):
    """A proxy for the scripted server under a policy that marks it untrusted."""
    policy = tmp_path / "p.toml"
    policy.write_text('[servers.scripted]\ntrust = "untrusted"\n')
    return start_proxy(
        ["-n", "scripted", "--", *SCRIPTED_SERVER],
        env={**proxy_env, "LAZARETTO_POLICY": str(policy)},
    )
