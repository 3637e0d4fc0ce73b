"""The proxy's cleaner, built when a message first needs it: the judge is most of a start-up.

The detector, the sanitizer and the tables they build take longer to load than everything else
a proxy does before its first answer, and a trusted server's plain lines never need them: such a
proxy answers `initialize` without them. So does an untrusted one, for an answer the judge found
clean before under the same policy and code (see `clean_answers`). (Loading them on a background
thread once the proxy has answered was tried: the thread holds the GIL for tens of milliseconds,
and the calls relayed meanwhile waited for it, a trusted server's small calls twelve times longer
at the 95th percentile.)
"""

from typing import TYPE_CHECKING

from .clean_answers import CleanAnswers
from .fingerprint_index import FingerprintIndex
from .model_methods import MODEL_TEXT_METHODS

if TYPE_CHECKING:
    from lazaretto.store.opening import StoreAPI

    from ..exposure import Exposure
    from ..policy import Policy
    from .cleaner import FieldCleaner


class DeferredCleaner:
    """A mediator's cleaner that builds its `FieldCleaner` for the first message that needs it
    (the mediator calls its cleaner for one message at a time)."""

    def __init__(
        self, store: "StoreAPI", policy: "Policy", server: str, session: str, exposure: "Exposure"
    ) -> None:
        self._index = FingerprintIndex(store)
        self._arguments = (store, policy, server, session, exposure, self._index)
        self._cleaner: FieldCleaner | None = None
        # Untrusted text the server wrote for the model is left as it came, when the judge found it
        # clean before, unless a label is added to it (see clean_answers).
        self._clean_answers = None if policy.labels(server) else CleanAnswers(policy)
        # The inputs of an answer the judge just found clean, kept once it is written (`settle`).
        self._unremembered: str | None = None

    def __call__(
        self,
        method: str,
        tool: str | None,
        request_id: str | None,
        payload: dict,
        untrusted: bool,
        plain: bool = False,
        line: bytes | None = None,
    ) -> dict | None:
        answers = self._clean_answers if untrusted and method in MODEL_TEXT_METHODS else None
        cleaner = self._cleaner
        if cleaner is None:
            if not untrusted and plain and self._repeats_nothing(line):
                return None
            if (
                answers is not None
                and answers.known(method, payload)
                and self._repeats_nothing(line)
            ):
                return None
            from .cleaner import FieldCleaner

            cleaner = self._cleaner = FieldCleaner(*self._arguments)
        cleaned = cleaner(method, tool, request_id, payload, untrusted, plain, line)
        if answers is not None and cleaner.judged_clean:
            self.settle()  # one answer at a time
            self._unremembered = answers.inputs(method, payload)
        return cleaned

    def settle(self) -> None:
        """Remember the answer the judge last found clean, if any: called once the answer is
        written (see `Mediator.answered`), so that the client, which waits for the answer, does
        not wait for the listing of the code that judged it (a few milliseconds of a start)."""
        unremembered, self._unremembered = self._unremembered, None
        if unremembered is not None and self._clean_answers is not None:
            self._clean_answers.keep(unremembered)

    def _repeats_nothing(self, line: bytes | None) -> bool:
        """FieldCleaner's first two answers for a message no field of which is stripped or
        withheld, such as a plain trusted line: None when no withheld payload is known, or when
        the line holds no anchor word of one."""
        if not self._index.active():
            return True
        return line is not None and self._index.anchors_in_line(line) == set()
