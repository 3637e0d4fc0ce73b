"""A pseudo-terminal driver: run the human-only commands as a person at a keyboard would."""

import fcntl
import grp
import os
import re
import select
import subprocess
import termios
import time

# Generous: these bound a hung process, they are not timing assertions.
READ_TIMEOUT = 20.0


def _tty_group() -> int:
    try:
        return grp.getgrnam("tty").gr_gid
    except KeyError:
        return 0


def _take_terminal() -> None:
    # In the child, after setsid: the pty on stderr becomes the controlling terminal, so what
    # opens /dev/tty (getpass, as a person's terminal has it) reads the keys typed here.
    fcntl.ioctl(2, termios.TIOCSCTTY, 0)


class Terminal:
    """A CLI process whose stdin, stdout and stderr are the slave side of a fresh pty, which is
    also its controlling terminal; run as another account when `user` is given (root only).

    With `user`, the pty is that account's, as a login or a terminal emulator leaves it (owner
    read and write, its group `tty` may write): any process of the account can open it."""

    def __init__(
        self,
        argv: list[str],
        env: dict,
        *,
        stdin=None,
        stdout=None,
        user: int | None = None,
        group: int | None = None,
    ) -> None:
        self._master, slave = os.openpty()
        if user is not None:
            os.fchown(slave, user, _tty_group())
            os.fchmod(slave, 0o620)
        self.tty = os.ttyname(slave)
        """The pty's slave side, `/dev/pts/N`: the person's terminal."""
        self.proc = subprocess.Popen(
            argv,
            stdin=slave if stdin is None else stdin,
            stdout=slave if stdout is None else stdout,
            stderr=slave,
            env=env,
            start_new_session=True,
            preexec_fn=_take_terminal,
            user=user,
            group=group,
            extra_groups=[] if user is not None else None,
        )
        os.close(slave)
        self.output = ""
        self._next = 0

    def _read_some(self, deadline: float) -> bool:
        """Append whatever arrives before the deadline; False at end of output."""
        ready, _, _ = select.select([self._master], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            return True
        try:
            chunk = os.read(self._master, 4096)
        except OSError:  # EIO: the child closed its side
            return False
        if not chunk:
            return False
        self.output += chunk.decode("utf-8", "replace").replace("\r\n", "\n")
        return True

    def expect(self, pattern: str, timeout: float = READ_TIMEOUT) -> re.Match:
        """Read until `pattern` shows up in the output; fail with the output so far."""
        deadline = time.monotonic() + timeout
        while True:
            match = re.search(pattern, self.output)
            if match:
                return match
            if time.monotonic() >= deadline or not self._read_some(deadline):
                raise AssertionError(f"{pattern!r} never appeared; output was:\n{self.output}")

    def expect_next(self, pattern: str, timeout: float = READ_TIMEOUT) -> re.Match:
        """Like `expect`, but only in what arrived after the last `expect_next` match."""
        deadline = time.monotonic() + timeout
        while True:
            match = re.compile(pattern).search(self.output, self._next)
            if match:
                self._next = match.end()
                return match
            if time.monotonic() >= deadline or not self._read_some(deadline):
                raise AssertionError(
                    f"{pattern!r} never appeared after offset {self._next}; output was:\n{self.output}"
                )

    def type(self, line: str) -> None:
        """Type a line, as a person would."""
        os.write(self._master, (line + "\n").encode())

    def passphrase(self, text: str, prompt: str = r"[Pp]assphrase[^\n]*: $") -> None:
        """Wait for a passphrase prompt (the last thing written), then type `text` (not echoed)."""
        self.expect_next(prompt)
        # The prompt is written before getpass turns echo off: wait until it has.
        deadline = time.monotonic() + READ_TIMEOUT
        while termios.tcgetattr(self._master)[3] & termios.ECHO and time.monotonic() < deadline:
            time.sleep(0.01)
        self.type(text)

    def code(self, text: str) -> None:
        """Wait for a prompt for a one-time code (the last thing written), then type `text`."""
        self.passphrase(text, prompt=r"[Cc]ode[^\n]*: $")

    def answer(self, *, correct: bool = True) -> str:
        """Wait for the challenge and type it back (or a code that differs in its last character)."""
        code = self.expect(r"Type ([0-9A-Z]{4}) to ").group(1)
        typed = code if correct else code[:-1] + ("0" if code[-1] != "0" else "1")
        self.type(typed)
        return typed

    def finish(self, timeout: float = READ_TIMEOUT) -> int:
        """Read the rest of the output and return the exit code."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self._read_some(deadline):
            if self.proc.poll() is not None and not select.select([self._master], [], [], 0)[0]:
                break
        try:
            return self.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        finally:
            os.close(self._master)

    def kill(self) -> None:
        """Stop the process if a test failed before it ended."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
