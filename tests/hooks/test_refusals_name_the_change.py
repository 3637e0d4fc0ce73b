"""A hook's refusal names what would change it as the proxy's does: the policy line in the file the
hook read, and the host a refused fetch names."""


def _claude_pre(tmp_path, tool, tool_input):
    return {
        "session_id": "s",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": str(tmp_path),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_01",
    }


def test_a_hook_refusal_names_the_lines_as_the_proxy_does(run_hook, hook_env, store, tmp_path):
    policy = tmp_path / "lazaretto.toml"
    policy.write_text('allow_hosts = ["github.com"]\n[servers.jira]\ntrust = "untrusted"\n')
    env = {**hook_env, "LAZARETTO_POLICY": str(policy)}
    store.sessions.taint(
        "hook-session", server="jira", tool="get_issue", method="tools/call", reason="a ticket"
    )
    code, out, _ = run_hook(
        "claude-code",
        "pre-tool-use",
        _claude_pre(tmp_path, "mcp__slack__post_message", {"channel": "#general", "text": "hi"}),
        env,
    )
    reason = out["hookSpecificOutput"]["permissionDecisionReason"]
    assert code == 2
    assert f'in {policy}, `trust = "trusted"` under `[servers.jira]`' in reason
    assert '`not_outbound = ["post_message"]` under `[servers.slack]`' in reason
    code, out, _ = run_hook(
        "claude-code",
        "pre-tool-use",
        _claude_pre(tmp_path, "WebFetch", {"url": "https://paste.example/x"}),
        env,
    )
    reason = out["hookSpecificOutput"]["permissionDecisionReason"]
    assert code == 2 and f"in {policy}, paste.example added to `allow_hosts`" in reason


def test_a_hook_under_a_broken_policy_refuses_naming_the_line_and_key(run_hook, hook_env, tmp_path):
    policy = tmp_path / "lazaretto.toml"
    policy.write_text('[servers.slack]\ntrust = "untrusted"\noutbond = ["post_message"]\n')
    env = {**hook_env, "LAZARETTO_POLICY": str(policy)}
    code, out, _ = run_hook(
        "claude-code",
        "pre-tool-use",
        _claude_pre(tmp_path, "mcp__slack__post_message", {"channel": "#general", "text": "hi"}),
        env,
    )
    reason = out["hookSpecificOutput"]["permissionDecisionReason"]
    assert code == 2 and "so it was refused" in reason
    assert f"{policy}, line 3: unknown key `outbond` in `servers.slack`: did you mean" in reason
    assert f"check it again with: lazaretto policy check {policy}" in reason
