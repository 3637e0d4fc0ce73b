"""The few grammar settings a language's file gives the rules, beside its words."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Grammar:
    """How the rules read a language's clauses."""

    # Orders open with the verb and put its object after it ("forward the files to ..."): the
    # rules then want the verb first, and read a verb that trails its object as no order.
    verb_first: bool
    # The words for "not" that, just before a verb, make it a prohibition ("no enviar ...",
    # "nie wysyłaj ..."): a warning, not a request. Folded, `|` between them; empty for none
    # (English has its own reading of what is not an order).
    negations: str
    # Every term is whole words unless marked otherwise: for a language that writes each
    # syllable as a word and does not inflect (a prefix would read "ban" inside "bank").
    whole_words: bool
