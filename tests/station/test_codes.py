"""A decision's one-time code: RFC 6238, accepted once, for the decision begun with it only, and
never while another connection's decision waited for a code the person may have typed."""

import base64
from datetime import UTC, datetime

import pytest
from support.authenticator import proven, wrong
from support.station_records import seed, state_of

from lazaretto.store.station.client import StationStore
from lazaretto.store.station.guard import StatePaths
from lazaretto.store.station.marker import Marker
from lazaretto.store.station.onetime import Enrolment, OneTimeCodes
from lazaretto.store.station.pending import MOST_KEPT, REMEMBERED
from lazaretto.store.station.protocol import ErrorCode, ProofError, code_proof


def refused(decide) -> ProofError:
    with pytest.raises(ProofError) as caught:
        decide()
    return caught.value


def another(station) -> StationStore:
    """A second connection: another process of the same account, as an attacker's would be."""
    return StationStore(Marker(path=None, socket=str(station.settings.socket)))


def test_codes_are_rfc_6238_sha1_thirty_seconds_six_digits(station, client, clock):
    # RFC 6238, appendix B: the SHA-1 seed at four times, its eight digits cut to the last six.
    paths = StatePaths.under(station.settings.state_dir)
    seed_key = base64.b32encode(b"12345678901234567890").decode()
    OneTimeCodes(paths.secret, paths.spent).enrol(Enrolment(seed_key, "rfc"))
    for moment, code in (
        (59, "287082"),
        (1111111109, "081804"),
        (1234567890, "005924"),
        (2000000000, "279037"),
    ):
        clock.now = datetime.fromtimestamp(moment, UTC)
        client.sessions.taint("s", server="web", tool="fetch", method="tools/call", reason="read")
        assert (
            refused(
                lambda c=code: proven(client, "decisions.untaint", "s", wrong(c)).decisions.untaint(
                    "s"
                )
            ).code
            is ErrorCode.WRONG_CODE
        )
        assert proven(client, "decisions.untaint", "s", code).decisions.untaint("s") == 1


def test_a_code_is_accepted_once_even_for_the_same_decision(client, station, serve, authenticator):
    seeded = seed(client)
    code = authenticator.shown()
    earlier = authenticator.shown(-1)
    proven(client, "decisions.dismiss_field", seeded["qid"], code).decisions.dismiss_field(
        seeded["qid"]
    )
    again = proven(client, "decisions.undismiss_field", seeded["qid"], code)
    used = refused(lambda: again.decisions.undismiss_field(seeded["qid"]))
    assert used.code is ErrorCode.CODE_USED
    # Nor on another connection, nor an earlier code never used (its step is behind a spent one).
    other = another(station)
    for typed in (code, earlier):
        replay = proven(other, "decisions.untaint", seeded["session"], typed)
        used = refused(lambda r=replay: r.decisions.untaint(seeded["session"]))
        assert used.code is ErrorCode.CODE_USED
    other.close()
    # Spent stays spent across a restart of the station: it is kept on disk.
    station.shutdown()
    serve()
    client.close()
    replay = proven(client, "decisions.untaint", seeded["session"], code)
    assert refused(lambda: replay.decisions.untaint(seeded["session"])).code is ErrorCode.CODE_USED
    assert client.blocked.get(seeded["blocked"])["status"] == "pending"


def test_a_code_typed_for_one_decision_clears_no_other(client, authenticator, clock):
    seeded = seed(client)
    before = state_of(client, seeded)
    # Begun as an approval, sent as an untaint: refused, and the code is used up.
    code = authenticator.fresh()
    mixed = proven(client, "decisions.approve", seeded["blocked"], code)
    assert refused(lambda: mixed.decisions.untaint(seeded["session"])).code is ErrorCode.NOT_BEGUN
    assert refused(lambda: mixed.decisions.approve(seeded["blocked"])).code is ErrorCode.CODE_USED
    # The same operation on another subject is another decision.
    code = authenticator.fresh()
    other = proven(client, "decisions.untaint", "someone-else", code)
    assert refused(lambda: other.decisions.untaint(seeded["session"])).code is ErrorCode.NOT_BEGUN
    # A code with no decision begun, or with an id the station never gave, proves nothing.
    clock.advance(seconds=30)
    for decision in (None, "0123456789abcdef"):
        unbegun = client.with_proof({"code": authenticator.fresh(), "decision": decision})
        assert refused(lambda u=unbegun: u.decisions.untaint(seeded["session"])).code is (
            ErrorCode.NOT_BEGUN
        )
        clock.advance(seconds=30)
    assert state_of(client, seeded) == before


