"""Sessions end when their client exits: shown as ended, their calls lapse, they need no untaint.

Real agent clients (tests/fixtures/agent_client.py) start their own proxies, read untrusted text
and are refused an outbound call; then the test lets them exit, and looks as a person would.
"""

import json
import subprocess
import sys
from pathlib import Path

import psutil
import pytest
from support.proxy_harness import SCRIPTED_SERVER

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
POLICY = '[servers.scripted]\ntrust = "untrusted"\noutbound = ["echo"]\n'


@pytest.fixture
def client_env(tmp_path, child_env) -> dict:
    """A user's environment: one store and policy, and no session key given (each client's own)."""
    policy = tmp_path / "lazaretto.toml"
    policy.write_text(POLICY)
    env = {**child_env, "LAZARETTO_POLICY": str(policy)}
    env.pop("LAZARETTO_SESSION", None)
    return env


class Client:
    """An agent client process, running until `exit`."""

    def __init__(self, env: dict) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(FIXTURES / "agent_client.py"), SCRIPTED_SERVER[1]],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )
        assert self.proc.stdout is not None
        said = json.loads(self.proc.stdout.readline())
        self.token = said["token"]
        self.started = int(psutil.Process(self.proc.pid).create_time())

    def exit(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        assert self.proc.wait(60) == 0


@pytest.fixture
def clients(client_env):
    started: list[Client] = []

    def start() -> Client:
        client = Client(client_env)
        started.append(client)
        return client

    yield start
    for client in started:
        if client.proc.poll() is None:
            client.proc.kill()
            client.proc.wait()


def status(cli, env) -> dict:
    done = cli("status", "--json", env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def session_of(report: dict, client: Client) -> dict:
    [session] = [
        s for s in report["sessions"] if s["key"].endswith(f"-{client.proc.pid}-{client.started}")
    ]
    return session


def test_a_session_is_labelled_by_its_client_and_ends_when_it_exits(cli, clients, client_env):
    client = clients()
    running = session_of(status(cli, client_env), client)
    assert running["state"] == "tainted" and running["ended"] is False
    assert (
        running["label"].startswith("python")
        and f"(pid {client.proc.pid}, started " in running["label"]
    )
    [call] = status(cli, client_env)["blocked"]
    assert call["token"] == client.token[:4] + "-····"

    client.exit()
    report = status(cli, client_env)
    ended = session_of(report, client)
    assert ended["state"] == "ended" and ended["ended"] is True
    assert ended["tainted"] is True  # what it read is still on record
    assert report["blocked"] == []  # its refused call lapsed with it
    shown = cli("status", env=client_env).stdout
    assert "ended" in shown and f"pid {client.proc.pid}" in shown


def test_a_lapsed_call_cannot_be_approved(terminal, clients, client_env):
    client = clients()
    client.exit()
    person = terminal("approve", client.token, env=client_env)
    assert person.finish() == 1
    assert "lapsed" in person.output


def test_untaint_picks_the_one_running_tainted_session(terminal, clients, client_env):
    gone, live = clients(), clients()
    gone.exit()
    person = terminal("untaint", env=client_env)
    person.expect(f"pid {live.proc.pid}|{live.proc.pid}")
    person.answer()
    assert person.finish() == 0, person.output


def test_with_only_ended_sessions_tainted_there_is_nothing_to_untaint(
    terminal, clients, client_env
):
    clients().exit()
    person = terminal("untaint", env=client_env)
    assert person.finish() == 2
    assert "no running session is tainted" in person.output
    assert "exited still holds taint, and needs no untaint" in " ".join(person.output.split())


def test_untaint_takes_the_clients_process_id(terminal, clients, client_env, cli):
    first, second = clients(), clients()
    person = terminal("untaint", "--session", str(second.proc.pid), env=client_env)
    person.expect(str(second.proc.pid))
    person.answer()
    assert person.finish() == 0, person.output
    report = status(cli, client_env)
    assert session_of(report, second)["state"] == "clean"
    assert session_of(report, first)["state"] == "tainted"
    first.exit()
    second.exit()
