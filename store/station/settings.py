"""Where the station keeps its store and state, where it listens, and its clearance rules."""

from dataclasses import dataclass
from pathlib import Path

from .marker import DEFAULT_SETTINGS, Marker


@dataclass(frozen=True)
class StationSettings:
    """Where the station keeps its store and state, where it listens, and its clearance rules."""

    socket: Path
    store: Path
    state_dir: Path
    attempts: int = 5
    lockout_minutes: float = 15
    approval_ttl_minutes: float = 15
    idle_expiry_minutes: float | None = None

    @classmethod
    def from_marker(
        cls, marker: Marker, *, socket: Path | None = None, store: Path | None = None
    ) -> "StationSettings":
        """The settings a marker gives, with explicit paths taking precedence."""
        state_dir = Path(marker.state_dir or Path(marker.socket).parent)
        settings = {**DEFAULT_SETTINGS, **marker.settings}
        return cls(
            socket=socket or Path(marker.socket),
            store=store or Path(marker.store or state_dir / "lazaretto.db"),
            state_dir=state_dir,
            attempts=int(settings["attempts"]),
            lockout_minutes=float(settings["lockout_minutes"]),
            approval_ttl_minutes=float(settings["approval_ttl_minutes"]),
            idle_expiry_minutes=None
            if settings["idle_expiry_minutes"] is None
            else float(settings["idle_expiry_minutes"]),
        )

    def runtime_file(self, name: str) -> Path:
        """A file published beside the socket for clients to read (`version`, `beacon`)."""
        return self.socket.parent / name
