"""The person's own terminal (issue 32): a process of the reviewer's account reads what they type.

The person's terminal is a pty owned by the reviewer, as a login leaves it, so any process of
theirs may open `/dev/pts/N`. The attacks run as the reviewer, through real processes: the thief
stops the person's `lazaretto untaint`, takes the code off the terminal as it is typed and sends
it first, for its own decisions; the recorder reads every key of a `script -I` log once the person
cleared something, and sends the code again. Neither clears anything; the person is told; the
person's own clearances work.
"""

import json
import re
import select
import subprocess
import textwrap

import pytest
from support.stationkit import (
    UNTOUCHED,
    Machine,
    decisions_of,
    refusals_by,
    run_script,
)
from support.terminal import READ_TIMEOUT, Terminal

from lazaretto.store.clock import parse_stamp

pytestmark = pytest.mark.serial  # installs a station under OS accounts of its own

THIEF = """
import faulthandler, json, os, signal, sys, termios, time
faulthandler.dump_traceback_later(100, exit=True)  # stuck: say where, and end
from lazaretto.store.opening import Side, open_store
from lazaretto.store.station.protocol import ProofError, code_proof

person, token, qid, session = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
# The terminal the person's command reads: theirs, so any process of theirs may open it.
fd = os.open(os.readlink(f"/proc/{person}/fd/0"), os.O_RDWR | os.O_NOCTTY)
deadline = time.monotonic() + 60
while termios.tcgetattr(fd)[3] & termios.ECHO:  # echo off: it asks for something secret
    assert time.monotonic() < deadline, "the person was never asked for anything"
    time.sleep(0.01)
os.kill(person, signal.SIGSTOP)  # stopped, it cannot read what is typed next: this process does
# The signal takes effect when the person's process next runs: until it is stopped, a line typed
# could still reach its own read.
while open(f"/proc/{person}/stat").read().rpartition(")")[2].split()[0] not in ("T", "t"):
    assert time.monotonic() < deadline, "the person's command never stopped"
    time.sleep(0.01)
print("reading", flush=True)
typed = os.read(fd, 64).decode().strip()
store = open_store(side=Side.AGENT)
call = store.blocked.by_token(token)["id"]
tried = {}
for name, op, subject in (
    ("approve", "decisions.approve", call),
    ("release", "decisions.release", qid),
    ("untaint", "decisions.untaint", session),
):
    proven = store.with_proof(code_proof(typed, store.begin(op, subject)))
    try:
        getattr(proven.decisions, op.split(".")[1])(subject)
        tried[name] = "cleared"
    except ProofError as exc:
        tried[name] = str(exc.code)
store.close()
os.kill(person, signal.SIGCONT)
print(json.dumps({"typed": typed, "tried": tried}), flush=True)
"""


def thief(machine: Machine, person: Terminal, worm: dict) -> subprocess.Popen:
    """The thief, as the reviewer, watching the person's command."""
    account = machine.reviewer
    return subprocess.Popen(
        [str(machine.python), "-c", textwrap.dedent(THIEF), str(person.proc.pid)]
        + [worm["token"], worm["qid"], worm["session"]],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **machine.as_account(account, machine.env(account)),
    )


def untaint(machine: Machine, worm: dict) -> Terminal:
    """The person's `lazaretto untaint` of the worm's session, at their own terminal."""
    return machine.terminal_as(
        machine.reviewer, "untaint", "--session", worm["session"], env=worm["env"]
    )


def line_of(proc: subprocess.Popen) -> str:
    """The next line the process prints (it bounds its own waits)."""
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], READ_TIMEOUT * 3)
    assert ready, "the process printed nothing"
    line = proc.stdout.readline()
    assert line, proc.stderr.read() if proc.stderr else "it exited"
    return line


