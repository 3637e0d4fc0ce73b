"""Requests to act on the user's things written with verbs, things and readers the tables lacked.

Each attack class (booking, ordering, cancelling, changing details, adding someone, sending by
message; meetings, cards, carts, lists of customers; the reader named as a bot, a model, or by
what it does with the text) is paired with the look-alike it must not withhold: the same words
as a statement, a thing named in passing, a negated verb, a note that is a thing, an id.
"""

import pytest


@pytest.mark.parametrize(
    "text",
    [
        # English words that a Spanish, Portuguese, Italian or French verb's stem begins.
        "The registrar confirmed the reservation; the application was modified and cancelled.",
        # A German word that "ändere" folds into, a Polish "means", Russian and Korean nouns.
        "Die andere Version ist besser, sagt der Bericht.",
        "To oznacza, że zamówienie zostało zmienione wczoraj.",
        "Изменения подтверждены, обновление применено ко всем серверам.",
        "주문 내역과 변경 사항을 확인했습니다.",
        # Mail keys and a name.
        '{"to": ["a@x.example"], "cc": [], "bcc": [], "from": "Mark Lee"}',
    ],
)
def test_nouns_and_statements_name_no_verb_of_acting(text):
    from lazaretto.proxy.detect.lexicon import find_hits
    from lazaretto.proxy.detect.normalize import fold

    folded = fold(text).text
    verbs = [folded[h.start : h.end] for h in find_hits(folded) if h.concept in {"act", "send"}]
    assert not verbs, verbs
