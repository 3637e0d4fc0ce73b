"""Where an installed station keeps its files, on Linux and macOS, under a root directory."""

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from lazaretto.store.station.marker import marker_path

UNIT_NAME = "lazaretto-station"
"""The systemd unit's name (`systemctl start lazaretto-station`)."""
LAUNCHD_LABEL = "org.lazaretto.station"


@dataclass(frozen=True)
class Layout:
    """Every path `install` writes and `uninstall` removes."""

    root: Path
    marker: Path
    state_dir: Path
    """The account's own directory (mode 0700): the store, the passphrase hash, the lock."""
    run_dir: Path
    """Beside the socket (mode 0755): the socket and the files clients read (version, beacon)."""
    socket: Path
    unit: Path

    @property
    def store(self) -> Path:
        """The station's store."""
        return self.state_dir / "lazaretto.db"

    @property
    def systemd(self) -> bool:
        """Whether the unit is a systemd unit (Linux) rather than a launchd daemon (macOS)."""
        return self.unit.suffix == ".service"


def layout(root: str | None, socket: str | None) -> Layout:
    """The layout under `root` (default `/`) for this OS, with the socket where asked."""
    base = Path(root or os.sep)
    if sys.platform == "darwin":
        state_dir = base / "var/db/lazaretto"
        run_dir = base / "var/db/lazaretto-run"
        unit = base / f"Library/LaunchDaemons/{LAUNCHD_LABEL}.plist"
    else:
        state_dir = base / "var/lib/lazaretto"
        run_dir = base / "run/lazaretto"
        unit = base / f"etc/systemd/system/{UNIT_NAME}.service"
    chosen = Path(socket) if socket else run_dir / "station.sock"
    return Layout(
        root=base,
        marker=Path(marker_path(str(base))),
        state_dir=state_dir,
        run_dir=chosen.parent,
        socket=chosen,
        unit=unit,
    )
