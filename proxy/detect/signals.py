"""The signal table: each kind of instruction-shaped text, as patterns over folded text.

Every pattern reads the folded form (lower case, ASCII look-alikes, see `normalize`). Each is
written to run in linear time: no nested unbounded repetition, gaps between words bounded
(`_GAP`, `_words(n)`), possessive word matches. Which ones are worth running on a text is
answered by `engine` from the patterns themselves: no list of trigger words is kept beside them
to drift out of step.

Weights say how much one match means on its own; no single benign-looking phrase reaches the
default threshold alone, except the few that have no benign use (an instruction override).
"""

import re
from dataclasses import dataclass
from functools import cache, cached_property

from ..matcher import engine
from .rule_table import NAMING_DETERMINERS, RULES

# The signal of words that mix scripts; unlike the others it weighs more for each recurrence.
HOMOGLYPHS = "homoglyphs"


@dataclass(frozen=True)
class Pattern:
    """One way a signal shows up in folded text."""

    name: str
    weight: float
    source: str

    @cached_property
    def regex(self) -> re.Pattern:
        # Compiled when first needed: most patterns of a short-lived process (a hook, a proxy's
        # start-up) never are, and compiling the whole table took a fifth of a proxy's start-up.
        return re.compile(searchable(self.source))


# A pattern that opens with `\b` and a word, or a group of words, gives `re` no first character
# to look for: it is tried at every place of the text. With the word boundary written as a
# look-behind after the word's first letter (the character before that letter is no word
# character), it matches exactly the same, and `re` skips in C to the places where such a letter
# stands. Not where the word may be left out (a quantifier after it): there `\b` stands alone;
# nor in a pattern of alternatives, each opening with `\b`, which `re` tries as one `\b` first.
_BOUNDARY_BEHIND = r"(?<!\w.)"


@cache
def _opening_word() -> re.Pattern[str]:
    return re.compile(r"\\b([a-z])(?![?*+{])")


@cache
def _opening_words() -> re.Pattern[str]:
    return re.compile(r"\\b\(\?:((?:[a-z]+\|)*[a-z]+)\)(?![?*+{])")


def searchable(source: str) -> str:
    """`source` as `re` searches it fastest: a `\\b` before its opening word (or each word of its
    opening group) written after that word's first letter (see above)."""
    if _alternatives(source):
        return source
    if words := _opening_words().match(source):
        opened = (word[0] + _BOUNDARY_BEHIND + word[1:] for word in words.group(1).split("|"))
        return f"(?:{'|'.join(opened)})" + source[words.end() :]
    if letter := _opening_word().match(source):
        return letter.group(1) + _BOUNDARY_BEHIND + source[letter.end() :]
    return source


def _alternatives(source: str) -> bool:
    """Whether `source` is alternatives at its top level (a `|` outside every group and class).
    Only a matter of speed: the rewrite matches the same either way."""
    depth, i = 0, 0
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            i += 1
        elif ch == "[":
            # A class runs to its first `]` that is neither escaped nor its first member.
            i += 2 if source.startswith("^", i + 1) else 1
            i += source.startswith("]", i)
            while source[i] != "]":
                i += 2 if source[i] == "\\" else 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and not depth:
            return True
        i += 1
    return False


# Between two words: spaces, punctuation, a line break; not a table's bar (cells are apart).
_GAP = r"[^\w|]{1,6}"


def _words(most: int) -> str:
    """Up to `most` filler words, matched lazily (so the shortest phrase wins)."""
    return rf"(?:\w++{_GAP}){{0,{most}}}?"


