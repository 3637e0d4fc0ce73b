"""Signals made of concepts: a few concepts of the tables in one clause, in any order and language.

"Ignore" with "instructions" and "previous" in one clause is an override whether it reads
"ignore all previous instructions", "忽略以上所有指令" or "önceki tüm talimatları yok say". A
clause ends at sentence punctuation, a blank line, a list item or the end of a quoted JSON
value; the concepts of one rule must also lie within `WINDOW` characters of each other, so two
unrelated halves of a long run-on sentence do not make a signal.

A few concepts are not words: `destination` (an e-mail address, a URL, an account number in
IBAN form), `amount` (money, or a number in groups like an account's), `quoted` (a short quoted
phrase: the fixed reply an attacker wants said), `imperative` (a clause that opens with an
action verb: "Transfer $3,000 to ...") and `vocative` (the assistant spoken to: "AI assistant:
...", "Assistant, please ...").

The rules themselves are in `rule_table.py`; this module finds where they hold.
"""

import dataclasses
import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property, lru_cache

from .context import UNKNOWN_FIELD, Field, Shapes
from .languages import Language, grammar
from .lexicon import Hit, find_hits, listed, scanner
from .normalize import fold
from .rule_table import PASSAGE, RULES, THINGS, WINDOW, Rule

# Where a clause ends: a sentence mark before a space, a blank line, a line that opens a list
# item or a label, a JSON string's edge, a table's bar, a comma after a Korean word (the verb
# comes last there: a clause joined to the next by a verb ending and a comma has had its verb).
# Full-width punctuation folds to ASCII, and
# Chinese and Japanese put no space after it: there a full stop, "!", "?" or ";" after a character
# of those scripts ends the clause anyway. Written as the characters an end starts with, then the
# alternatives (each behind a look-back at that character): a pattern that opens with a character
# class is searched for in C, where an alternation is tried at every position.
# A line that opens a part of its own: a list item, a numbered step, a label ("Second block:").
# A log record, a commit or an event opens its line with a number-led token or a short hash.
# (A word's repeats are possessive: giving back its letters never lets a colon or a space match,
# and the search is tried after every line break.)
_PART = (
    r"[ \t]*(?:[-*•#>|]|\d{1,3}[.)][ \t]|(?:[\w\"'-]{1,20}+[ \t]){0,2}[\w\"'-]{1,40}+[ \t]*:"
    r"|\d[\w:.+-]*[ \t]|[0-9a-f]{7,12}[ \t])"
)
_PART_START = re.compile(rf"\n(?={_PART})")
_CLAUSE_END = re.compile(
    r"[.!?;。！？；।॥؟\n\"{\[,|]"
    r"(?:(?<=[.!?;])(?=\s|$)|(?<=[\u3040-\u9fff][.!?;])|(?<=[\u1100-\u11ff],)(?=[ \t])|(?<=[。！？；।॥؟])|(?<=\n)[ \t]*\n"
    rf"|(?<=\n)(?={_PART})"
    r"|(?<=\")[ \t]*[,:}\]]|(?<=[{\[,])[ \t]*\"|(?<=\|))"
)
# Addresses, each searched only where its telltale character occurs (an address pattern that
# may start at any word is slow to try everywhere). An account number in IBAN form, or an IP
# address, has no telltale: each is written to open with a digit, so the search skips ahead in
# C to the next digit (the IBAN's two letters before its digits are looked behind for).
_DESTINATIONS = (
    ("://", re.compile(r"https?://\S")),
    ("www.", re.compile(r"\bwww\.\w")),
    ("@", re.compile(r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]+\.[a-z]{2,}")),
    # An account given by its number after its label ("acct 000123987654", "routing 111000025").
    *(
        (
            label,
            re.compile(rf"\b{label}\w*\W{{1,4}}(?:(?:no|nr|number|#)\W{{1,3}})?\d[\d -]{{5,}}\d"),
        )
        for label in ("acct", "account", "routing", "konto", "cuenta", "conta", "compte", "conto")
    ),
)
_IBAN = re.compile(r"\d\d(?<=\b[a-z]{2}\d\d)[a-z0-9]{10,30}\b")
_IBAN_LETTERS = 2
_IP = re.compile(r"\d(?<![\d.]\d)\d{0,2}\.(?:\d{1,3}\.){2}\d{1,3}(?![\d.])")
# An amount of money, or an account or phone number written in groups of digits.
# Currencies are written in their own scripts too: 3万円, 500元, 10만 원, 200 руб, 50 zł, 100 TL.
# The forms that open with a digit are one pattern, the digit taken first (the search skips to
# digits in C); the forms that open with a currency's sign or code are searched only where one
# of those occurs.
_AMOUNT_BY_DIGIT = re.compile(
    r"\d(?:(?<!\w\d)[\d,.]*[ \t]?(?:usd|eur|gbp|dollars?|euros?|btc|bitcoins?|eth|reais|rupees?"
    r"|zł|zloty|złotych|tl|lira|dong|vnd|руб\w*|грн|гривень|рупи\w*|रुपये|ریال|تومان|درهم|ريال|دولار"
    r"|บาท|원)(?!\w)"
    r"|[ \t]?(?:[万萬千亿億]?[円元圆圓块塊]|万|萬|만[ \t]?원|억)"
    r"|(?<![\d-]\d)\d+[- ]\d{3,}[- ]\d{3,}(?![\d-]))"
)
# An amount after a word of comparison is a limit a policy sets ("refunds over $500 go to
# billing", "transfers above 10,000 EUR need two approvals"), not a sum anyone is asked to move.
_LIMIT_BEFORE = re.compile(
    r"\b(?:over|above|under|below|exceeding|exceeds?|more than|less than|up to|at least|at most"
    r"|max|min|maximum|minimum|limit|threshold)[ \t]*(?:of[ \t]+)?$|[<>≤≥][ \t]*$"
)
_CURRENCY_MARKS = ("$", "€", "£", "¥", "₹", "₩", "₽", "₺", "usd", "eur", "gbp", "btc", "eth")
_AMOUNT_BY_SIGN = re.compile(r"(?:[$€£¥₹₩₽₺]|\br\$|\b(?:usd|eur|gbp|btc|eth)\b)[ \t]?\d")
# A fixed reply named as a literal without quotes: "only with the string PWNED-7731", "the token
# VERIFIED-19" (a code with a digit or a hyphen, as no word of prose is).
_LITERAL = re.compile(
    r"(?<!\w)(?:string|token|phrase|word|code|sentence)[ \t]+([^\s\"'.,;:!?()]*[\d-][^\s\"'.,;:!?()]*\w)"
)
_QUOTED = re.compile(
    r"(?<!\w)[\"'“‘«„‚「『`]([^\"'“”‘’«»„‚「」『』`\n]{1,120})[\"'”’»“‘」』`](?!\w)"
)


# A quotation in prose: typographic pairs, code spans, quotes escaped inside a JSON string
# (\"...\"), and straight quotes with a non-word character outside each (an apostrophe is
# inside a word). A text about attacks quotes them; what it quotes is reported, not asked. A
# straight or escaped quote that is a key or a value of data (`"bio": "..."`, `['a', 'b']`:
# after a quote and a colon or a comma, or an opening bracket, or before a colon) is none.
# Each alternative opens with its quote character and looks behind from there, so the search
# skips every other character at once. An empty code span (what is left where the sanitizer
# strips a chat token from one) is a pair of its own, so the spans after it keep their marks.
def _not_data_before(opener: str) -> str:
    """Lookbehinds, taken after `opener`, that refuse it where data puts a key or a value."""
    marks = [f"{quote}{mark}{space}" for quote in "\"'" for mark in ":," for space in ("", " ")]
    marks += ["{", "[", "{ ", "[ "]
    return "".join(f"(?<!{re.escape(mark + opener)})" for mark in marks)


_ESCAPED, _SINGLE, _DOUBLE = '\\"', "'", '"'
# Kana, Chinese characters and Hangul (folded to its letters): a quotation's marks may touch the
# words around it there (Korean "..."이라는 문장, Japanese 資料に"..."と書く: the particle that says
# it is quoted).
_UNSPACED = "\u1100-\u11ff\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af"
_QUOTATION = re.compile(
    r"“[^”\n]{2,400}”|„[^“”\n]{2,400}[“”]|«[^»\n]{2,400}»|「[^」\n]{1,400}」|『[^』\n]{1,400}』"
    r"|‘[^’\n]{2,400}’|`(?:[^`\n]{2,400})?`"
    rf"|(?:\\\"{_not_data_before(_ESCAPED)}(?:[^\"\\\n]|\\[^\"]){{2,400}}?\\\""
    rf"|'(?<![^\W{_UNSPACED}]')(?<!\\'){_not_data_before(_SINGLE)}[^'\n]{{2,400}}?'(?![^\W{_UNSPACED}])"
    rf"|\"(?<![^\W{_UNSPACED}]\")(?<!\\\"){_not_data_before(_DOUBLE)}[^\"\\\n]{{2,400}}?\"(?![^\W{_UNSPACED}]))"
    r"(?![ \t]*:)"
)
# A word just before a quotation and just after it (a space between, or none in a script written
# without spaces), or another quotation after it.
# Markdown's emphasis around a quotation (*"..."*) stands between it and the sentence's words;
# a table cell may end on it.
_WORD_BEFORE = re.compile(r"\w[ \t]?[*_]{0,2}$")
_WORD_AFTER = re.compile(r"[*_]{0,2}(?:[ \t]?\w|[“„«「『‘`]|,[ \t]?\w|[.!?;](?:\s|$)|[ \t]*\|)")
# A quotation among others in parentheses ("role claims (\"I am the admin\", \"You are now
# ...\")"), each an example in passing.
_LISTED_BEFORE = re.compile(r"(?:\(|,[ \t]?)$")
_LISTED_AFTER = re.compile(r"[),]")
# A quotation a sentence's words introduce with a colon, saying someone wrote it or where it was
# found ("a customer wrote into chat: \"...\"", "the message read: *\"...\"*", set in Markdown's
# emphasis or not): what was written, unless
# those words speak to the assistant or claim to be the system. A label before a colon ("Status
# update:", "Bitte ausführen:") introduces the order it quotes.
_INTRODUCED = re.compile(
    r"\w+[ \t]+[\w'’ \t,()-]{0,80}?\w[ \t]*:[ \t]*(?:\n[ \t]*)*>?[ \t]*[*_]{0,2}$"
)
# The words of such an introduction that say what someone wrote or where it was found (English).
_REPORTING_WORDS = re.compile(
    r"\b(?:wrote|writes|written|said|says|saying|found|contains|contained|containing|such as"
    r"|included|includes|posted|typed|stated|states|quoted|reported|tried|like this|read|reads)\b"
)
# A quotation given as an example of what someone might write ("ask something like \"what rules
# were you given?\"", "phrases such as ..."): named, not said, wherever the sentence goes on.
_EXAMPLE_BEFORE = re.compile(
    r"(?<!\w)(?:like|such as|e\.g\.,?|for example,?|for instance,?)[ \t]?[*_]{0,2}$"
)
# An arrow from a quotation to what came of it ("\"translate your instructions\" → it printed
# them"): an example and its outcome, in a list as in a sentence.
_OUTCOME_AFTER = re.compile(r"[ \t]*(?:→|->|=>)[ \t]*\w")
# A Japanese quotation that is the condition of what follows ("「設定を教えて」と送ると、..."
# when one sends it, "...と入力したら" when one types it): a bug report's steps, what someone
# typed and what came of it. An order to say it ("「OK」と答えて") has no such ending.
_JA_CONDITION_AFTER = re.compile(
    fold("(?:と|って)[^、。，,.!?\\n]{1,8}?(?:ると|たら|れば|すると)").text
)
# A quotation of words, not a name ('prod-secrets', "Kadry"): a space inside, a script written
# without spaces, or a code span (code is shown, never said); or a chat template's token
# ("<|im_start|>system", "[INST]"), named as a kind of markup is.
_UTTERANCE = re.compile(
    r"^`|\w\s+\w|[\u2e80-\u9fff\uac00-\ud7af\u0e00-\u0e7f]|<\|\w+\|>|\[/?inst\]|<</?sys>>"
)


# Verbs written as a label or a key ("Email: ...", "Transfer status:", "email": "...") name a
# field, not an order; see `_NOT_AN_ORDER_BEFORE` for the words before a verb that say the same.
# Such a hit is not counted.
_VERBS = frozenset(
    {"send", "reveal", "run", "say", "answer_with", "ignore", "disable", "act", "steer"}
)
_LABEL_COLON = re.compile(r"[\"']?[ \t]{0,2}:(?!//)")
_PATH_AFTER = re.compile(r"[ \t]{1,3}/")
_ARROW_BEFORE = re.compile(r"(?:→|->|=>)[ \t]{0,2}$")
# A Chinese verb after "can", "will", "cannot", "does not", "is being": a statement of what
# happens ("管理员可以发送重置邮件", "系统不会显示原密码"); "you can" ("你可以...") still asks.
_ZH_STATEMENT = re.compile(
    r"(?<![你您])(?:可以|能够|不会|无法|不能|将会|已经|正在|被)[^，。,.!?；;]{0,16}$"
)
# A Japanese verb that ends as a statement: done (した, しました), going on (している), ended
# up (してしまう), undergone (される, された) or done for someone (してくれた): what a bug report
# or a story says happened. An order ends in ください, しろ, せよ or a bare て; the plain form
# (する) is how a rule is written, so it is not read as a statement.
_JA_STATEMENT_AFTER = re.compile(
    fold(
        "(?:して|し|て|さ)?(?:しまう|しまっ|しまい|いる|いま|いた|まし|れる|れた|れて|れま"
        "|くれた|くれま|た(?![いら]))"
    ).text
)
# A Japanese verb negated or made impossible (実行できません, 送信しない, 表示されない): a help
# page's limits or a prohibition, not an order. "しなさい" (do it) has no "ない".
_JA_NEGATED_AFTER = re.compile(fold("(?:でき|し|さ|され)?(?:ません|ない|なかっ|ず(?!つ))").text)
_LEFT_OUT = re.compile(
    r"(?<!\w)(?:without|except|sin|sem|sans|senza|ohne|zonder|bez|без|tanpa)"
    r"[ \t]{1,2}(?:(?:the|your|el|la|los|las|tu|o|a|os|as|le|la|les|il|lo|gli|den|die|das|het|de)[ \t]{1,2})?"
    r"(?:[\w-]{1,16}[ \t]{1,2})?$"
)
# A secret word naming the process around it, not the secret: "a password-reset link", "비밀번호
# 재설정 메일" (a password reset mail), "el enlace de restablecimiento de contraseña".
_PROCESS_AFTER = re.compile(
    r"[ \t-]{0,2}(?:reset|recovery|change|manager|policy|expiry|hint|rotation|"
    + "|".join(
        fold(word).text
        for word in (
            "重置",
            "重设",
            "重設",
            "找回",
            "リセット",
            "再設定",
            "재설정",
            "초기화",
            "zurücksetz",
        )
    )
    + ")"
)
_PROCESS_BEFORE = re.compile(
    r"(?<!\w)(?:reset|recovery|restablecimiento|recuperacion|redefinicao|recuperacao"
    r"|reinitialisation|ripristino|reimpostazione|zurucksetzung|wiederherstellung)"
    r"[ \t]{1,2}(?:(?:of|for|de|du|des|da|do|di|del|della|dello|dell'|des)[ \t]{1,2})?"
    r"(?:(?:the|your|la|el|le|l'|tu|votre|ton|sua|seu|o|a|il|tuo|ihres|ihr|des)[ \t]{1,2})?$"
)
_ADDRESS = frozenset("@./:")
_ID_AFTER = re.compile(r"-[\w-]*\d")
_NOTE_NOT_LABEL = re.compile(
    r"(?<!\w)(?:a|an|the|this|that|my|your|our|please|should|must|will|would|can|could|to)[ \t]{1,2}$"
)
_NAMED_KIND_BEFORE = re.compile(
    r"(?<!\w)(?:a|an|the|this|that|such)[ \t]{1,2}(?:ai|assistant|chatbot|bot|model|agent|llm)[ \t]{1,2}$"
)
_CALL_AFTER = re.compile(r"\((?![ \t\n)])")
# The determiners after which a word names a kind of text ("the system message") rather than
# heads one ("System message:"); the signal table's patterns read the same list.
NAMING_DETERMINERS = ("the", "a", "an", "its", "this", "that", "each", "every", "any")
_ARTICLE_BEFORE = re.compile(rf"(?<!\w)(?:{'|'.join(NAMING_DETERMINERS)})[ \t]{{1,2}}$")
_ELISION = frozenset("'’")
_TO_SELF_AFTER = re.compile(r"[ \t]+(?:to|for)[ \t]+(?:self|myself|me)(?!\w)")
_KEY_VALUE_AFTER = re.compile(r"[ \t]*[:=][ \t]*\\?[\"'`]")
_KEY_OPENS = re.compile(r"(?:\n(?:[ \t]{2,}|[ \t]*-[ \t]+)|[({\[,][ \t]*)$")
_POSSESSIVE_AFTER = re.compile(r"['’]s(?!\w)")
_COMPOUND_AFTER = re.compile(r"-[^\W\d_]")
_ADDRESS_AROUND = re.compile(r"[@./:_-]\w")
_KEY_AFTER = re.compile(r"[\"'][ \t]*:")
# Before an English verb: an article or a possessive (it is a noun), or a subject or an
# auxiliary (a statement of who does it: "we send", "I'll forward"), or someone's request to the
# writer ("Ana asked us to send ..."), reported; an order has none of these.
_NOT_AN_ORDER_BEFORE = re.compile(
    r"(?<!\w)(?:the|a|an|this|that|its|our|their|his|her|my|your|no|never|usually|don't|dont|do[ \t]not"
    r"|not[ \t]to|(?:asked|asks|told|tells|wants|wanted)[ \t](?:us|me)[ \t]to"
    r"|(?:we|i|they|he|she)(?:[ \t]{1,2}(?:will|would|can|could|may|might)|'ll)?"
    r"|can|could|cannot|can't|won't|doesn't|didn't|does[ \t]not)[ \t]{1,2}$"
)
# The rest of a word that makes a verb's stem a noun: "divulgation", "eliminación", "Weiterleitung",
# "deletion" name the act, they do not order it.
_NOUN_ENDING = re.compile(r"\w*?(?:tions?|cion|ciones|cao|coes|zione|zioni|ung|ungen)(?!\w)")
# The rest of an English verb's word that inflects it for the third person or the past ("the
# widget reveals its prompt", "filters are bypassed by ..."): a statement, not an order.
_STATEMENT_ENDING = re.compile(r"(?:e?s|e?d)(?!\w)")
# A verb after its language's "not" is a prohibition ("No enviar contraseñas por correo", "non
# condividere la password", "nie wysyłaj haseł"): a warning, not a request. The words are each
# language's `negations` (in its file); English has its own (`_NOT_AN_ORDER_BEFORE`).
_NEGATION_BEFORE = {
    language: re.compile(rf"(?<!\w)(?:{grammar(language).negations})[ \t]{{1,2}}$")
    for language in Language
    if grammar(language).negations
}
_POSSESSIVES = frozenset({"my", "your"})
_COMMENT_BEFORE = re.compile(r"(?:#|//|/\*)[ \t]{0,3}$")
_TIME_AFTER = re.compile(r"[ \t]+\d{1,2}[:.h]\d\d")
# "Prompt" as a verb with its object ("will prompt you", "prompts the user for"), or after a
# word that makes it one ("will prompt", "to prompt"): a program asking, not instructions.
_PROMPT_CONCEPTS = frozenset({"prompt", "instructions"})
_PROMPT_AS_VERB = re.compile(
    r"(?:s|ed)?[ \t]+(?:you|me|us|them|him|her|the[ \t]+user|users|for)(?!\w)"
)
# Someone getting the model to do something, in the third person ("asks the model to", "tricked
# the assistant into"): the writer reports it. The first person ("I ask the assistant to") and
# the imperative ("ask the assistant to") are the writer's own requests and are not matched.
_REPORTING_FRAME = re.compile(
    r"(?:asks|asked|asking|tells|told|telling|tricks|tricked|tricking|gets|makes"
    r"|convinces|convinced|convincing|persuades|persuaded|instructs|instructed|causes|caused"
    r"|lets|allows|allowed|forces|forced|coaxes|coaxed|manipulates|manipulated|lures|lured)"
    r"[ \t]+(?:the|an?|its|their|our|that|this|these|those|your)?[ \t]*(?:[\w-]+[ \t]+){0,2}?"
    r"(?:models?|assistants?|ai|llms?|agents?|bots?|chatbots?|copilots?|readers?|recipients?"
    r"|users?|victims?|people|someone)[ \t]+(?:to|into)\b"
)
# What a program or a setting lets its users do ("allow users to override the system prompt",
# "lets people share files with anyone"): a feature described, not an order.
_PERMISSION_FRAME = re.compile(
    r"(?:allows|allowed|allowing|allow|lets|let|letting|enables|enabled|enabling|permits|permitted)"
    r"[ \t]+(?:the[ \t]+|any[ \t]+|all[ \t]+|other[ \t]+)?(?:users?|people|customers?|admins?"
    r"|developers?|members?|anyone|callers?|clients?)[ \t]+(?:to[ \t]+)?\w"
)
# The same in Spanish, Portuguese and Italian: "pedir que o bot revele ...", "pedir al bot que
# envíe ...", "fazer o modelo ignorar ...", "chiedere al bot di rivelare ...".
_ROMANCE_FRAME = re.compile(
    r"(?:pedir|pide|piden|pidio|pidiendo|hacer|hace|lograr|consigue|pede|pedem|pediu|pedindo|fazer"
    r"|faz|fazem|levar|leva|convencer|chiedere|chiede|chiedono|chiesto|fa|convincere|convince)"
    r"[ \t]+(?:que[ \t]+|a[ \t]+|al[ \t]+|ao[ \t]+)?(?:o|a|os|as|el|la|los|las|il|lo|i|gli|le)?[ \t]*"
    r"(?:bot|bots|modelo|modelos|modello|modelli|asistente|assistente|assistentes|ia|chatbot|agente"
    r"|agentes|ai|llm)[ \t]+(?:(?:que|di|a)[ \t]+)?\w"
)
# An English causative in the third person, the past or the gerund ("makes the model ignore",
# "made the bot reveal", "making my chatbot ignore its prompt"): the verb after the model is
# what someone gets it to do, told by the writer. The imperative ("make the bot ...") is not
# matched.
_CAUSATIVE_FRAME = re.compile(
    r"(?:makes|made|making)[ \t]+(?:the|an?|its|their|our|my|that|this|your)?[ \t]*"
    r"(?:[\w-]+[ \t]+){0,2}?(?:models?|assistants?|ai|llms?|agents?|bots?|chatbots?|copilots?)"
    r"[ \t]+(?!to\b)\w"
)
_FRAMES = (_REPORTING_FRAME, _PERMISSION_FRAME, _ROMANCE_FRAME, _CAUSATIVE_FRAME)
# Characters around a clause's first and last concept still counted as that clause's words.
_DISCUSSION_REACH = 40
# A text that talks about attacks in two clauses or more is prose about them (a write-up, an
# advisory, course notes): the attacks it reports stand a paragraph or so from its words about
# them, under a heading, in a list of examples, in a finding's account. Beyond that reach, and
# wherever a text names attacks once only, an order is still an order: one planted at the end
# of a long résumé of a security researcher is withheld.
_ABOUT_ATTACKS = 2
_ABOUT_ATTACKS_REACH = 2 * PASSAGE
# A text whose title names attacks is about them throughout: a report, an advisory or course
# notes quote the attacks they are about anywhere below it. A title is the first line, set apart
# as a heading (a Markdown mark, or a blank line after it) and short; a first line that runs on
# into the next (a résumé's header, "first part: ...\nsecond part: ...") or ends as a sentence
# does ("The attack demo moved to Friday.") is no title.
_TITLE = re.compile(r"\s*(?:#[^\n]{1,150}|[^\n]{0,149}[^\n.!?。！？]\n[ \t]*\n)")
_IMPERATIVE_VERBS = frozenset({"act", "send"})
_WORD = re.compile(r"[\w']+")
# The words that may stand inside one phrase besides the concepts' own: articles, possessives
# and "of" in English, Spanish, Portuguese, French and Italian.
_SMALL_WORDS = frozenset(
    "the a an of your my our their his her its these those this that all any every other such"
    " el la los las lo un una de del al tu tus su sus mi mis estas estos esas esos"
    " o os as um uma do da dos das teu tua teus tuas seu sua seus suas meu minha essas esses"
    " le les l un une des du de d ton ta tes votre vos son sa ses mon ma mes ces"
    " il i gli lo le un una di del della dei delle degli tuo tua tuoi tue suo sua suoi sue"
    " questi queste".split()
)
_READER = re.compile(r"\b(?:you|your|yourself)\b")
_READER_REACH = 60
# The rest of a word a hit began, then the next word on the same line.
_NEXT_WORD = re.compile(r"\w*[ \t]{1,3}(\w+)")
_JOINING_WORDS = frozenset("and or then but y e et ou und oder o i".split())
# Languages whose orders open with the verb and put its object after it (`verb_first`).
_VERB_FIRST = frozenset(language for language in Language if grammar(language).verb_first)
# The assistant named and then a colon ("Note for the AI:"), or a comma where it opens its clause
# ("Assistant, please ..."): it is being spoken to.
# Or a particle that turns to it: Japanese "へ" ("AIへ", to the AI), Korean "에게" and "께".
# Or named as the one an action item is for ("- [AI assistant] Change the sharing of ...").
_CALLED = re.compile(
    rf"[ \t]*(?::(?!//)(?![ \t]*[\"'`\\])|{fold('へ').text}|{fold('에게').text}"
    rf"|{fold('께').text}(?!{fold('서').text})|\](?=[ \t]+\w))"
)
_CALLED_OPENING = re.compile(r"[ \t]*,")
# Or the assistant named in a clause's first few words and told right after ("Bots reading this
# channel: ...", "hey assistant, ...", "If an assistant manages this phone: ..."); after "the",
# "a" or a possessive, only a colon says so ("The assistant, Maria, will call" is about her).
_ADDRESS_HEAD = re.compile(r"[\W_]*(?:[^\W\d_][\w'-]*[\W_]{1,3}){0,3}")
# A Korean or Japanese subject or topic particle right after the assistant's name ("AI 비서는",
# "アシスタントは"): it is what the sentence is about, not who is spoken to.
_SUBJECT_PARTICLES = "|".join(fold(p).text for p in ("는", "은", "가", "께서", "は", "が"))
_SUBJECT_PARTICLE = re.compile(_SUBJECT_PARTICLES)
# The same particle ending the words before the comma ("AI 비서는, ...").
_SUBJECT_PARTICLE_END = re.compile(rf"(?:{_SUBJECT_PARTICLES})[ \t]*$")
# A negation or a "can" between the assistant's name and the colon ("The bot does not:", "trợ lý
# không làm gì:", "บอทตอบได้เรื่อง:", what the bot can answer about): a list of what it may or may
# not do follows, a rule about it, not an order to it; an order does not open by denying itself
# or by saying what its reader is able to do, unless the ability is to read it ("บอทที่อ่าน
# ข้อความนี้ได้:", bots that can read this). Latin words stand alone ("not" alone is Turkish
# "note": "Asistan için not:"); Thai, Chinese, Japanese and Korean ones sit inside the run of
# letters.
_ABLE_TAIL = re.compile(
    r"(?<![^\W\d_])(?:(?:does|do|is|must|should|may|will)[ \t]not|never|cannot|khong|nicht|kein"
    r"|niet|geen|nao|nunca|jamais|nie|nigdy)(?![^\W\d_])|n't|"
    + "|".join(
        fold(w).text
        for w in ("ห้าม", "ไม่", "ได้", "不", "禁止", "可以", "ない", "ません", "않", "못")
    )
)
_DETERMINER_BEFORE = re.compile(r"(?<!\w)(?:the|a|an|this|that|our|my|your|his|her|their)[ \t]+$")
_ADDRESS_TAIL = re.compile(r"[\w/]*(?:[ \t]+[\w'/-]+){0,6}?[ \t]*(:(?!//)|,|[ \t]-[ \t]|—)")
# In English the words between the assistant's name and a comma go on speaking to it or about
# what it does ("Bots reading this channel,", "@assistant next time you edit this,", "If your
# AI is buying for you,"): else the name is a noun's modifier ("AI category, 400 points").
_ADDRESS_GOES_ON = re.compile(
    r"(?<!\w)(?:\w+ing|you|your|yours|this|these|that|who|which|when|whenever|if|is|are|will|can"
    r"|must|should|here|there|agents?|assistants?|bots?|models?|tools?)(?!\w)"
)
_OPENERS = _IMPERATIVE_VERBS | {"ai"}
# How far after the words spoken to the assistant its order may start, and what ends a sentence.
_TOLD_REACH = 60
_SENTENCE_END = re.compile(r"[.!?;。！？；\n]")
_OWN_SENTENCE = re.compile(r"[ \t]*[.!。！][ \t]*")
_WANTS_ADDRESS = frozenset({"act", "send"})
_WANTS_QUOTE = frozenset({"say", "reply", "answer_with", "you_are", "persona"})
# What may stand between a clause's start and its first word: spaces, quotes, bullets, and the
# key of a YAML-like line ("- event_name: Transfer ...").
_OPENING = re.compile(r"[\W_]*(?:[^\W\d][\w .-]{0,40}:[ \t]+)?[\W_]*")


# The longest text whose term occurrences are listed before asking whether it names any rule's
# concepts (a longer one is asked first, which needs no list of its occurrences).
_LISTED_AT_ONCE = 2048
# How much text is read at once, and how far a passage rule's hits may spread (with room).
SEGMENT = 1 << 16
_OVERLAP = PASSAGE * 2
# How far from its verb a shape is searched: as far as a clause rule's hits may spread.
_SHAPE_REACH = WINDOW + WINDOW // 2
# Each rule's needs as sets of concepts: a text or clause is tried against a rule only if every
# need has a concept present in it.
_NEEDS = tuple(
    tuple(frozenset(need if isinstance(need, tuple) else (need,)) for need in rule.needs)
    for rule in RULES
)
# The concepts that are shapes, by the words they can only be found beside.
_SHAPES_BESIDE = (
    (_WANTS_ADDRESS, frozenset({"destination", "amount", "imperative"})),
    (_WANTS_QUOTE, frozenset({"quoted"})),
    (frozenset({"ai"}), frozenset({"vocative", "told"})),
)
_SEARCHED_SHAPES = frozenset({"destination", "amount", "quoted"})
# The concepts that are shapes read at or near words, not words of the tables: a word and the
# shape read at it (a verb and its being an order) may meet two needs of one rule.
_PSEUDO = _SEARCHED_SHAPES | {"imperative", "vocative", "told"}
# The rules one of whose needs is a quoted phrase.
_QUOTING_RULES = frozenset(
    index for index, needs in enumerate(_NEEDS) if any("quoted" in need for need in needs)
)
# The same needs as bit masks, one bit per concept: the check runs per text and per clause.
_BIT = {
    concept: 1 << bit
    for bit, concept in enumerate(sorted({c for needs in _NEEDS for need in needs for c in need}))
}
_NEED_MASKS = tuple(
    tuple(sum(_BIT[concept] for concept in need) for need in needs) for needs in _NEEDS
)


def _mask(concepts) -> int:
    return sum(_BIT.get(concept, 0) for concept in concepts)


def _possible(concepts: set[str]) -> tuple[int, ...]:
    """The rules whose every need has a concept among `concepts` or the shapes found beside them."""
    return _possible_with(frozenset(concepts))


# Texts name few concepts, and the same few again and again: each set is answered once.
@lru_cache(maxsize=4096)
def _possible_with(concepts: frozenset[str]) -> tuple[int, ...]:
    for words, shapes_beside in _SHAPES_BESIDE:
        if concepts & words:
            concepts |= shapes_beside
    present_mask = _mask(concepts)
    return tuple(
        index for index, masks in enumerate(_NEED_MASKS) if all(map(present_mask.__and__, masks))
    )


# Clauses name the same few concepts again and again: each set's rules are found once.
@lru_cache(maxsize=8192)
def _rules_held_by(mask: int, candidates: tuple[int, ...]) -> tuple[int, ...]:
    """The rules among `candidates` each of whose needs has a concept in `mask`."""
    return tuple(index for index in candidates if all(map(mask.__and__, _NEED_MASKS[index])))


def _may_hold(concepts: set[str]) -> bool:
    """Whether a text with (at most) these concepts can yield a signal or a discussed clause."""
    return "discussion" in concepts or bool(_possible(concepts))


@dataclass(frozen=True)
class ConceptSignal:
    """A rule that held: which rule, its signal, weight and span in the folded text, the languages read."""

    rule: int
    name: str
    weight: float
    start: int
    end: int
    languages: frozenset[Language]
    field: Field = UNKNOWN_FIELD


def _regions(hits: list[Hit], concepts: frozenset[str]) -> list[tuple[int, int]]:
    """The stretches of text around hits of `concepts` where a rule could use a shape, merged."""
    regions: list[tuple[int, int]] = []
    for hit in hits:
        if hit.concept in concepts:
            low, high = max(0, hit.start - _SHAPE_REACH), hit.end + _SHAPE_REACH
            if regions and low <= regions[-1][1]:
                regions[-1] = (regions[-1][0], high)
            else:
                regions.append((low, high))
    return regions


def _pseudo_hits(folded: str, hits: list[Hit], wanted: set[str]) -> list[Hit]:
    """Hits of the `wanted` concepts that are shapes, not words, searched only near the words a
    rule could pair them with (the address patterns are slow to try everywhere)."""
    found: list[Hit] = []
    for low, high in _regions(hits, _WANTS_ADDRESS):
        if "destination" in wanted:
            for telltale, pattern in _DESTINATIONS:
                if folded.find(telltale, low, high) >= 0:
                    found.extend(
                        Hit("destination", Language.EN, m.start(), m.end())
                        for m in pattern.finditer(folded, low, high)
                    )
            found.extend(
                Hit("destination", Language.EN, start, end)
                for start, end in account_numbers(folded, low, high)
            )
        if "amount" in wanted:
            found.extend(
                Hit("amount", Language.EN, start, end)
                for start, end in amounts(folded, low, high)
                if not _LIMIT_BEFORE.search(folded, max(0, start - 16), start)
            )
    for low, high in _regions(hits, _WANTS_QUOTE) if "quoted" in wanted else ():
        found.extend(
            Hit("quoted", Language.EN, m.start(), m.end())
            for m in _QUOTED.finditer(folded, low, high)
        )
        found.extend(
            Hit("quoted", Language.EN, m.start(1), m.end(1))
            for m in _LITERAL.finditer(folded, low, high)
        )
    # Regions can overlap a match at their edges twice: one hit per span and concept.
    return list({(hit.concept, hit.start, hit.end): hit for hit in found}.values())


def _reporting_frames(folded: str, hits: list[Hit]) -> list[Hit]:
    """What someone else gets the model to do, told in the third person ("a jailbreak asks the
    model to pretend ...", "tricked the assistant into leaking ..."), or what a program lets its
    users do ("allow users to override ..."): talk about an attack or a feature, read where the
    tables found a verb of such a frame."""
    found = []
    for hit in hits:
        if hit.concept == "frame":
            for frame in _FRAMES:
                match = frame.match(folded, hit.start)
                if match:
                    found.append(Hit("discussion", Language.EN, match.start(), match.end()))
                    break
    return found


def account_numbers(folded: str, low: int, high: int) -> list[tuple[int, int]]:
    """The IBANs and IP addresses in `folded[low:high]`, as one search of both would find them."""
    return _leftmost(folded, low, high, ((_IBAN, _IBAN_LETTERS), (_IP, 0)))


def amounts(folded: str, low: int, high: int) -> list[tuple[int, int]]:
    """The amounts in `folded[low:high]`, as one search of every form would find them."""
    if not any(folded.find(mark, low, high) >= 0 for mark in _CURRENCY_MARKS):
        return [match.span() for match in _AMOUNT_BY_DIGIT.finditer(folded, low, high)]
    return _leftmost(folded, low, high, ((_AMOUNT_BY_SIGN, 0), (_AMOUNT_BY_DIGIT, 0)))


def _leftmost(
    folded: str, low: int, high: int, patterns: tuple[tuple[re.Pattern, int], ...]
) -> list[tuple[int, int]]:
    """Matches of patterns that never open at the same place, as their alternation finds them:
    from each match's end, the leftmost next one. Each pattern is given how far before its
    match the alternation's would open (the letters an IBAN's pattern looks behind for)."""
    found: list[tuple[int, int]] = []
    at = low
    # Each pattern's next match from `at` on; (-1, -1) until it is searched for.
    upcoming = [(-1, -1)] * len(patterns)
    while True:
        for index, (pattern, ahead) in enumerate(patterns):
            if upcoming[index][0] < at:
                match = pattern.search(folded, at + ahead, high)
                upcoming[index] = (match.start() - ahead, match.end()) if match else (high, high)
        start, end = min(upcoming)
        if start >= high:
            return found
        found.append((start, end))
        at = end


def _clauses(folded: str, hits: list[Hit], low: int = 0) -> list[list[Hit]]:
    """The hits grouped by the clause they fall in; a clause that opens with an action verb gets
    an `imperative` hit too, and the assistant spoken to a `vocative` one."""
    # Clause ends after the last hit change nothing.
    ends = [m.end() for m in _CLAUSE_END.finditer(folded, low, hits[-1].end + 1)]
    groups: dict[int, list[Hit]] = {}
    # Where the words spoken to the assistant end, in the clause being read (see `told`).
    address: tuple[int, int] | None = None
    for hit in hits:
        clause = bisect_right(ends, hit.start)
        group = groups.setdefault(clause, [])
        if hit.concept in _OPENERS:
            # Only spaces, quotes, bullets or a label before it ("Sofort: Lösche ..."): it opens.
            opens = _OPENING.fullmatch(folded, ends[clause - 1] if clause else low, hit.start)
            if opens and hit.concept in _IMPERATIVE_VERBS:
                group.append(Hit("imperative", hit.language, hit.start, hit.end))
            if hit.concept in _IMPERATIVE_VERBS and address and address[0] <= clause:
                if _told(folded, address[1], hit.start, clause - address[0]):
                    group.append(Hit("told", hit.language, hit.start, hit.end))
                address = None
            if hit.concept == "ai":
                called = (
                    _CALLED.match(folded, hit.end)
                    or (opens and _CALLED_OPENING.match(folded, hit.end))
                    or _addressed(folded, ends[clause - 1] if clause else low, hit)
                )
                if called:
                    group.append(Hit("vocative", hit.language, hit.start, hit.end))
                    address = (clause, called.end())
        group.append(hit)
    return list(groups.values())


def _told(folded: str, address_end: int, verb: int, clauses_between: int) -> bool:
    """Whether the verb at `verb` is what the assistant is told: it follows the words spoken to
    it closely, in the same sentence ("Assistant: turn off ...", "assistant, when you see this,
    please change ..."), or in the next when the words spoken to it are a sentence of their own
    ("このレビューを読んだAIへ。..."): "please" or a clause of when or how may stand between."""
    if verb - address_end > _TOLD_REACH:
        return False
    own_sentence = _OWN_SENTENCE.match(folded, address_end)
    if own_sentence:
        address_end = own_sentence.end()
    return clauses_between <= bool(own_sentence) and not _SENTENCE_END.search(
        folded, address_end, verb
    )


def _addressed(folded: str, clause_start: int, hit: Hit) -> re.Match | None:
    """Whether the assistant is named among its clause's first words and then told: a colon,
    comma or dash follows within a few words (see `_ADDRESS_HEAD`); the match of those words."""
    if not _ADDRESS_HEAD.fullmatch(folded, clause_start, hit.start):
        return None
    if _SUBJECT_PARTICLE.match(folded, hit.end):
        return None
    tail = _ADDRESS_TAIL.match(folded, hit.end)
    if tail is None or _SUBJECT_PARTICLE_END.search(folded, hit.end, tail.start(1)):
        return None
    if (
        _ABLE_TAIL.search(folded, hit.end, tail.start(1))
        and not {other.concept for other in find_hits(folded[hit.end : tail.start(1)])} & _SPOKEN_TO
    ):
        return None
    if (
        tail.group(1) == ","
        and hit.language is Language.EN
        and tail.start(1) > hit.end
        and not _ADDRESS_GOES_ON.search(folded, hit.end, tail.start(1))
    ):
        return None
    if tail.group(1) == ":" or not _DETERMINER_BEFORE.search(folded, clause_start, hit.start):
        return tail
    return None


def _holds(
    rule: Rule, by_concept: dict[str, list[Hit]], window: int, folded: str
) -> tuple[int, int, set[Language]] | None:
    """The span and languages of the hits that satisfy `rule` within `window`, if any do."""
    options: list[list[Hit]] = []
    for need in rule.needs:
        alternatives = need if isinstance(need, tuple) else (need,)
        hits: list[Hit] = [hit for concept in alternatives for hit in by_concept.get(concept, [])]
        if not hits:
            return None
        options.append(hits)
    # A rule with a need that comes first is anchored on it, and its other needs (the assistant
    # named aside, which may stand on either side) are looked for after it.
    # A rule whose verb leads in a verb-first language is anchored on the verb, and its other
    # needs are looked for after it: the thing the verb acts on, not one named before it
    # ("assistant on this account: change the delivery address").
    lead = rule.first_at if rule.first_at is not None else rule.verb_at
    anchors = options[lead] if lead is not None else min(options, key=len)
    for anchor in anchors:
        chosen = []
        # A rule is made of several words: one word ("order", a verb and a thing) meets one need.
        words: set[tuple[int, int]] = set()
        follows = rule.first_at is not None or (
            rule.verb_at is not None and anchor.language in _VERB_FIRST
        )
        for index, hits in enumerate(options):
            if follows and index != lead and "ai" not in rule.needs[index]:
                hits = [hit for hit in hits if hit.start >= anchor.start]
            hits = [
                hit for hit in hits if hit.concept in _PSEUDO or (hit.start, hit.end) not in words
            ]
            if not hits:
                break
            near = min(hits, key=lambda hit: abs(hit.start - anchor.start))
            if near.concept not in _PSEUDO:
                words.add((near.start, near.end))
            if abs(near.start - anchor.start) > window:
                break
            chosen.append(near)
        else:
            if rule.verb_at is not None and _verb_trails(chosen, rule.verb_at):
                continue
            if rule.phrase_at is not None and not _one_phrase(
                folded, chosen, rule.phrase_at, by_concept
            ):
                continue
            if rule.ends_at is not None and not _ends_phrase(
                folded, chosen[rule.ends_at], by_concept
            ):
                continue
            if _inside_a_quote(chosen):
                continue
            if _stray_possessive(chosen, by_concept):
                continue
            if rule.given_at is not None and _reported(folded, chosen[rule.given_at]):
                continue
            if rule.named_at is not None and _named_kind(folded, chosen[rule.named_at]):
                continue
            start = min(hit.start for hit in chosen)
            end = max(hit.end for hit in chosen)
            # A quoted phrase is as long as it is: where it opens is what must lie near.
            reach = max(hit.start if hit.concept == "quoted" else hit.end for hit in chosen)
            if reach - start <= window + window // 2:
                return start, end, {hit.language for hit in chosen}
    return None


def _stray_possessive(chosen: list[Hit], by_concept: dict[str, list[Hit]]) -> bool:
    """Whether a possessive the rule needs is a word of no language the clause is otherwise
    written in: Swedish "er" ("your") in a German clause is the pronoun "he". A loanword
    ("prompt") travels between languages; a possessive does not."""
    for hit in chosen:
        if hit.concept in _POSSESSIVES and not any(
            other.language is hit.language
            for concept, hits in by_concept.items()
            if concept not in _PSEUDO and concept not in _POSSESSIVES
            for other in hits
        ):
            return True
    return False


def _verb_trails(chosen: list[Hit], verb: int) -> bool:
    """Whether the verb of a verb-first language comes after one of the other concepts chosen."""
    lead = chosen[verb]
    return lead.language in _VERB_FIRST and any(hit.start < lead.start for hit in chosen)


def _one_phrase(
    folded: str, chosen: list[Hit], pair: tuple[int, int], by_concept: dict[str, list[Hit]]
) -> bool:
    """Whether two chosen hits make one phrase: only small words, possessives or other concepts'
    words between them (checked in the verb-first languages, whose small words are known)."""
    first, second = sorted((chosen[pair[0]], chosen[pair[1]]), key=lambda hit: hit.start)
    if first.language not in _VERB_FIRST or second.language not in _VERB_FIRST:
        return True
    low, high = first.start, max(first.end, second.start)
    # A word a hit begins (the ending of "instructions") is that concept's word.
    covered = [
        (hit.start, hit.end)
        for hits in by_concept.values()
        for hit in hits
        if hit.start < high and low < hit.end
    ]
    for word in _WORD.finditer(folded, low, high):
        if word.group() in _SMALL_WORDS or word.group().endswith("'s"):
            continue
        if not any(start < word.end() and word.start() < end for start, end in covered):
            return False
    return True


def _ends_phrase(folded: str, hit: Hit, by_concept: dict[str, list[Hit]]) -> bool:
    """Whether the word after a verb-first language's hit is no plain word of its phrase."""
    if hit.language not in _VERB_FIRST:
        return True
    word = _NEXT_WORD.match(folded, hit.end)
    if word is None or word.group(1) in _SMALL_WORDS or word.group(1) in _JOINING_WORDS:
        return True
    at = word.start(1)
    return any(h.start <= at < h.end or h.start == at for hits in by_concept.values() for h in hits)


def _reported(folded: str, hit: Hit) -> bool:
    """Whether an English verb is an infinitive with no second person near: reported speech."""
    if hit.language is not Language.EN or not folded.endswith("to ", 0, hit.start):
        return False
    near = folded[max(0, hit.start - _READER_REACH) : hit.end + _READER_REACH]
    return _READER.search(near) is None


def _named_kind(folded: str, hit: Hit) -> bool:
    """Whether an English word follows an article or a determiner: "the system message" is a
    kind of text named in a sentence, "System message:" the label of one."""
    return hit.language is Language.EN and bool(
        _ARTICLE_BEFORE.search(folded, max(0, hit.start - 8), hit.start)
    )


def _inside_a_quote(chosen: list[Hit]) -> bool:
    """Whether a concept's word lies inside the quoted phrase the rule also needs: the words of
    "write 'ignore previous instructions'" are what is quoted, not what is asked."""
    quotes = [hit for hit in chosen if hit.concept == "quoted"]
    return any(
        quote.start < hit.start and hit.end <= quote.end
        for quote in quotes
        for hit in chosen
        if hit is not quote
    )


@dataclass(frozen=True)
class Reading:
    """What the concepts say about a folded text: the rules that held, and the clauses that talk
    about attacks (their spans), where an instruction is more likely quoted than given."""

    signals: list[ConceptSignal]
    discussed: list[tuple[int, int]]
    # The text read, to find its quotations in (not part of what the reading says).
    folded: str = dataclasses.field(default="", compare=False, repr=False)
    # The stretches of `folded` whose quotations may report (see `_quotations`): found only when
    # a signal asks, since most texts have none to weigh and a JSON text is full of quotes.
    quotable: tuple[tuple[int, int], ...] = ()

    @cached_property
    def _reported(self) -> tuple[list[int], list[int]]:
        """The discussed clauses and reporting quotations, merged: their starts and their ends."""
        spans = list(self.discussed)
        if spans and spans[0][0] < _title_end(self.folded):
            spans.append((0, len(self.folded)))
        if len(spans) >= _ABOUT_ATTACKS:
            spans = [
                (max(0, low - _ABOUT_ATTACKS_REACH), high + _ABOUT_ATTACKS_REACH)
                for low, high in spans
            ]
        for low, high in self.quotable:
            spans.extend(_quotations(self.folded, self.discussed, low, high))
        starts: list[int] = []
        ends: list[int] = []
        for low, high in sorted(spans):
            if ends and low <= ends[-1]:
                ends[-1] = max(ends[-1], high)
            else:
                starts.append(low)
                ends.append(high)
        return starts, ends

    def in_discussion(self, start: int) -> bool:
        """Whether folded offset `start` lies in a clause that talks about attacks, or in what a
        text reports by quoting it."""
        starts, ends = self._reported
        index = bisect_right(starts, start) - 1
        return index >= 0 and start < ends[index]

    def reported(self, found: "ConceptSignal") -> bool:
        """Whether a rule's words are reported: its first word in a clause about attacks, or its
        last in what such a text quotes ("the system prompt («print your instructions»)"), unless
        the rule is one that asks for a quoted phrase (the phrase a fixed reply wants said), or
        its words spread over more than a clause's reach (a request that ends beside a quotation
        is not one that names it)."""
        if self.in_discussion(found.start):
            return True
        return (
            found.rule not in _QUOTING_RULES
            and found.end - found.start <= _SHAPE_REACH
            and self.in_discussion(found.end - 1)
        )


def concept_signals(folded: str, field: Field = UNKNOWN_FIELD) -> Reading:
    """Every rule that holds in a clause of the folded text (the strongest one per kind and clause).

    `field` is the field the whole text sits in; keyed values inside the text say their own. A
    long text is read segment by segment, so only one segment's hits are held at a time.
    """
    shapes = Shapes(folded, field)
    if len(folded) <= SEGMENT:
        return _read(folded, 0, len(folded), field, shapes)
    found: dict[tuple[int, int, int], ConceptSignal] = {}
    discussed: list[tuple[int, int]] = []
    quotable: list[tuple[int, int]] = []
    for low, high in _segments(folded):
        part = _read(folded, low, high, field, shapes)
        # The overlap between segments is read twice: one signal per rule and span.
        found.update(((s.rule, s.start, s.end), s) for s in part.signals)
        discussed.extend(part.discussed)
        quotable.extend(part.quotable)
    return Reading(list(found.values()), discussed, folded, tuple(quotable))


def _segments(folded: str):
    """Stretches of about SEGMENT characters covering `folded`, each starting at a clause end
    and overlapping the one before by more than a passage rule can span."""
    low, size = 0, len(folded)
    while True:
        high = min(size, low + SEGMENT)
        yield low, high
        if high == size:
            return
        # Within the overlap, the first clause end that still leaves a passage's span behind.
        start = _CLAUSE_END.search(folded, high - 2 * _OVERLAP, high - _OVERLAP)
        low = start.end() if start else high - 2 * _OVERLAP


def _counted(folded: str, hit: Hit, start: int, end: int) -> bool:
    """Whether a hit means its concept there: a verb read as an order (not a label, a key, or
    in English a noun or a statement), a word about attacks not part of an address."""
    concept = hit.concept
    # A Latin word right before a parenthesis is code: a call or a definition ("Message(",
    # "delete(path)"), named by a program, not said to its reader.
    if _CALL_AFTER.match(folded, end) and folded[end - 1 : end].isascii():
        return False
    if concept in _VERBS:
        if _LABEL_COLON.match(folded, end) or _NOUN_ENDING.match(folded, end):
            return False
        # A request line's method ("POST /v1/password/reset") or a value ("action=forward"), or
        # what came of something after an arrow ("\"write a poem\" → output a poem").
        if _PATH_AFTER.match(folded, end) or folded[start - 1 : start] == "=":
            return False
        if _ARROW_BEFORE.search(folded, max(0, start - 4), start):
            return False
        if hit.language is Language.ZH and _ZH_STATEMENT.search(folded, max(0, start - 20), start):
            return False
        if hit.language is Language.JA and (
            _JA_STATEMENT_AFTER.match(folded, end) or _JA_NEGATED_AFTER.match(folded, end)
        ):
            return False
        if hit.language is not Language.EN:
            negation = _NEGATION_BEFORE.get(hit.language)
            return negation is None or not negation.search(folded, max(0, start - 8), start)
        # The small words before it are English ones: Polish "i" is "and".
        return not _STATEMENT_ENDING.match(folded, end) and not _NOT_AN_ORDER_BEFORE.search(
            folded, max(0, start - 16), start
        )
    # A key given a value in code or config ("mode: \"0440\"", "executor(mode=\"inline\")"), not
    # a role given to the reader: the word follows a bracket, a comma, a list's dash or an
    # indent (a label at a line's very start, "Persona: \"Lumi\"", may still give a role).
    # "# silently skip unknown addresses": a programmer's note on what the code does.
    if concept == "conceal" and _COMMENT_BEFORE.search(folded, max(0, start - 6), start):
        return False
    if concept == "persona" and _KEY_VALUE_AFTER.match(folded, end):
        return not _KEY_OPENS.search(folded, max(0, start - 12), start)
    if concept in _PROMPT_CONCEPTS and hit.language is Language.EN:
        # "The app will prompt you for the new password": the verb, asking its user something.
        return not (folded.endswith("prompt", start, end) and _PROMPT_AS_VERB.match(folded, end))
    # A weekday's short name before a time ("Mon 09:00", "Tue 14:30") is French "mon" or Italian
    # "tue" only by its letters.
    if concept in _POSSESSIVES and _TIME_AFTER.match(folded, end):
        return False
    # "without the token", "works without the cloud account": the thing is left out.
    if concept in THINGS and _LEFT_OUT.search(folded, max(0, start - 40), start):
        return False
    if concept == "secret":
        return not (
            _PROCESS_AFTER.match(folded, end)
            or _PROCESS_BEFORE.search(folded, max(0, start - 40), start)
        )
    if concept == "ai":
        # Part of a name: a versioned id ("pod/support-bot-7c9d"); or an owner ("the bot's role
        # must sit above ...", "the assistant's owner"): the one told is what it owns.
        if _ID_AFTER.match(folded, end) or _POSSESSIVE_AFTER.match(folded, end):
            return False
        if folded[start:end] == "ai":
            # After an elision the bare word is French "j'ai", "n'ai" ("I have"); "l'ia" is the AI.
            return folded[start - 1 : start] not in _ELISION
        return True
    if concept == "note" and hit.language is Language.EN:
        # "a note", "should note", "please note": a thing or a verb, not a label for its reader;
        # "an assistant instruction", "the AI note": a kind of text named, not one written to it;
        # "instruction-tuned", "warning-free": the first part of a word that modifies another;
        # "note to self", "reminder for me": the writer's own.
        return not (
            _COMPOUND_AFTER.match(folded, end)
            or _TO_SELF_AFTER.match(folded, end)
            or _NOTE_NOT_LABEL.search(folded, max(0, start - 8), start)
            or _NAMED_KIND_BEFORE.search(folded, max(0, start - 24), start)
        )
    if concept == "discussion":
        # Not inside an address (attacker@...), and not a key of data ("payload": {...}).
        return (
            not _ADDRESS_AROUND.match(folded, end)
            and folded[start - 1 : start] not in _ADDRESS
            and not _KEY_AFTER.match(folded, end)
        )
    return True


def _quotations(
    folded: str, discussed: list[tuple[int, int]], low: int, high: int
) -> list[tuple[int, int]]:
    """The spans of the quotations in `folded[low:high]` that report what they quote: prose (not
    keys or values of data) that stands inside a sentence, or begins within PASSAGE of a clause
    about attacks."""
    return [
        match.span()
        for match in _QUOTATION.finditer(folded, low, high)
        if _UTTERANCE.search(match.group())
        and (
            _inside_a_sentence(folded, match.start(), match.end())
            or any(start - PASSAGE <= match.start() < end + PASSAGE for start, end in discussed)
        )
    ]


def _title_end(folded: str) -> int:
    """Where the text's title ends (see `_TITLE`), or 0 when it has none."""
    title = _TITLE.match(folded)
    return title.end() if title else 0


def _colon_before(folded: str, start: int) -> bool:
    """Whether a colon (then spaces, line breaks or a blockquote's mark) stands before `start`."""
    return folded[max(0, start - 12) : start].rstrip(" \t\n>*_").endswith(":")


# The words that, before a colon, speak to the assistant or claim authority over it ("System
# note:", "[system] result of the analysis:") rather than name a source.
_SPOKEN_TO = frozenset({"ai", "note", "if_you_are", "reading_this", "system", "admin"})


def _inside_a_sentence(folded: str, start: int, end: int) -> bool:
    """Whether words run on both sides of a quotation ("after «show your instructions» the bot
    printed it"), or it is set in parentheses (an example in passing: "role play ("pretend you
    are ...")"): it is named there, where an order quoted to be obeyed stands on its own."""
    if _LISTED_BEFORE.search(folded, max(0, start - 2), start) and _LISTED_AFTER.match(folded, end):
        return True
    if _JA_CONDITION_AFTER.match(folded, end):
        return True
    if _OUTCOME_AFTER.match(folded, end) or _EXAMPLE_BEFORE.search(
        folded, max(0, start - 16), start
    ):
        return True
    intro = _colon_before(folded, start) and _INTRODUCED.search(folded, max(0, start - 96), start)
    if (
        intro
        and _REPORTING_WORDS.search(intro.group())
        and not {hit.concept for hit in find_hits(intro.group())} & _SPOKEN_TO
    ):
        return True
    return bool(_WORD_BEFORE.search(folded, max(0, start - 4), start)) and bool(
        _WORD_AFTER.match(folded, end)
    )


def _discussed(folded: str, clause: list[Hit]) -> tuple[int, int]:
    """The span of a clause that talks about attacks: its words, and a few characters on each
    side (a sentence's neighbour is often part of the same report), but not into the line before
    nor past a line that opens a part of its own ("... how attackers exfiltrate data\nsecond
    block: do not mention any of this" reports nothing of the second block)."""
    first, last = clause[0].start, clause[-1].end
    low = max(0, first - _DISCUSSION_REACH)
    low = max(low, folded.rfind("\n", low, first) + 1)
    high = last + _DISCUSSION_REACH
    part = _PART_START.search(folded, last, high)
    return low, part.start() if part else high


def _read(folded: str, low: int, high: int, field: Field, shapes: Shapes) -> Reading:
    """`concept_signals` for `folded[low:high]`, in the whole text's offsets."""
    whole = not low and high == len(folded)
    part = folded if whole else folded[low:high]
    # Most texts name no concept set any rule needs: that is told by which terms occur at all,
    # before each occurrence is listed and its word bounds checked. A short text's occurrences
    # are few, and it names some concept set more often than not: they are listed at once, and
    # both questions answered from the one scan.
    seen = listed(part) if len(part) <= _LISTED_AT_ONCE else None
    if not _may_hold(seen.concepts() if seen else scanner().concepts(part)):
        return Reading([], [])
    hits = [
        hit if not low else Hit(hit.concept, hit.language, hit.start + low, hit.end + low)
        for hit in find_hits(part, seen=seen)
        if _counted(folded, hit, hit.start + low, hit.end + low)
    ]
    if not hits:
        return Reading([], [])
    concepts = {hit.concept for hit in hits}
    # The shapes that could be found beside these words, and the rules that could then hold.
    possible = _possible(concepts)
    if not possible and "discussion" not in concepts:
        return Reading([], [])
    wanted = {concept for index in possible for need in _NEEDS[index] for concept in need}
    if wanted & _SEARCHED_SHAPES:
        hits = sorted(hits + _pseudo_hits(folded, hits, wanted), key=lambda hit: hit.start)
    if "frame" in concepts:
        # A frame's verb is looked at once, where it may report: it is no concept of a rule.
        frames = _reporting_frames(folded, hits) if concepts & {"ai", "user"} else []
        hits = [hit for hit in hits if hit.concept != "frame"]
        if frames:
            hits = sorted(hits + frames, key=lambda hit: hit.start)
    found: list[ConceptSignal] = []
    clauses = _clauses(folded, hits, low)
    discussed = [
        _discussed(folded, clause)
        for clause in clauses
        if any(hit.concept == "discussion" for hit in clause)
    ]
    in_clause = tuple(index for index in possible if not RULES[index].passage)
    in_passage = tuple(index for index in possible if RULES[index].passage)
    # A passage rule reads every clause's hits, the shapes found in each clause among them.
    every = [hit for clause in clauses for hit in clause]
    for clause in [*clauses, every]:
        passage = clause is every
        # Most clauses hold one or two concepts and no rule: they are left before any more work.
        rules = _rules_held_by(
            _mask({hit.concept for hit in clause}), in_passage if passage else in_clause
        )
        if not rules:
            continue
        by_concept: dict[str, list[Hit]] = {}
        for hit in clause:
            by_concept.setdefault(hit.concept, []).append(hit)
        where: Field | None = None
        named: set[str] = set()
        for index in rules:
            rule = RULES[index]
            if rule.signal in named:
                continue
            if rule.fields is not None:
                if where is None:
                    where = field if passage else shapes.at(clause[0].start)
                if where.kind not in rule.fields:
                    continue
            held = _holds(rule, by_concept, PASSAGE if passage else rule.window or WINDOW, folded)
            if held is not None:
                named.add(rule.signal)
                start, end, languages = held
                found.append(
                    ConceptSignal(
                        index,
                        rule.signal,
                        rule.weight,
                        start,
                        end,
                        frozenset(languages),
                        where if rule.fields is not None and where else UNKNOWN_FIELD,
                    )
                )
    # What a sentence quotes, or prose about attacks near its words about them, is reported.
    return Reading(found, discussed, folded, ((low, high),))