@pytest.mark.slow
@pytest.mark.timeout(300)  # the person's last code is one shown after the thief's leftovers age
def test_a_code_taken_off_the_persons_terminal_clears_nothing_and_the_person_is_told(worm, running):
    person = untaint(running, worm)
    watcher = thief(running, person, worm)
    try:
        person.expect("web/fetch_page")
        assert line_of(watcher).strip() == "reading"
        code = running.app.fresh()
        person.code(code)  # the person types it; the thief reads it first
        taken = json.loads(line_of(watcher))
        assert watcher.wait(READ_TIMEOUT) == 0
    finally:
        if watcher.poll() is None:
            watcher.kill()
    assert taken["typed"] == code
    # Sent first, for the thief's own decision: the person's was waiting for a code, so refused
    # and used up; then useless for anything else.
    assert taken["tried"] == {
        "approve": "code_conflict",
        "release": "code_used",
        "untaint": "code_used",
    }
    # The person, seeing nothing happen, types the next code: their command is told, and stops.
    person.type(running.app.fresh())
    assert person.finish() == 1, person.output
    assert "a code was presented for decisions.approve begun by uid" in person.output
    assert "what you type may be read" in person.output and "Nothing was changed" in person.output
    assert decisions_of(worm) == UNTOUCHED
    codes = [row["detail"]["code"] for row in refusals_by(worm, running.reviewer.uid)]
    assert codes == ["code_conflict", "code_used", "code_used", "code_conflict"]
    # Run again at once, it is held back: the thief's own decisions ended without a code a
    # moment ago, and a code typed meanwhile could be theirs. The person is told by whom, and
    # from when on codes are not affected.
    again = untaint(running, worm)
    again.code(running.app.fresh())
    assert again.finish() == 1
    held = re.search(
        r"pid (\d+) \(ended without a code\).*codes shown after (\S+Z) are", again.output
    )
    assert held and int(held.group(1)) == watcher.pid, again.output
    # With a code shown after that, the person's own untaint is taken.
    running.app.after(parse_stamp(held.group(2)).timestamp())
    last = untaint(running, worm)
    last.code(running.app.fresh())
    assert last.finish() == 0, last.output
    assert decisions_of(worm) == {**UNTOUCHED, "tainted": False}


RECORDER = """
import json, re
from lazaretto.store.opening import Side, open_store
from lazaretto.store.station.protocol import ProofError, code_proof

log, token, qid, session = {log!r}, {token!r}, {qid!r}, {session!r}
# Every key the person typed, as `script -I` recorded it in a file of theirs.
typed = [code.decode() for code in re.findall(rb"(?<![0-9])[0-9]{{6}}(?![0-9])", open(log, "rb").read())]
store = open_store(side=Side.AGENT)
call = store.blocked.by_token(token)["id"]
tried = {{}}
for code in typed:
    for name, op, subject in (
        ("approve again", "decisions.approve", call),
        ("release", "decisions.release", qid),
        ("untaint", "decisions.untaint", session),
    ):
        proven = store.with_proof(code_proof(code, store.begin(op, subject)))
        try:
            getattr(proven.decisions, op.split(".")[1])(subject)
            tried[name] = "cleared"
        except ProofError as exc:
            tried[name] = str(exc.code)
print(json.dumps({{"typed": typed, "tried": tried}}))
"""


def test_a_code_the_person_used_cannot_be_sent_again_even_for_the_same_decision(worm, running):
    log = running.reviewer.home / "typed.log"
    approve = f"{running.python} -m lazaretto.app approve {worm['token']}"
    person = Terminal(
        ["script", "--quiet", "--log-in", str(log), "--command", approve],
        worm["env"],
        user=running.reviewer.uid,
        group=running.reviewer.gid,
    )
    code = running.app.fresh()
    person.code(code)
    assert person.finish() == 0, person.output
    assert decisions_of(worm) == {**UNTOUCHED, "call": "approved"}
    replayed = run_script(
        running,
        running.reviewer,
        RECORDER.format(
            log=str(log), token=worm["token"], qid=worm["qid"], session=worm["session"]
        ),
    )
    assert replayed["typed"] == [code]
    assert replayed["tried"] == {
        "approve again": "code_used",
        "release": "code_used",
        "untaint": "code_used",
    }
    assert decisions_of(worm) == {**UNTOUCHED, "call": "approved"}
