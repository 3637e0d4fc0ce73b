"""The environment that keeps a test's processes off the user's own Lazaretto and keyring."""

from pathlib import Path


def isolated_environ(folder: Path) -> dict[str, str]:
    """The variables that keep a run off the user's real store, policy, config and keyring."""
    return {
        "LAZARETTO_STORE": str(folder / "store.db"),
        "XDG_CONFIG_HOME": str(folder / "config"),
        "XDG_STATE_HOME": str(folder / "state"),
        # Remote logins go to the owner-only file under XDG_STATE_HOME, never a real keyring.
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
    }