def test_a_code_read_on_its_way_clears_nothing_and_the_person_is_told(
    client, station, authenticator
):
    seeded = seed(client)
    before = state_of(client, seeded)
    # The person's command begins the untaint and asks for the code...
    person = client.begin("decisions.untaint", seeded["session"])
    typed = authenticator.shown()
    # ...which a process of the same account reads as it is typed, and sends first, for its own
    # decision: refused, because the person's decision was waiting for a code.
    thief = another(station)
    stolen = proven(thief, "decisions.approve", seeded["blocked"], typed)
    theft = refused(lambda: stolen.decisions.approve(seeded["blocked"]))
    assert theft.code is ErrorCode.CODE_CONFLICT
    assert "decisions.untaint begun by uid" in str(theft) and "(waiting)" in str(theft)
    # The person's command, when its code arrives, is told what happened; nothing is cleared.
    told = refused(
        lambda: client.with_proof(code_proof(typed, person)).decisions.untaint(seeded["session"])
    )
    assert told.code is ErrorCode.CODE_CONFLICT
    assert "a code was presented for decisions.approve begun by uid" in str(told)
    assert state_of(client, seeded) == before
    # Begun again, with a code nobody else saw, the person's own decision is taken.
    mine = proven(client, "decisions.untaint", seeded["session"], authenticator.shown(1))
    assert mine.decisions.untaint(seeded["session"]) == 1
    thief.close()


def test_a_code_read_while_the_person_gave_up_still_meets_their_decision(
    client, station, authenticator, clock
):
    seeded = seed(client)
    client.begin("decisions.untaint", seeded["session"])
    typed = authenticator.shown()
    client.withdraw()  # the person's process never got the code: they cancelled
    clock.advance(seconds=20)
    thief = another(station)
    stolen = proven(thief, "decisions.approve", seeded["blocked"], typed)
    theft = refused(lambda: stolen.decisions.approve(seeded["blocked"]))
    assert theft.code is ErrorCode.CODE_CONFLICT and "ended without a code" in str(theft)
    assert "codes shown after" in str(theft)  # if it was their own, when to try again
    assert client.blocked.get(seeded["blocked"])["status"] == "pending"
    thief.close()


def test_a_decision_left_waiting_by_another_process_holds_every_code_back_and_is_named(
    client, station, authenticator
):
    seeded = seed(client)
    squatter = another(station)
    squatter.begin("decisions.approve", seeded["blocked"])
    person = proven(client, "decisions.untaint", seeded["session"], authenticator.shown())
    held = refused(lambda: person.decisions.untaint(seeded["session"]))
    assert held.code is ErrorCode.CODE_CONFLICT
    assert "decisions.approve begun by uid" in str(held)
    assert client.sessions.state(seeded["session"]).tainted
    squatter.close()


def test_only_decisions_can_be_begun_and_their_number_is_bounded(client, clock):
    for op in ("sessions.clear", "sessions.taint", "station.unlock", 7):
        with pytest.raises(Exception, match="is not a decision a person can begin"):
            client.begin(op, "x")  # type: ignore[arg-type]
    for _ in range(MOST_KEPT):
        client.begin("decisions.untaint", "s")
    with pytest.raises(Exception, match="try again later"):
        client.begin("decisions.untaint", "s")
    clock.advance(seconds=REMEMBERED + 1)
    assert client.begin("decisions.untaint", "s")


def test_locks_that_follow_each_other_grow_until_a_right_code(client, authenticator, clock):
    seeded = seed(client)

    def guess() -> ProofError:
        attempt = proven(
            client, "decisions.untaint", seeded["session"], wrong(authenticator.shown())
        )
        return refused(lambda: attempt.decisions.untaint(seeded["session"]))

    for minutes in (15, 30, 60):
        codes = [guess().code for _ in range(5)]
        assert codes == [ErrorCode.WRONG_CODE] * 4 + [ErrorCode.LOCKED]
        clock.advance(minutes=minutes - 1)
        assert guess().code is ErrorCode.LOCKED
        clock.advance(minutes=1, seconds=1)
    # A right code ends the run of locks: the next five wrong ones lock for fifteen minutes again.
    authenticator.forget()
    proven(client, "decisions.untaint", seeded["session"], authenticator.fresh()).decisions.untaint(
        seeded["session"]
    )
    [guess() for _ in range(5)]
    clock.advance(minutes=15, seconds=1)
    assert guess().code is ErrorCode.WRONG_CODE