_AI = (
    r"(?:ai|a\.i\.|artificial intelligence|(?:ai |virtual |digital )?assistants?|llms?|(?:large )?language models?"
    r"|(?:ai |autonomous |coding )?agents?|chat ?bots?|(?:local |ai )?models?|claude|chatgpt|gpt(?:-?\d[\w.]*)?"
    r"|gemini|copilot|llama|mistral|mixtral|command r|automated (?:\w+ )?(?:software|systems?|tools?|agents?|readers?"
    r"|reviewers?|processors?))"
)
_INSTRUCTION_NOUN = (
    r"(?:\w*nstruct\w*|directions?|directives?|prompts?|rules|guidelines|guidance|commands|orders|constraints"
    r"|programming|system prompt|polic(?:y|ies)|restrictions|safety \w+|context)"
)
_SECRET = (
    r"(?:\.env(?:\.\w+)?\b|id_(?:rsa|ed25519|ecdsa|dsa)|~/\.ssh|\.ssh/|api[ _-]?keys?|(?:access|auth|bearer|session"
    r"|secret|refresh|github|slack|aws|api)? ?tokens?|passwords?|passwd|credentials?|private[ _-]keys?|secret[ _-]?keys?"
    r"|security codes?|one-time (?:code|password)|2fa codes?|seed phrase|recovery phrase|passport numbers?"
    r"|credit card(?: numbers?)?|bank account numbers?|social security numbers?|system prompt)"
)
_DESTINATION = (
    r"(?:https?://|www\.|[\w.+-]+@[\w-]+\.[a-z]|(?:\d{1,3}\.){3}\d{1,3}|\b[a-z]{2}\d{2}[a-z0-9]{10,30}\b"
    r"|(?:this|the|that|my|our|an?|following|attacker'?s?|external)\W{1,3}"
    r"(?:(?:new|own|personal|other|secondary|backup|private)\W{1,3})?(?:url|endpoint|webhook|server|link"
    r"|site|website|domain|e-?mail address|address|account|ip(?: address)?)\b)"
)
# "TODO:" followed by an imperative that acts on the outside world.
_TODO = (
    r"todo\W{0,3}:\W{0,3}(?:please\W{1,3})?(?:send|e-?mail|transfer|post|upload|forward|delete|remove|invite|visit|go to"
    r"|make|create|change|modify|update|say|tell|get|concatenate|give|share|pay|book|reserve|call|run|execute|download"
    r"|install)\b"
)
_USER_DATA = (
    r"(?:e-?mails?|files?|messages?|documents?|contacts?|attachments?|inbox|calendar(?: entries| events)?|notes"
    r"|photos?|conversations?|chat history|history|records|dms|texts)"
)
# Imperatives that act on the user's data or the outside world, after the AI is called by name.
# The verb must take an object ("forward the ...", "send me ..."), so a heading such as
# "AI: share of revenue" is not read as an order.
_ACTION = (
    r"(?:forward|send|e-?mail|share|upload|transfer|delete|remove|export|pay|invite|grant|execute|ignore|disregard"
    r"|visit|download|install|tell|give)\W{1,3}(?:the|all|my|your|his|her|their|this|these|those|every|any|me|us"
    r"|them|it|an?)"
)
# An account number in IBAN form (country, check digits, the rest), as the folded text spells it.
_IBAN = r"\b[a-z]{2}\d{2}[a-z0-9]{10,30}\b"
# A sending verb given as an order: not a statement of who sends ("we send a reset link to
# ...", "I'll forward it to ...", but "you may send" is said to the reader), not a noun ("an
# e-mail with a link to ..."), not a key or label ("email": "...", "to": "...").
_SUBJECTS = ("we", "i", "they", "he", "she")
_MODALS = ("will", "would", "can", "could", "may", "might")
_WORDS_BEFORE = (
    *_SUBJECTS,
    *(f"{subject} {modal}" for subject in _SUBJECTS for modal in _MODALS),
    *(f"{subject}'ll" for subject in _SUBJECTS),
    # A prohibition ("please don't send your password to anyone", "do not share it", "what not
    # to paste into a chatbot").
    *"never not don't dont usually the a an this each every no of via per".split(),
    "not to",
    # Someone's request to the writer, reported ("Ana asked us to send the invoices to ...").
    *(
        f"{verb} {whom} to"
        for verb in ("asked", "asks", "told", "tells", "wants", "wanted")
        for whom in ("us", "me")
    ),
)
# (what stands before the verb, as a regex; its width in characters)
_NOT_BEFORE = (
    ("e-", 2),  # the "mail" of "e-mail"
    ("=", 1),  # a value: "action=forward"
    *((rf"\b{re.escape(words)} ", len(words) + 1) for words in _WORDS_BEFORE),
    # A programmer's note after a comment marker ("// forward every metric to ...").
    *(
        (re.escape(f"{marker} "), len(marker) + 1)
        for marker in ("#", "//", "--", "/*", "/**", "\n *", "\n*")
    ),
)
# One look-behind per width (its alternatives must share one): a few checks at each word start
# instead of one per phrase.
_NOT_AN_ORDER = "".join(
    f"(?<!{'|'.join(piece for piece, size in _NOT_BEFORE if size == width)})"
    for width in sorted({size for _, size in _NOT_BEFORE})
)


def _order(verbs: str) -> str:
    """One of `verbs` (an alternation) with no word before it that makes it a statement.

    The look-aheads (no character but a verb's first letter, then one of the verbs) stand before
    the look-behinds, so those are tried only where a verb starts rather than at every word whose
    letter may begin one (each is some seventy comparisons): the same matches, for a fraction of
    the work. They are negative ones (the second twice over) so that strings generated from the
    pattern (the engine's tests) need not spell them.
    """
    first = "".join(sorted({verb[0] for verb in verbs.split("|")}))
    # Not a request line's method either ("POST /v1/password/reset").
    # Not an item of a list of nouns ("user email, calendar, files") either.
    return rf"(?![^{first}])(?!(?!{verbs})){_NOT_AN_ORDER}(?:{verbs})(?![ \t]{{1,3}}/|,)"


_SEND = (
    _order(
        "send|post|upload|forward|submit|transmit|exfiltrate|leak|e-?mail|mail|share|push|deliver|transfer"
    )
    + r"(?![\"']?[ \t]{0,2}:)"
)
# After a secret word: no noun of the process it names ("send a password-reset link", "share
# the password manager's invite"), where what is sent is the link, not the secret.
_NOT_A_PROCESS = r"(?![ \t-]{1,2}(?:reset|recovery|change|manager|policy|expiry|hint|rotation)\b)"
# Verbs that ask for something to be handed over or shown.
_HAND_OVER = (
    "send|share|give|tell|reveal|print|output|show|provide|include|paste|read|cat|display|leak|post"
    "|upload|list|dump|forward|e-?mail|get|retrieve|fetch|extract|copy|append|what is|what's"
)

_SIGNED_IN = "".join(
    f"(?<!{verb} {part} )" for verb in ("sign", "log", "signed", "logged") for part in ("in", "on")
)
# Not after an article or a determiner: "the system message" is a kind of text the writer names,
# "System message:" heads a text that claims to be one.
_NOT_NAMED = "".join(rf"(?<!\b{word} )" for word in NAMING_DETERMINERS)
# What an agent's input is made of, as a fake end of it names it ("end of tool output").
_INPUT_PART = (
    r"(?:input|output|data|document|message|text|content|prompt|instructions|context|conversation"
    r"|session|profile|e-?mail|file|page|result|transcript|query|request|turn|review|comment|ticket)s?"
)
# A delimiter's marks around such a line: dashes, equals, brackets, quotes.
_MARK_OPEN = r"(?:^|\n|[<\[(\-=#*_~—–\"'`])[ \t\-=#*_~—–\"'`\[(<]{0,6}"
_MARK_CLOSE = r"[ \t\-=#*_~—–\"'`\])>.:]{0,8}"
_FAKE_END = (
    rf"{_MARK_OPEN}(?:end|close){_GAP}(?:of{_GAP})?(?:the{_GAP})?{_words(2)}{_INPUT_PART}\b"
    rf"|{_MARK_OPEN}{_words(2)}{_INPUT_PART}{_GAP}ends?{_GAP}here\b"
)
# A voice that claims the turn after it.
_NEW_VOICE = (
    r"[\[<(=#*\-]{0,6}[ \t]*(?:system|assistant|developer|admin|administrator|operator|agent|ai)\b"
    r"|[\[<(=#*\-]{0,6}[ \t]*(?:begin|start)\b"
    r"|new[\W_]{1,3}(?:system|instructions?|directives?|prompt|task|rules|principal|role)"
    rf"|the{_GAP}next{_GAP}message|from{_GAP}now{_GAP}on"
)
# After a noun: it ends its phrase (the end, punctuation, a function word), so it is the head of
# the phrase and not a modifier of the next noun.
_HEAD = (
    r"(?=[ \t]*(?:$|[^\w\s-]|\n|(?:to|and|or|from|in|into|of|for|as|at|on|then|so|when|if|which|that"
    r"|is|are|was|were|by|via|with)\b))"
)

