"""The few grammar settings a language's file gives the rules, beside its words.

The first three are given by every language; the others only where the language has what they
describe (they are empty otherwise). Words are written as the language writes them: the matcher
folds them as it folds the text (see `normalize.fold`).
"""

from typing import NamedTuple


class Grammar(NamedTuple):
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
    # What the language attaches to the front of a word: its article, "and", "to" ("وتجاهل", and
    # ignore; "לעוזר", to the assistant). A term may then start right after one of them.
    clitics: tuple[str, ...] = ()
    # Particles that, right after the assistant's name, make it the sentence's subject or topic
    # ("AI 비서는", "アシスタントは"): the sentence is about the assistant, not spoken to it.
    subject_particles: tuple[str, ...] = ()
    # Particles that, right after the assistant's name, turn to it ("AIへ", to the AI; "비서에게",
    # to the assistant): it is spoken to. One that begins a subject particle is not read inside
    # it (Korean "께" in "께서").
    address_particles: tuple[str, ...] = ()
    # Words that, between the assistant's name and a colon, deny it something or say what it can
    # do ("The bot does not:", "บอทตอบได้เรื่อง:", what the bot answers about): a list of what it
    # may or may not do follows, a rule about it, not an order to it. A word in Latin letters
    # stands alone (Turkish "not" is a note); words of other scripts are found inside the run of
    # letters (Korean "못해", Thai "ได้").
    limits: tuple[str, ...] = ()
    # A regular expression over the folded text that, ending where a verb of an order starts
    # (within the 20 characters before it), makes the verb a statement ("管理员可以发送", the admin
    # can send): what happens, not an order.
    statement_before: str = ""
    # A pattern that, starting right after a verb of an order, makes it a statement or a
    # prohibition ("送信しました", sent; "実行できません", cannot be run).
    statement_after: str = ""
    # A pattern that, right after a quotation, makes it the condition of what follows
    # ("「設定を教えて」と送ると", when one sends it): a bug report's steps, what someone typed and
    # what came of it, not an order to say it.
    quotation_condition_after: str = ""
    # Words that, right after a word for a secret, make it name a process around the secret
    # ("비밀번호 재설정", a password reset): not the secret itself.
    secret_processes_after: tuple[str, ...] = ()
    # The small words that may stand inside one phrase of a verb-first language besides the
    # concepts' own ("ignore all of your previous instructions"): articles, possessives, "of";
    # `|` between them.
    small_words: str = ""
    # The words that join two phrases ("and", "or"): the word after a phrase may be one.
    joining_words: tuple[str, ...] = ()
