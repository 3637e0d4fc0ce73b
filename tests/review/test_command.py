"""`lazaretto review` as a real process: it opens only for a person at a terminal."""

import subprocess


def test_review_refuses_without_a_terminal(lazaretto_cmd, child_env, store_path):
    done = subprocess.run(
        [*lazaretto_cmd, "review", "--store", str(store_path)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=child_env,
        timeout=60,
    )
    assert done.returncode == 2
    assert "only a person at an interactive terminal" in done.stderr
    assert not store_path.exists()


def test_desktop_notifications_are_a_setting_that_is_off_unless_given(lazaretto_cmd, child_env):
    done = subprocess.run(
        [*lazaretto_cmd, "review", "--help"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=child_env,
        timeout=60,
    )
    said = " ".join(done.stdout.split())
    assert done.returncode == 0
    assert "--notify also announce each newly blocked call or withheld field as a desktop" in said
    assert "the terminal bell rings either way" in said


def test_review_opens_on_a_broken_policy_and_says_so_in_its_header(terminal, child_env, tmp_path):
    policy = tmp_path / "lazaretto.toml"
    policy.write_text('[servers.slack]\noutbond = ["post_message"]\n')
    env = {**child_env, "LAZARETTO_POLICY": str(policy), "COLUMNS": "200", "LINES": "40"}
    app = terminal("review", env=env)
    app.expect(r"POLICY BROKEN, see `lazaretto policy check`")
    app.type("q")
    assert app.finish() == 0