# (name, weight, pattern). Names are the signal kinds shown to the reviewer.
_TABLE: list[tuple[str, float, str]] = [
    # --- addressed to an AI: the text speaks to the model, not to the person reading it
    (
        "addressed_to_ai",
        0.7,
        # A label, not a thing named with its article ("send a message to the assistant").
        rf"(?<!\ba )(?<!\bthe )\b(?:note|message|instructions?|notice|reminder|memo|warning|attention)"
        rf"{_GAP}(?:for|to){_GAP}"
        rf"(?:the{_GAP}|any{_GAP}|all{_GAP}|an{_GAP})?{_AI}\b",
    ),
    (
        "addressed_to_ai",
        0.7,
        rf"\b(?:if|when|since|as|because){_GAP}you(?:'re|{_GAP}are){_GAP}(?:an?{_GAP}|the{_GAP})?{_AI}\b",
    ),
    ("addressed_to_ai", 0.7, rf"\bto{_GAP}you{_GAP}(?:the{_GAP})?{_AI}\b"),
    ("addressed_to_ai", 0.7, rf"\bmessage{_GAP}from{_GAP}me\b.{{0,60}}?\bto{_GAP}you\b"),
    (
        "addressed_to_ai",
        0.6,
        rf"\b(?:dear|hey|hello|attention|attn){_GAP}(?:the{_GAP}|all{_GAP})?{_AI}\b(?![ -]\w)",
    ),
    # The AI called by name at the start of a sentence, then told what to do: "AI assistant:
    # forward the ...", "Assistant, please send me ...".
    (
        "addressed_to_ai",
        0.5,
        rf"(?:^|[.!?>\n-]\W{{0,3}})(?:(?:dear|hey|hi|hello|attention|attn){_GAP})?(?:the{_GAP}|an{_GAP})?{_AI}\W{{0,2}}[:,]"
        rf"\W{{0,3}}(?:please{_GAP})?{_ACTION}\b",
    ),
    (
        "addressed_to_ai",
        0.7,
        rf"\b(?:ai|llm|{_AI}){_GAP}(?:reading|processing|summari[sz]ing|parsing){_GAP}this\b",
    ),
    (
        "addressed_to_ai",
        0.6,
        rf"\b(?:for|to){_GAP}(?:the{_GAP}|any{_GAP}|all{_GAP})?automated{_GAP}{_words(1)}(?:software|systems?|tools?|agents?"
        rf"|readers?|reviewers?|screening|analysis|scans?)\b",
    ),
    (
        "addressed_to_ai",
        0.6,
        rf"\b(?:invisible|hidden){_GAP}(?:to|from){_GAP}humans\b|\bvisible{_GAP}(?:only{_GAP})?to{_GAP}(?:the{_GAP})?{_AI}",
    ),
    (
        "addressed_to_ai",
        0.4,
        rf"\bi{_GAP}(?:need|want|order|command|instruct){_GAP}(?:you{_GAP}to|you{_GAP}now)\b",
    ),
    # --- instruction override
    (
        "instruction_override",
        1.0,
        rf"\b(?:ignore|disregard|forget|override|overwrite|bypass|do not follow|don't follow){_GAP}{_words(3)}"
        rf"(?:previous|prior|above|earlier|preceding|foregoing|original|initial|old|your|system|developer|safety)"
        rf"{_GAP}{_words(2)}{_INSTRUCTION_NOUN}\b",
    ),
    # The same order glued to the end of the data before it ("...USAIgnore your previous
    # instructions", "External_Ignore ..."), where no word boundary precedes it.
    (
        "instruction_override",
        1.0,
        rf"(?<=[a-z0-9_])(?:ignore|disregard|forget){_GAP}(?:all{_GAP})?(?:your{_GAP})?(?:previous|prior|earlier|above)"
        rf"{_GAP}{_words(1)}{_INSTRUCTION_NOUN}\b",
    ),
    (
        "instruction_override",
        0.8,
        rf"(?<!-)\b(?:ignore|disregard|forget|override|bypass){_GAP}(?:all{_GAP}|any{_GAP}|the{_GAP}|these{_GAP}|those{_GAP})?"
        rf"(?:other{_GAP}|following{_GAP}|existing{_GAP})?{_INSTRUCTION_NOUN}\b",
    ),
    (
        "instruction_override",
        0.7,
        rf"\b(?:ignore|disregard|forget|override){_GAP}your{_GAP}(?:previous|prior|earlier|original|initial)\b",
    ),
    (
        "instruction_override",
        0.8,
        rf"\b(?:ignore|disregard|skip){_GAP}the{_GAP}rest{_GAP}of{_GAP}(?:this|the){_GAP}"
        rf"(?:data|text|document|content|input|page|message|file|email)\b",
    ),
    (
        "instruction_override",
        0.7,
        # A heading announcing them, not one quoted in prose ("attackers write 'new rules:'").
        rf"(?<![\"'“‘«])\b(?:new|updated|real|actual|true){_GAP}(?:instructions?|directives?|system prompt|rules|orders)"
        rf"(?:{_GAP})?:",
    ),
    (
        "instruction_override",
        0.8,
        rf"\byour{_GAP}(?:new|real|actual|true|only){_GAP}(?:task|instructions?|role|goal|objective|purpose|job)"
        rf"{_GAP}(?:is|are|will be)\b",
    ),
    (
        "instruction_override",
        0.6,
        rf"\bstop{_GAP}{_words(1)}what{_GAP}you(?:'re|{_GAP}are){_GAP}doing\b",
    ),
    (
        "instruction_override",
        0.6,
        rf"\byou{_GAP}(?:should|must|need to){_GAP}(?:stop|halt|abort|cease){_GAP}{_words(2)}"
        rf"(?:immediately|now|at once|right away)\b",
    ),
    (
        "instruction_override",
        0.8,
        rf"\b(?:previously|earlier|above){_GAP}(?:stated|given|mentioned|provided){_GAP}{_words(1)}"
        rf"(?:constraints|rules|instructions|guidelines|restrictions){_GAP}(?:no longer apply|are void|are revoked"
        rf"|are cancelled|are obsolete|do not apply)",
    ),
    (
        "instruction_override",
        0.6,
        rf"\b(?:strictly{_GAP})?(?:adhere|obey|comply){_GAP}(?:to{_GAP}|with{_GAP})?(?:the{_GAP})?(?:following|these|my|new)"
        rf"{_GAP}{_words(1)}(?:instructions?|directives?|commands?|orders?)\b",
    ),
    (
        "instruction_override",
        0.6,
        rf"\b(?:ignore|disregard){_GAP}(?:all|any|other|this|these|everything){_GAP}{_words(1)}(?:info|information|data"
        rf"|content|text|input|indicators?|evidence|warnings|red flags|concerns|context)\b",
    ),
    (
        "instruction_override",
        0.6,
        rf"\bignore{_GAP}(?:them|it|this|that|those|these){_GAP}and{_GAP}instead\b",
    ),
    ("instruction_override", 0.6, rf"\bstop{_GAP}(?:everything|all{_GAP}(?:tasks|work|actions))\b"),
    (
        "instruction_override",
        0.5,
        rf"\b(?:you{_GAP}may{_GAP}not|do{_GAP}not|don't|never){_GAP}deviate\b",
    ),
    ("instruction_override", 0.5, r"\bfrom\W{1,3}now\W{1,3}on\b"),
    (
        "instruction_override",
        0.6,
        rf"\byou(?:'re|{_GAP}are){_GAP}(?:now{_GAP})?(?:free{_GAP}to{_GAP}(?:do|say|ignore)|no{_GAP}longer{_GAP}"
        rf"(?:bound|restricted|limited))\b",
    ),
    (
        "instruction_override",
        0.8,
        rf"\boverride{_GAP}{_words(1)}(?:scoring|evaluation|review|checks?|safety|filters?)\b",
    ),
    # --- authority claimed
    (
        "authority_claim",
        0.5,
        rf"\b(?:important|urgent|critical|official|priority){_GAP}(?:message|notice|instructions?|update|directive"
        rf"|announcement){_GAP}(?:from|for|to)\b",
    ),
    (
        "authority_claim",
        0.4,
        rf"\b(?![^admrs]){_NOT_NAMED}(?:system|admin|administrator|developer|maintainer|root|security)"
        rf"{_GAP}(?:warning|override"
        rf"|message|directive|instruction|notice|request|command|note)s?\b",
    ),
    (
        "authority_claim",
        0.5,
        rf"\b(?:the{_GAP})?(?:maintainers?|admins?|administrators?|developers?|security{_GAP}team|it{_GAP}department"
        rf"|senior{_GAP}management|management|owners?|operators?|your{_GAP}(?:creators?|developers?|operators?|owners?))"
        rf"{_GAP}(?:has{_GAP}|have{_GAP})?(?:says?|said|requires?|wants?|instructs?|orders?|asked|requested|authori[sz]ed"
        rf"|approved|mandates?)\b",
    ),
    (
        "authority_claim",
        0.6,
        rf"\bi{_GAP}am{_GAP}(?:the|your|an?){_GAP}{_words(1)}(?:admin|administrator|developer|owner|operator|creator"
        rf"|maintainer|supervisor|security officer)\b",
    ),
    (
        "authority_claim",
        0.3,
        rf"\bper{_GAP}(?:company|corporate|security|it|our){_GAP}polic(?:y|ies)\b",
    ),
    (
        "authority_claim",
        0.3,
        rf"\b(?:this{_GAP}is|it{_GAP}is){_GAP}(?:required|mandated){_GAP}by\b",
    ),
    ("authority_claim", 0.4, r"\bpre-?(?:verified|approved|authori[sz]ed)\b"),
    ("authority_claim", 0.3, rf"\b(?:really|extremely|very|super|critically){_GAP}important\b"),
    ("authority_claim", 0.4, r"\b(?:important|urgent|critical|attention|warning)\W{0,2}!{2,}"),
    # --- work slipped in ahead of the agent's task
    (
        "task_injection",
        0.5,
        rf"\bbefore{_GAP}(?:you{_GAP})?(?:can{_GAP}|do{_GAP}|start{_GAP}|begin{_GAP})?(?:solv|repl|respond|answer|continu"
        rf"|proceed|complet|finish|summari|perform|execut|return)\w*",
    ),
    ("task_injection", 0.5, rf"\bdo{_GAP}the{_GAP}following{_GAP}first\b"),
    (
        "task_injection",
        0.5,
        rf"\b(?:the|my|your){_GAP}(?:original{_GAP})?task{_GAP}(?:that{_GAP})?i{_GAP}gave{_GAP}you\b",
    ),
    (
        "task_injection",
        0.6,
        rf"\binstead{_GAP}of{_GAP}{_words(2)}(?:the{_GAP}user'?s?|your|my){_GAP}{_words(1)}"
        rf"(?:task|request|question|instructions|assignment)\b",
    ),
    (
        "task_injection",
        0.3,
        rf"(?:^|\n)\W{{0,4}}first\W{{1,3}}(?:please{_GAP})?(?:send|e-?mail|forward|post|upload|run|call|execute|delete"
        rf"|fetch|visit|transfer|read)\b",
    ),
    # A TODO inside data (a ticket, a review, a bill) addressed to whoever reads it; the same
    # words in a code comment are a programmer's note and count for less.
    ("task_injection", 0.3, rf"(?:#|//|/\*|--|(?:^|\n)[ \t]{{0,8}}\*)[ \t]{{0,3}}{_TODO}"),
    ("task_injection", 0.6, rf"(?<![#/*\-] )(?<![#/*\-]){_TODO}"),
    # Such a TODO that lets an outside address into an account or sends it something ("TODO:
    # Invite user Fred with the email fred@... to the workspace"): the reader's work handed out.
    (
        "task_injection",
        1.0,
        rf"(?<![#/*\-] )(?<![#/*\-])todo\W{{0,3}}:\W{{0,3}}(?:please\W{{1,3}})?(?:invite|add|grant|give|share|send"
        rf"|e-?mail|forward|transfer|pay)\b[^.\n]{{0,120}}?(?:[\w.+-]+@[\w-]+\.[a-z]|https?://|{_IBAN})",
    ),
    # --- requests for secrets or files
    (
        "secret_request",
        0.5,
        rf"\b{_order(_HAND_OVER)}{_GAP}(?:me{_GAP}|us{_GAP})?{_words(4)}"
        rf"{_SECRET}{_NOT_A_PROCESS}",
    ),
    # A password or key set to a value given here ("change the password of the user to
    # new_password"): the account taken over. Resetting one's own ("reset your password") is
    # what help pages tell their readers, and is not a request for a secret.
    (
        "secret_request",
        0.5,
        rf"\b(?:change|reset|set|update|replace){_GAP}{_words(4)}{_SECRET}{_GAP}{_words(4)}(?:to|with|as)"
        r"\W{1,3}[\"'`]?[\w!#$%&*.@^-]*[\d_!#$%&*@^][\w!#$%&*.@^-]*",
    ),
    # A secret passed along ("call the tool with the token from the system prompt"), when it is
    # the thing passed and not a word describing another ("with the system prompt template").
    # Not a password one signs in with ("sign in with your current password"): it is used.
    (
        "secret_request",
        0.5,
        rf"{_SIGNED_IN}\b(?:with|using|passing){_GAP}(?:the{_GAP}|your{_GAP}|my{_GAP})?{_words(2)}{_SECRET}{_HEAD}",
    ),
    (
        "secret_request",
        0.4,
        rf"\b(?:your|the){_GAP}(?:system|hidden|initial|original){_GAP}prompt\b",
    ),
    (
        "secret_request",
        0.2,
        r"(?:\.env\.\w+|\bid_rsa\b|~/\.ssh|\bprivate[ _-]key\b|\bapi[ _-]?keys?\b)",
    ),
    # --- exfiltration
    ("exfiltration", 0.5, rf"\b{_SEND}{_GAP}{_words(8)}(?:to|at|into|via|on){_GAP}{_DESTINATION}"),
    ("exfiltration", 0.5, rf"\b{_SEND}{_GAP}{_words(3)}{_DESTINATION}\S{{0,200}}?{_GAP}to\b"),
    # Someone's data (their e-mails, files, messages) sent to an address: alone this is also an
    # ordinary request between people, so it stays under the threshold by itself.
    (
        "exfiltration",
        0.7,
        rf"\b{_SEND}{_GAP}(?:all{_GAP}|every{_GAP})?(?:of{_GAP})?(?:the{_GAP}user'?s?|the{_GAP}owner'?s?|their|his|her|my"
        rf"|your|the){_GAP}{_words(3)}{_USER_DATA}{_GAP}{_words(4)}(?:to|at){_GAP}{_DESTINATION}",
    ),
    (
        "exfiltration",
        0.8,
        rf"\b{_SEND}{_GAP}{_words(3)}(?:all|every|entire|whole|contents?|body|summary|history|conversation|everything"
        rf"|inbox){_GAP}{_words(8)}(?:to|at|into|via){_GAP}{_DESTINATION}",
    ),
    (
        "exfiltration",
        0.6,
        rf"\b(?:include|append|add|encode|put|embed|attach){_GAP}{_words(5)}(?:in|into|to){_GAP}(?:the{_GAP}|a{_GAP}"
        rf"|this{_GAP})?(?:url|link|query(?: string)?|image(?: url)?|request|address bar)\b",
    ),
    ("exfiltration", 0.6, r"[?&/=][\"']?\[[a-z_]{2,12}\]"),
    (
        "exfiltration",
        0.5,
        rf"\b(?:url|base64|mime|hex|quoted\W?printable)\W?encoded{_GAP}{_words(4)}(?:summary|message|conversation|e-?mail"
        rf"|code|password|data|history|context|secrets?)\b",
    ),
    (
        "exfiltration",
        0.5,
        rf"\b(?:summary|contents?|transcript|history){_GAP}of{_GAP}{_words(4)}(?:this|our|the){_GAP}(?:conversation|chat"
        rf"|session)\b",
    ),
    # --- money moved to an account: a transfer, payment or changed recipient ending in an IBAN
    (
        "funds_transfer",
        0.5,
        rf"\b(?:transfer|send|pay|wire|move|redirect|deposit|modify|change){_GAP}{_words(12)}(?:to|into){_GAP}"
        rf"(?:(?:the|this|that|my|our|an?|new|following|bank|recipient'?s?){_GAP}){{0,3}}"
        rf"(?:(?:account|iban)(?:{_GAP}number)?{_GAP})?{_IBAN}",
    ),
    (
        "suspicious_destination",
        0.5,
        r"\b(?:webhook\.site|pastebin\.com|paste\.ee|hastebin|requestbin|pipedream\.net|ngrok(?:-free)?\.(?:io|app|dev)"
        r"|burpcollaborator|interact\.sh|oast\.(?:fun|pro|live|site|online)|hookbin|beeceptor|trycloudflare\.com)",
    ),
    ("suspicious_destination", 0.5, r"https?://(?:\d{1,3}\.){3}\d{1,3}\b"),
    # --- tool-call or shell coercion
    (
        "tool_coercion",
        0.5,
        rf"\b(?:call|use|invoke|run|execute|trigger){_GAP}(?:the{_GAP})?{_words(2)}(?:tool|function){_GAP}"
        rf"(?:`|with|to|and|named|called)",
    ),
    (
        "tool_coercion",
        0.5,
        r"\b(?:call|invoke)\W{1,3}`?[a-z][a-z0-9]*(?:__|_|\.)[a-z0-9_.]*\w\b(?!\()",
    ),
    (
        "tool_coercion",
        0.4,
        rf"\b(?:run|execute|exec){_GAP}(?:the{_GAP}following{_GAP}(?:command|script|code)|`[^`\n]{{1,200}}`"
        rf"|(?:curl|wget|bash|sh|powershell|rm|chmod|nc|scp|eval)\b)",
    ),
    (
        "tool_coercion",
        0.5,
        r"\{\W{0,3}(?:name|tool|function|tool_name)\W{0,3}:\W{0,3}[\w.-]{1,80}\W{0,3},\W{0,3}"
        r"(?:arguments|args|parameters|input)\W{0,3}:",
    ),
    ("tool_coercion", 0.4, r"\bwith\W{1,3}the\W{1,3}following\W{1,3}(?:arguments|parameters)\b"),
    ("tool_coercion", 0.5, r"\|\s{0,3}(?:sudo\s{1,3})?(?:ba|z)?sh\b"),
    # --- dependency edits
    (
        "dependency_edit",
        0.4,
        rf"\b(?:bump|add|install|upgrade|downgrade|pin|replace){_GAP}{_words(4)}(?:dependency|dependencies|package"
        rf"|library|module|requirement)\b",
    ),
    (
        "dependency_edit",
        0.5,
        rf"\b(?:edit|modify|update|change|add{_GAP}\S{{1,60}}{_GAP}to|append{_GAP}\S{{1,60}}{_GAP}to){_GAP}(?:the{_GAP}|your{_GAP})?"
        r"(?:package\.json|requirements\.txt|pyproject\.toml|cargo\.toml|go\.mod|gemfile|pom\.xml|setup\.py|build\.gradle"
        r"|package-lock\.json|yarn\.lock)",
    ),
    # --- self-replication (the worm's spread)
    (
        "self_replication",
        0.9,
        rf"\b(?:repeat|copy|include|add|append|insert|paste|propagate|spread|replicate|put){_GAP}{_words(8)}"
        rf"(?:in|into|to|at the end of|on){_GAP}(?:every|all|each|any{_GAP}future|all{_GAP}future|all{_GAP}subsequent)"
        rf"{_GAP}{_words(1)}(?:messages?|repl(?:y|ies)|responses?|answers?|e-?mails?|files?|comments?|documents?|outputs?"
        rf"|posts?|commits?|pull requests?|issues?|conversations?)\b",
    ),
    (
        "self_replication",
        0.5,
        rf"\b(?:repeat|copy|replicate|propagate|spread|forward){_GAP}(?:this|these){_GAP}{_words(1)}(?:text|message|notice"
        rf"|instructions?|prompt|note|paragraph|block|content)s?{_GAP}(?:in|into|to|verbatim|everywhere)\b",
    ),
    # --- role markers and fake chat or prompt delimiters
    # A marker that closes the input the text sits in ("— end of tool output —", "[END OF CUSTOMER
    # INPUT]", "user message ends here") and a new voice right after it (the system, the
    # developer, a new prompt, "the next message is from ..."): data that ends itself to speak
    # as someone else. A forwarded e-mail's "End of forwarded message" is followed by no voice.
    (
        "role_marker",
        1.0,
        rf"(?:{_FAKE_END}){_MARK_CLOSE}\s{{0,4}}(?:{_NEW_VOICE})",
    ),
    (
        "role_marker",
        0.8,
        r"<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id)\|?>",
    ),
    ("role_marker", 0.7, r"\[/?inst\]|<</?sys>>"),
    # Not a YAML key opening a block ("system: |"): a config file's field, not a turn.
    (
        "role_marker",
        0.4,
        r"(?:^|\n|[:.>\]]\s{1,3})[ \t>#*\-]{0,4}system\W{0,3}:[ \t]{0,3}(?=\S)(?![|>][-+]?[ \t]*(?:\n|$))",
    ),
    (
        "role_marker",
        0.5,
        r"</?(?:instructions?|information|system|sys|admin|prompt|directive|important)>",
    ),
    # Not a TOML or INI table's header, its keys on the lines below ("[assistant]\nname = ...").
    ("role_marker", 0.5, r"\[(?:system|assistant)\](?![ \t]*\n[ \t]*[\w.-]+[ \t]*=)"),
    # The end of the person's turn, written into data so what follows reads as the system's.
    (
        "role_marker",
        0.6,
        r"</(?:user_input|user_query|user_message|user_turn|human|human_turn|tool_output|tool_result"
        r"|function_results?|end_of_turn)>",
    ),
    (
        "role_marker",
        0.6,
        rf"\byou{_GAP}are{_GAP}now{_GAP}(?:in{_GAP})?(?:an?{_GAP}|the{_GAP})?(?:dan|unrestricted|unfiltered|jailbroken|free"
        rf"|evil|(?:developer|god|admin|root|jailbreak|unrestricted) mode)\b",
    ),
    ("role_marker", 0.5, r"\b(?:developer|god|dan|jailbreak|unrestricted|sudo)\W{1,3}mode\b"),
    (
        "role_marker",
        0.5,
        rf"\b(?:act|behave|respond){_GAP}as{_GAP}(?:an?{_GAP}|the{_GAP}|my{_GAP})?{_words(1)}(?:unrestricted|unfiltered"
        rf"|jailbroken|evil|dan|different ai|new ai)\b",
    ),
    ("role_marker", 0.4, rf"\bpretend{_GAP}(?:to{_GAP}be|you(?:'re|{_GAP}are)){_GAP}"),
    (
        "role_marker",
        0.6,
        r"[<\[\-=#*]\W{0,3}(?:end|begin|start)\W{1,3}(?:of\W{1,3})?(?:system\W{1,3}prompt|session|conversation|instructions"
        r"|context|user\W{1,3}input|prompt)\W{0,3}[>\]\-=#*]",
    ),
    ("role_marker", 0.5, r"(?:^|\n)[ \t]{0,4}[-=#*]{2,}[^\n]{0,40}\binstructions?\b"),
    # --- a fake conversation written into the data
    (
        "fake_dialogue",
        0.5,
        # Not a key of code or config given a string ("model: \"gpt-4o\"") or an identifier
        # alone on its line ("model: claude-3-5-sonnet").
        r"(?:^|\n)[ \t>#*\-]{0,4}(?:assistant|ai|bot|gpt|model)\W{0,2}:[ \t]{0,3}(?=[^\s\"'`\\])"
        r"(?![\w.:/-]*[\d./-][\w.:/-]*[ \t]*(?:\n|$))",
    ),
    (
        "fake_dialogue",
        0.3,
        r"(?:^|\n)[ \t>#*\-]{0,4}(?:user|human)\W{0,2}:[ \t]{0,3}(?=[^\s\"'`\\])",
    ),
    # --- concealment from the person
    (
        "concealment",
        0.5,
        rf"\b(?:do{_GAP}not|don'?t|never|without){_GAP}{_words(1)}(?:tell|telling|mention|mentioning|inform|informing"
        rf"|notify|notifying|alert|alerting|reveal|revealing|ask|asking|show|showing|disclose|disclosing|confirm"
        rf"|confirming){_GAP}{_words(1)}(?:the{_GAP}user|me|anyone|them|this|the{_GAP}owner|any{_GAP}of{_GAP}this)\b",
    ),
    # Keeping the person the agent works for from hearing of it ("don't tell the user", "do not mention
    # any of this"): data has no reason to ask its reader that, so this alone reaches the threshold.
    (
        "concealment",
        1.0,
        rf"\b(?:do{_GAP}not|don'?t|never|without){_GAP}{_words(1)}(?:(?:tell|telling|inform|informing|notify|notifying)"
        rf"{_GAP}(?:the{_GAP}user|the{_GAP}owner)|(?:mention|mentioning|reveal|revealing|disclose|disclosing)"
        rf"{_GAP}any{_GAP}of{_GAP}this)\b",
    ),
    (
        "concealment",
        0.5,
        rf"\b(?:silently|secretly|quietly|covertly|discreetly){_GAP}{_words(1)}(?:send|add|include|run|execute|forward"
        rf"|delete|change|append|insert|call|upload)\b",
    ),
    # --- controlling what the model outputs
    (
        "output_control",
        0.4,
        rf"\b(?:just|only|simply|and){_GAP}(?:print|say|output|respond{_GAP}with|reply{_GAP}with|answer{_GAP}with|return"
        rf"|write)\b",
    ),
    (
        "output_control",
        0.5,
        rf"\b(?:respond|reply|answer){_GAP}(?:only{_GAP}with|with{_GAP}only)\b",
    ),
    (
        "output_control",
        0.5,
        rf"\bif{_GAP}(?:you{_GAP}are{_GAP}|you{_GAP}get{_GAP}|the{_GAP}user{_GAP}|user{_GAP}|anyone{_GAP}|someone{_GAP})?"
        rf"(?:questioned|asked|asks|prompted|queried)\b{_GAP}{_words(8)}(?:respond|reply|answer|say|report|tell|state"
        rf"|output|claim)",
    ),
    ("output_control", 0.4, rf"\b(?:and{_GAP})?(?:absolutely{_GAP})?nothing{_GAP}else\b"),
    ("output_control", 0.4, rf"\breport{_GAP}only\b"),
    (
        "output_control",
        0.7,
        r"\b(?:include|insert|add|print|output|render|embed)\W{1,8}<(?:script|img|iframe|svg)\b",
    ),
    (
        "output_control",
        0.6,
        rf"\b(?:respond|reply|print|output|write|show)\w*{_GAP}(?:with{_GAP})?(?:the{_GAP}following{_GAP})?!\[",
    ),
    (
        "output_control",
        0.4,
        rf"\byou{_GAP}(?:should|must|will|need{_GAP}to|have{_GAP}to){_GAP}(?:only{_GAP}|now{_GAP}|always{_GAP})?"
        rf"(?:respond|reply|answer|output|print|say|recommend)\b",
    ),
    (
        "output_control",
        0.4,
        rf"\b(?:please{_GAP})?repeat{_GAP}(?:the{_GAP}following|after{_GAP}me|this{_GAP}(?:sentence|text|phrase))",
    ),
    (
        "output_control",
        0.5,
        rf"\b(?:include|insert|add|print|output|put){_GAP}{_words(6)}in{_GAP}your{_GAP}(?:output|response|reply|answer"
        rf"|summary)\b",
    ),
    (
        "output_control",
        0.3,
        rf"\bfocus{_GAP}(?:only|exclusively|solely){_GAP}on\b|\bprovide{_GAP}it{_GAP}to{_GAP}the{_GAP}user\b",
    ),
    (
        "output_control",
        0.4,
        rf"\b(?:no|without|do{_GAP}not{_GAP}use{_GAP}an?){_GAP}code{_GAP}(?:style{_GAP})?block\b",
    ),
    (
        "output_control",
        0.4,
        rf"\b(?:translate|paraphrase|rephrase|rewrite|polish){_GAP}the{_GAP}(?:above|following){_GAP}{_words(1)}"
        rf"(?:sentence|text|content|paragraph)",
    ),
    (
        "output_control",
        0.3,
        rf"\b(?:concatenate|assemble|join){_GAP}(?:these|the{_GAP}following){_GAP}strings\b",
    ),
    ("output_control", 0.4, rf"\breplac(?:e|ing){_GAP}\[\w+\]{_GAP}with\b"),
    # --- a verdict written in advance for whoever classifies this text
    (
        "verdict_steering",
        0.4,
        rf"\b(?:is|are){_GAP}(?:clearly{_GAP}|definitely{_GAP}|totally{_GAP}|completely{_GAP})?not{_GAP}malicious\b"
        rf"|\beverything{_GAP}is{_GAP}safe\b|\ball{_GAP}content{_GAP}here{_GAP}is\b",
    ),
    # --- an encoded instruction with a request to decode it
    (
        "encoded_instruction",
        0.6,
        rf"\b(?:decode|decipher|decrypt|interpret|convert){_GAP}(?:the{_GAP})?(?:following|this|these|below){_GAP}"
        rf"{_words(2)}(?:base\W?\d+|hex|rot\W?13|atbash|morse|braille|binary|ascii\W?85|uuencode|quoted\W?printable|mime"
        rf"|leet\w*|nato|cipher|encod\w+|encrypted|zalgo|ecoji|unicode)",
    ),
    (
        "encoded_instruction",
        0.4,
        rf"\bin{_GAP}your{_GAP}(?:monologue|head|mind|thoughts|scratchpad)\b",
    ),
    # --- requests for harmful content riding along in data
    (
        "harmful_request",
        0.6,
        rf"\bwrite{_GAP}(?:one|a|an|some|\d+){_GAP}{_words(1)}(?:toxic|offensive|discriminatory|hateful|racist|sexist"
        rf"|insulting|derogatory|threatening|harmful|abusive|violent|unfriendly|negative|mean|rude|hurtful|demeaning){_GAP}{_words(1)}(?:sentences?|statements?|jokes?"
        rf"|comments?|messages?|posts?|tweets?|paragraphs?|remarks?|e-?mails?)\b",
    ),
    (
        "harmful_request",
        0.3,
        rf"\bstep-by-step{_GAP}instructions{_GAP}for{_GAP}(?:making|synthesi[sz]ing|building)\b",
    ),
    # --- markup that runs code when rendered
    (
        "markup_injection",
        0.3,
        r"<script\b|\bon(?:error|load|click|mouseover)\s{0,2}=|\bdocument\.cookie\b",
    ),
    ("markup_injection", 0.3, r"javascript\W{0,2}:(?!\s{0,2}void)"),
    ("markup_injection", 1.0, r"\]\(\s{0,3}javascript:"),
    (
        "markup_injection",
        0.9,
        r"\bon[a-z]{3,12}\s{0,2}=\s{0,2}[\"']?[^\"'>\n]{0,100}?\b(?:fetch|xmlhttprequest|document\.cookie|eval|atob)\b",
    ),
]

