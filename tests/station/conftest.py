"""Fixtures for the station's tests: one in this process for the protocol, a real install for the boundary."""

import json
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from support.authenticator import SECRET, URI, Authenticator
from support.stationkit import PASSPHRASE, SECRET_POST, close_machine, new_machine, skip_reason

from lazaretto.proxy.hooks.served import hook_extension
from lazaretto.store.station.client import StationStore
from lazaretto.store.station.guard import StatePaths
from lazaretto.store.station.marker import Marker
from lazaretto.store.station.onetime import Enrolment, OneTimeCodes
from lazaretto.store.station.passphrase import hash_record
from lazaretto.store.station.server import Station
from lazaretto.store.station.settings import StationSettings
from lazaretto.store.station.state_files import write_state


class Clock:
    """A clock the test moves by hand (lockouts last minutes)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def authenticator(clock) -> Authenticator:
    """The reviewer's authenticator app, on the in-process station's clock."""
    return Authenticator(URI, lambda: clock().timestamp())


@pytest.fixture
def serve(tmp_path, clock):
    """Start a station in this process (same account: the protocol, not the OS boundary)."""
    running: list[tuple[Station, threading.Thread]] = []

    def start(**settings) -> Station:
        station_settings = StationSettings(
            socket=tmp_path / "run" / "station.sock",
            store=tmp_path / "state" / "station.db",
            state_dir=tmp_path / "state",
            **settings,
        )
        station = Station(
            station_settings,
            clock=clock,
            log=lambda text: None,
            extensions={"hook.run": hook_extension()},
        )
        paths = StatePaths.under(station_settings.state_dir)
        if not paths.passphrase.exists():
            write_state(paths.passphrase, hash_record(PASSPHRASE))
            OneTimeCodes(paths.secret, paths.spent).enrol(Enrolment(SECRET, "reviewer@test"))
        station.bind()
        thread = threading.Thread(target=station.serve_forever, daemon=True)
        thread.start()
        running.append((station, thread))
        return station

    yield start
    for station, thread in running:
        station.shutdown()
        thread.join(10)


@pytest.fixture
def station(serve) -> Station:
    """A running in-process station with the default settings."""
    return serve()


@pytest.fixture
def client(station, monkeypatch):
    """A client of `station`, found through LAZARETTO_STATION as any process would find it."""
    monkeypatch.setenv("LAZARETTO_STATION", str(station.settings.socket))
    store = StationStore(Marker(path=None, socket=str(station.settings.socket)))
    yield store
    store.close()


@pytest.fixture(scope="module")
def machine():
    """Accounts, an installed station under a test root (not started): root only."""
    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    world = new_machine()
    try:
        world.install()
        yield world
    finally:
        close_machine(world)


@pytest.fixture
def running(machine):
    """The installed station, running as its account, on a fresh store and count of wrong guesses."""
    for name in (
        "lockout.json",
        "spent-codes.json",
        "lazaretto.db",
        "lazaretto.db-wal",
        "lazaretto.db-shm",
    ):
        Path(machine.state_dir / name).unlink(missing_ok=True)
    machine.app.forget()
    machine.start_station()
    yield machine
    machine.stop()


@pytest.fixture
def worm(running, request):
    """The worm's first half through real proxies, as the reviewer: a tainted session, a refused
    post waiting with its token, and a withheld field."""
    session = f"worm-{request.node.name}"[:60]
    env = running.agent_env(running.reviewer, session)
    web = running.proxy(running.reviewer, "web", env)
    page = web.call("fetch_page", {"url": "https://github.com/acme/tool/releases/tag/v4.2.0"})
    web.close()
    text = json.dumps(page)
    qid = text[text.index("withheld field Q-") + len("withheld field ") :][:8]
    slack = running.proxy(running.reviewer, "slack", env)
    refused = slack.call("post_message", SECRET_POST)
    assert refused["error"]["data"]["reason"] == "tainted_outbound", refused
    client = running.client()
    yield {
        "session": session,
        "env": env,
        "slack": slack,
        "token": refused["error"]["data"]["token"],
        "qid": qid,
        "client": client,
    }
    client.close()
