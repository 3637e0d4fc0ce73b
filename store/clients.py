"""Whether a session's agent client still runs: a session ends when its client process exits."""

from datetime import datetime


def client_gone(pid: int | None, started: int | None) -> bool:
    """Whether the client process `pid`, started at `started` (epoch seconds), has exited.

    A session whose client is unknown (a key set by LAZARETTO_SESSION) never ends on its own; a
    process that cannot be looked at (another account's, on a system that hides them) counts as
    running: ending a session lapses its calls, which must never happen by mistake.
    """
    if pid is None:
        return False
    import psutil

    try:
        process = psutil.Process(pid)
        if started is not None and int(process.create_time()) != started:
            return True  # the pid was recycled: that client is gone
        return process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True
    except psutil.Error:
        return False


def client_label(name: str | None, pid: int | None, started: int | None, key: str) -> str:
    """A session as a person recognises it: its client, process id and start, else its key."""
    if pid is None:
        return key
    when = f", started {datetime.fromtimestamp(started):%Y-%m-%d %H:%M}" if started else ""
    return f"{name or 'client'} (pid {pid}{when})"
