"""The concept tables: what each signal is made of, as words in every covered language.

A concept is one idea an instruction is built from ("ignore", "previous", "instructions"); a
signal is a few concepts in one clause (see `concept_rules`). So a language is covered by
writing its words for each concept, not by collecting attack sentences in it, and word order
does not matter (Japanese and Turkish put the verb last).

Terms are separated by `|`. A term matches the start of a word and any ending (inflections,
Korean particles), or anywhere in scripts written without spaces; `=` before a term asks for
the whole word, `*` for anywhere inside a word (German compounds). Terms are folded the way the
text is (accents dropped, lower case), so they are written with their accents.

Each language's words are in its own file (`languages/en.py`, `languages/de.py`, ...), keyed by
the concepts named here; this file says what each concept is and builds the table from them
(`concept_table`).
"""

from functools import cache

from .languages import Language, words

Table = dict[str, dict[Language, str]]

# Every concept, in the order the table lists them.
CONCEPT_NAMES = (
    # --- the verbs of an override
    "ignore",
    # --- what came before: "previous", "above", "original"
    "previous",
    "all",
    "instructions",
    # --- the assistant's own configuration
    "system",
    "prompt",
    "message",
    "reveal",
    "verbatim",
    # --- the one being addressed: "your" (instructions), "you" (are now ...)
    "your",
    "ai",
    "now",
    "role",
    "unrestricted",
    "no_refusal",
    # --- a reply dictated to the reader: "reply 'Scout ready'", "responda apenas «...»"
    "answer_with",
    # --- a new self given to the reader: "you are 'Max'", "eres «Sofía»", "你是“小助手”"
    "you_are",
    # --- a self to take on: an identity, a persona, a character, a mode
    "persona",
    # --- switching a safeguard off
    "disable",
    "safeguard",
    "new",
    # --- secrets and data
    "secret",
    "send",
    "user_data",
    # --- keeping the person in the dark
    "conceal",
    # --- the reader's work swapped for another: "... and instead send ...", "stattdessen"
    "instead",
    # --- what a summary or an answer must say, leave out or recommend: the reader's output steered
    "steer",
    "user",
    # --- who claims to speak
    "admin",
    "note",
    # --- making the agent act: tools and commands
    "run",
    "tool",
    # --- a fixed reply: "say ...", "answer only with ..."
    "say",
    "only",
    # --- what is kept from view: hidden, internal, confidential
    "hidden",
    # --- a claim of standing: "with admin authority", "authorized by"
    "authority",
    # --- the agent's answer, and the start of it ("begin your reply with ...")
    "reply",
    "begin",
    # --- instructions declared void
    "cancel",
    "task",
    # --- a speaker presenting themselves: "I am the administrator"
    "i_am",
    # --- acting on the user's things: the request a review, bio or event name has no reason to make
    "act",
    "asset",
    "please",
    # --- the owner's own: "my account", "mein Konto", "私の口座"
    "my",
    # --- instructions as something the reader was handed: "the instructions you were given"
    "given",
    # --- haste: "right away", "sofort", "立即" (an order in a review does not wait)
    "urgent",
    # --- the reader singled out: "if you are an AI", "to any assistant reading this"
    "if_you_are",
    "reading_this",
    # --- the reader as someone's stand-in, managing, ordering or booking for them ("if you are
    # ordering for the account holder", "falls Sie das Konto für jemanden verwalten")
    "on_behalf",
    # --- a wish that someone else do something ("asked that the assistant ...", "quiere que el
    # asistente ..."): what follows is what the writer wants done
    "wish",
    # --- the verbs of a frame that reports what someone gets the model, or a program its users,
    # to do ("asks the model to", "allows users to"; see `concept_shapes.reporting_frames`)
    # --- an obligation laid on someone named in the third person ("assistants should ...")
    "modal",
    "frame",
    # --- talk about attacks rather than an attack: "attackers ask the model to ..."
    "discussion",
)


@cache
def concept_table() -> Table:
    """Each concept's terms, by language, in the order of `Language` (built when first asked:
    every language's file is loaded for it, and a process that finds the folded terms in the
    cache folder never asks, see `lexicon.terms`)."""
    return {
        concept: {
            language: words(language)[concept]
            for language in Language
            if concept in words(language)
        }
        for concept in CONCEPT_NAMES
    }