PATTERNS: tuple[Pattern, ...] = tuple(
    Pattern(name, weight, regex) for name, weight, regex in _TABLE
)
SIGNAL_NAMES: frozenset[str] = (
    frozenset(p.name for p in PATTERNS) | {rule.signal for rule in RULES} | {HOMOGLYPHS}
)


@cache
def patterns_engine() -> engine.Engine:
    """The fastest engine for the table, built once: it runs for every text (and for every
    message's first pass, which loads no reading)."""
    return engine.compiled([p.source for p in PATTERNS])


# How each signal is named to a person (notices, the review pane, `lazaretto scan`).
LABELS: dict[str, str] = {
    "addressed_to_ai": "addressed to the assistant",
    "instruction_override": "instruction override",
    "authority_claim": "authority claim",
    "task_injection": "work slipped in ahead of the task",
    "secret_request": "asks for secrets or files",
    "exfiltration": "sends data out",
    "funds_transfer": "moves money to an account",
    "suspicious_destination": "tunnel, paste or raw-IP address",
    "tool_coercion": "tells the agent to call a tool or run a command",
    "dependency_edit": "asks for a dependency change",
    "self_replication": "asks to be copied onward",
    "role_marker": "fake role or prompt marker",
    "concealment": "asks to hide something from the user",
    "output_control": "dictates the agent's output",
    "encoded_instruction": "encoded text with a request to decode it",
    "harmful_request": "asks for harmful content",
    "markup_injection": "script-bearing markup",
    "fake_dialogue": "a fake conversation turn",
    "verdict_steering": "a verdict written in advance",
    "prompt_extraction": "asks for the agent's instructions",
    "role_hijack": "gives the agent a new role or no limits",
    "fixed_reply": "dictates a fixed reply",
    "out_of_place_request": "asks to act on accounts, money or data, out of place in this field",
    "agent_request": "asks the assistant to act on accounts, money or data",
    "homoglyphs": "look-alike letters from another script",
    "scan_error": "it could not be inspected",
    "learned_attack": "reads as a whole like an attack (learned model)",
}
