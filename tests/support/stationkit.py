"""Real accounts, a real installed station and clients run as other users, for the boundary tests.

Everything here needs root (the tests create accounts with useradd and run processes as them).
The interpreter must be one other accounts can run: when this test run's own is not (a Python
under a home directory), a bridge virtualenv is made from the system's Python of the same version,
carrying this run's packages and checkout.
"""

import atexit
import functools
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from lazaretto.store.station.client import StationStore
from lazaretto.store.station.marker import read_marker
from support.proxy_harness import WORM_POLICY, ProxyProcess
from support.terminal import READ_TIMEOUT, Terminal

PASSPHRASE = "correct horse battery staple"
"""The reviewer passphrase the installed station is given (typed through a pty, never an argument)."""


def skip_reason() -> str | None:
    """Why the boundary tests cannot run here, or None."""
    if not sys.platform.startswith("linux"):
        return "the account tests use Linux's useradd and SO_PEERCRED (macOS is not covered by CI)"
    if os.geteuid() != 0:
        return "the OS-boundary tests create accounts and run processes as them: they need root (CI runs them as root)"
    for tool in ("useradd", "userdel"):
        if shutil.which(tool) is None:
            return f"{tool} is missing"
    return None


@dataclass(frozen=True)
class Account:
    """A real account of this machine."""

    name: str
    uid: int
    gid: int
    home: Path

    @classmethod
    def named(cls, name: str) -> "Account":
        entry = pwd.getpwnam(name)
        return cls(name, entry.pw_uid, entry.pw_gid, Path(entry.pw_dir))


def create_account(name: str, home: Path) -> Account:
    """A login account with its own home (the reviewer, the agent)."""
    subprocess.run(
        ["useradd", "--create-home", "--home-dir", str(home), "--shell", "/bin/sh", name],
        check=True,
        capture_output=True,
    )
    os.chmod(home, 0o700)
    return Account.named(name)


def delete_account(name: str) -> None:
    """Remove an account made by the tests (and its home)."""
    subprocess.run(["userdel", "--remove", name], check=False, capture_output=True)


