"""Where the store lives: `--store`, else `LAZARETTO_STORE`, else the user's state directory."""

import os
from pathlib import Path

STORE_ENV = "LAZARETTO_STORE"


def default_store_path() -> Path:
    """The per-user default, e.g. `~/.local/state/lazaretto/lazaretto.db` on Linux."""
    from platformdirs import user_state_path

    return user_state_path("lazaretto", appauthor=False) / "lazaretto.db"


def resolve_store_path(explicit: str | os.PathLike | None = None) -> Path:
    """Apply the override order: an explicit path, the environment, the default."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get(STORE_ENV)
    if env:
        return Path(env).expanduser()
    return default_store_path()
