"""Human-only verbs spelled so that only the program that runs them spells them out, refused.

Each class is text a program turns into the command only as it runs: keys typed into a terminal
(by hexadecimal code, split across operands, changed by editing keys, or left unentered for the
next keys to finish), brace expansion, and escapes that echo or printf decode on their way into a
shell. Run through `lazaretto hook` as Claude Code's PreToolUse would run them; the look-alikes
an agent uses at work stay allowed.
"""

import pytest

HEX = " ".join(f"{ord(c):x}" for c in "lazaretto untaint\n")
DISGUISES = {
    "tmux keys by hexadecimal code": [
        f"tmux send-keys -H {HEX}",
        f"tmux send-keys -t work -H {HEX}",
        f"tmux send-keys -lH {HEX}",
    ],
    "tmux operands joined into one word": [
        "tmux send-keys 'lazaretto unt' 'aint' Enter",
        "tmux send-keys -t 0 lazaretto ' ' un taint C-m",
    ],
    "tmux keys that edit the line": [
        "tmux send-keys 'lazaretto untaintX' BSpace Enter",
        "tmux send-keys 'untaint' Home 'lazaretto ' Enter",
        "tmux send-keys 'lazaretto unta' Tab Enter",
        "tmux send-keys 'lazaretto untaint' C-a Enter",
        "tmux send-keys Up Enter",
    ],
    "a line typed for later keys to finish": [
        "tmux send-keys 'lazaretto unt'",
        "tmux send-keys 'lazaretto \\' Enter",
        "screen -X stuff 'lazaretto '",
    ],
    "screen keys that edit the line": ["screen -X stuff 'lazaretto untaintX^H^M'"],
    "brace expansion": [
        "lazaretto {untaint,}",
        "lazaretto unt{a,}int",
        "l{a,}zaretto untaint",
        "bash -c 'lazaretto {untaint,}'",
        "echo 'lazaretto {untaint,}' | bash",
        "echo lazaretto\\ {untaint,} | sh",
    ],
    "escapes echo decodes into a shell": [
        "echo -e '\\x6c\\x61\\x7a\\x61\\x72\\x65\\x74\\x74\\x6f untaint' | bash",
        "echo -e 'lazaretto unt\\0141int' | bash",
        "echo 'lazaretto unt\\141int' | sh",
        "echo -e 'lazaretto\\tuntaint' | bash",
        "echo -ne 'lazaretto untaint\\n' | bash",
    ],
    "printf formats into a shell": [
        "printf '%s' lazaretto ' untaint' | bash",
        "printf '%s%s\\n' lazar 'etto untaint' | sh",
        "printf '%c' l a z a r e t t o ' ' u n t a i n t | bash",
        "printf '%b\\n' 'lazaretto unt\\0141int' | bash",
        "printf '%.9s untaint' lazarettoX | bash",
    ],
}
CASES = [(kind, command) for kind, commands in DISGUISES.items() for command in commands]
ALLOWED = [
    "tmux send-keys 'make test' Enter",
    "tmux send-keys -t 0 C-c",
    "tmux send-keys -t 0 'ls' C-m",
    "screen -X stuff 'ls^M'",
    "echo -e 'a\\tb'",
    "printf '%s\\n' b a | sort",
    "mkdir -p src/{app,tests}",
    "git log --format='%H{a,b}' -1",
]


@pytest.mark.parametrize("kind, command", CASES, ids=[f"{k}: {c[:40]}" for k, c in CASES])
def test_every_typed_or_expanded_disguise_is_refused(bash_event, kind, command, run_hook, store):
    code, out, err = run_hook("claude-code", "pre-tool-use", bash_event(command))
    assert code == 2, (command, out, err)
    assert out["hookSpecificOutput"]["permissionDecisionReason"].startswith(
        "lazaretto refused this: "
    )
    assert store.blocked.pending() == []  # a refusal, not a call a token could let through


@pytest.mark.parametrize("command", ALLOWED)
def test_typing_and_expanding_at_work_stays_allowed(bash_event, command, run_hook):
    assert run_hook("claude-code", "pre-tool-use", bash_event(command))[:2] == (0, {})
