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