@functools.cache
def runnable_interpreter() -> Path:
    """An interpreter that other accounts may run, with this run's packages importable: made
    once per test process, and removed when it exits."""
    probe = "import lazaretto.store.opening, textual, psutil"
    if _runs_as_nobody([sys.executable, "-c", probe]):
        return Path(sys.executable)
    base = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
    if not base.exists():
        raise RuntimeError(
            f"{sys.executable} cannot be run by other accounts and there is no {base} to bridge from"
        )
    workdir = Path(tempfile.mkdtemp(prefix="lazaretto-bridge-", dir="/tmp"))
    os.chmod(workdir, 0o755)
    atexit.register(shutil.rmtree, workdir, ignore_errors=True)
    bridge = workdir / "bridge-venv"
    subprocess.run([str(base), "-m", "venv", "--without-pip", str(bridge)], check=True)
    site = subprocess.run(
        [
            str(bridge / "bin" / "python"),
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['purelib'])",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    _carry_packages(Path(site))
    python = bridge / "bin" / "python"
    # Other accounts cannot write bytecode here: compiled once now, or every process they start
    # would compile the checkout again (the distributions' bytecode came along with them).
    subprocess.run(
        [str(python), "-m", "compileall", "-q", str(Path(site) / "lazaretto")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    if not _runs_as_nobody([str(python), "-c", probe]):
        raise RuntimeError(f"other accounts cannot import this checkout through {python}")
    return python


def _carry_packages(site: Path) -> None:
    """Put this checkout and the distributions it needs into `site`, which other accounts can read.

    This run's own packages may sit under a home directory nobody else may enter (a pyenv Python
    under /root, a checkout in a private folder), so a path to them would not do: files are
    hard-linked where the filesystem allows it (instantly, and root-owned as the originals), else
    copied.
    """
    import lazaretto.app
    import lazaretto.proxy
    import lazaretto.store
    from lazaretto.store.package import package_version

    for package in (lazaretto.app, lazaretto.store, lazaretto.proxy):
        name = package.__name__.rsplit(".", 1)[1]
        shutil.copytree(
            Path(package.__path__[0]),
            site / "lazaretto" / name,
            ignore=shutil.ignore_patterns("__pycache__"),
            copy_function=_link_or_copy,
        )
    info = site / f"lazaretto-{package_version()}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: lazaretto\nVersion: {package_version()}\n"
    )
    for dist in _needed_distributions():
        where = Path(dist.locate_file(""))
        for file in dist.files or ():
            source = Path(dist.locate_file(file))
            try:
                target = site / source.relative_to(where)
            except ValueError:
                continue  # scripts installed outside site-packages
            if source.is_file():  # bytecode included: the same Python version compiled it
                target.parent.mkdir(parents=True, exist_ok=True)
                _link_or_copy(str(source), str(target))


def _needed_distributions() -> list:
    """Lazaretto's runtime requirements and theirs, as installed in this run."""
    from importlib import metadata

    from packaging.requirements import Requirement

    found: dict[str, metadata.Distribution] = {}
    pending = [Requirement(text) for text in metadata.requires("lazaretto") or ()]
    while pending:
        requirement = pending.pop()
        if requirement.marker and not requirement.marker.evaluate({"extra": ""}):
            continue
        key = requirement.name.lower().replace("_", "-")
        if key in found:
            continue
        found[key] = dist = metadata.distribution(requirement.name)
        pending.extend(Requirement(text) for text in dist.requires or ())
    return list(found.values())


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _runs_as_nobody(argv: list[str]) -> bool:
    nobody = pwd.getpwnam("nobody")
    try:
        done = subprocess.run(
            argv,
            user=nobody.pw_uid,
            group=nobody.pw_gid,
            extra_groups=[],
            capture_output=True,
            cwd="/",
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


@dataclass
class Machine:
    """One test run's world: a root directory for the station, the accounts, the interpreter."""

    root: Path
    python: Path
    reviewer: Account
    agent: Account
    station_account: str
    started: list[subprocess.Popen] = field(default_factory=list)

    @property
    def marker(self) -> Path:
        return self.root / "etc/lazaretto/station.json"

    @property
    def state_dir(self) -> Path:
        return self.root / "var/lib/lazaretto"

    @property
    def run_dir(self) -> Path:
        return self.root / "run/lazaretto"

    @property
    def socket(self) -> Path:
        return self.run_dir / "station.sock"

    @property
    def store(self) -> Path:
        return self.state_dir / "lazaretto.db"

    def lazaretto(self) -> list[str]:
        """The CLI, as an account runs it."""
        return [str(self.python), "-m", "lazaretto.app"]

    def env(self, account: Account, **extra: str) -> dict:
        """A clean environment for `account`: its home, the test root, no user overrides."""
        env = {
            "HOME": str(account.home),
            "USER": account.name,
            "LOGNAME": account.name,
            "PATH": f"{self.python.parent}:/usr/local/bin:/usr/bin:/bin",
            "LAZARETTO_ROOT": str(self.root),
            "XDG_CONFIG_HOME": str(account.home / ".config"),
            "XDG_STATE_HOME": str(account.home / ".local/state"),
            "TERM": "xterm-256color",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        env.update(extra)
        return env

    def as_account(self, account: Account, env: dict | None) -> dict:
        """The Popen arguments that run a process as `account`, in its home."""
        return {
            "user": account.uid,
            "group": account.gid,
            "extra_groups": [],
            "env": env or self.env(account),
            "cwd": str(account.home),
        }

    def run_as(
        self, account: Account, argv: list[str], *, env: dict | None = None, **kwargs
    ) -> subprocess.CompletedProcess:
        """Run a command as `account`, no terminal, output captured."""
        kwargs.setdefault("capture_output", True)
        kwargs.setdefault("timeout", READ_TIMEOUT * 3)
        return subprocess.run(argv, check=False, **self.as_account(account, env), **kwargs)

    def terminal_as(self, account: Account, *args: str, env: dict | None = None) -> Terminal:
        """`lazaretto ARGS...` as `account` on a pty that is its controlling terminal."""
        return Terminal(
            [*self.lazaretto(), *args],
            env or self.env(account),
            user=account.uid,
            group=account.gid,
        )

    def write_file(self, account: Account, name: str, text: str) -> Path:
        """A file in `account`'s home, owned by it."""
        path = account.home / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        os.chown(path, account.uid, account.gid)
        return path

    def agent_env(self, account: Account, session: str, **extra: str) -> dict:
        """What an agent client gives the proxies and hooks it starts: a session, a policy, a log."""
        policy = self.write_file(account, "lazaretto.toml", WORM_POLICY)
        log = account.home / "server-calls.jsonl"
        if not log.exists():
            self.write_file(account, log.name, "")
        return self.env(
            account,
            LAZARETTO_SESSION=session,
            LAZARETTO_POLICY=str(policy),
            LAZARETTO_DEMO_LOG=str(log),
            **extra,
        )

    def proxy(
        self, account: Account, role: str, env: dict, *args: str, through_shell: bool = False
    ) -> ProxyProcess:
        """A real proxy as `account`, in front of one role of the bundled demo server.

        `through_shell`: started by `sh -c`, so the proxy cannot tell it is the demo's server (which
        alone may keep a store of its own): it stands for any real server.
        """
        server = [str(self.python), "-m", "lazaretto.app.demo.server", role]
        if through_shell:
            server = ["/bin/sh", "-c", "exec " + " ".join(server)]
        proxy = ProxyProcess(
            ["-n", role, *args, "--", *server],
            env,
            python=str(self.python),
            **{key: value for key, value in self.as_account(account, env).items() if key != "env"},
        )
        self.started.append(proxy.proc)
        proxy.initialize()
        return proxy

    def client(self) -> StationStore:
        """The test's own view of the station (as root: its uid is audited as 0)."""
        return StationStore(read_marker(str(self.marker)))

    # -- the station ------------------------------------------------------------------------

    def install(self, passphrase: str = PASSPHRASE) -> None:
        """`sudo lazaretto station install --root ROOT`, the passphrase typed through a pty."""
        term = Terminal(
            [
                *self.lazaretto(),
                "station",
                "install",
                "--root",
                str(self.root),
                "--account",
                self.station_account,
                "--no-import",
            ],
            {**os.environ, "LAZARETTO_ROOT": str(self.root)},
        )
        try:
            term.passphrase(passphrase)
            term.passphrase(passphrase)
            code = term.finish()
        finally:
            term.kill()
        if code != 0:
            raise AssertionError(f"station install failed ({code}):\n{term.output}")

    def start_station(self) -> subprocess.Popen:
        """`lazaretto station run` as the station's account, once its socket answers."""
        account = Account.named(self.station_account)
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": str(self.state_dir),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        proc = subprocess.Popen(
            [*self.lazaretto(), "station", "run", "--root", str(self.root)],
            user=account.uid,
            group=account.gid,
            extra_groups=[],
            env=env,
            cwd="/",
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self.started.append(proc)
        deadline = time.monotonic() + READ_TIMEOUT * 2
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                why = proc.stderr.read().decode() if proc.stderr else ""
                raise AssertionError(f"the station exited: {why}")
            if _answers(self.socket):
                return proc
            time.sleep(0.05)
        raise AssertionError("the station never answered on its socket")

    def stop(self) -> None:
        """Stop everything started for a test."""
        for proc in reversed(self.started):
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        self.started.clear()


def _answers(path: Path) -> bool:
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
        return True
    except OSError:
        return False
    finally:
        probe.close()


def new_machine() -> Machine:
    """Accounts and a root directory for one test module (see `close_machine`)."""
    tag = secrets.token_hex(3)
    root = Path(tempfile.mkdtemp(prefix="lazaretto-station-", dir="/tmp"))
    os.chmod(root, 0o755)
    homes = root / "home"
    homes.mkdir(mode=0o755)
    python = runnable_interpreter()
    reviewer = create_account(f"lzr{tag}", homes / "reviewer")
    agent = create_account(f"lza{tag}", homes / "agent")
    return Machine(root, python, reviewer, agent, f"lzs{tag}")


def close_machine(machine: Machine) -> None:
    """Stop its processes, remove its accounts and files."""
    machine.stop()
    for name in (machine.reviewer.name, machine.agent.name, machine.station_account):
        delete_account(name)
    shutil.rmtree(machine.root, ignore_errors=True)
