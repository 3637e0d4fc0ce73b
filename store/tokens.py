"""Approval tokens and typed challenges: short, random, typeable, stored only hashed."""

import hmac
import secrets

from .canonical import sha256_hex

# Crockford's base32: no I, L, O or U, so a token read aloud or retyped survives.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_CONFUSABLE = str.maketrans({"O": "0", "I": "1", "L": "1"})


class TokenError(ValueError):
    """A string that cannot be an approval token."""


def random_chars(count: int) -> str:
    """Random characters from the token alphabet."""
    return "".join(secrets.choice(ALPHABET) for _ in range(count))


def new_token() -> str:
    """Eight random characters in two groups, e.g. `K7QF-2M9X` (40 bits)."""
    raw = random_chars(8)
    return f"{raw[:4]}-{raw[4:]}"


def normalize_token(text: str) -> str:
    """Upper-case, drop spaces and dashes, map look-alike letters; raise TokenError if malformed."""
    raw = "".join(text.split()).replace("-", "").upper().translate(_CONFUSABLE)
    if len(raw) != 8 or any(ch not in ALPHABET for ch in raw):
        raise TokenError(f"not an approval token: {text!r} (expected something like K7QF-2M9X)")
    return f"{raw[:4]}-{raw[4:]}"


def hash_token(token: str) -> str:
    """The only form of a token the store keeps."""
    return sha256_hex("lazaretto-token:" + normalize_token(token))


def token_hint(token: str) -> str:
    """What `status` may show of a token: its first group, enough to match it by eye."""
    return normalize_token(token)[:4] + "-····"


def new_challenge() -> str:
    """A short code a person types to confirm a decision, e.g. `7QF2`."""
    return random_chars(4)


def challenge_matches(expected: str, typed: str) -> bool:
    """Compare a typed challenge, forgiving case, spaces and look-alike letters."""
    cleaned = "".join(typed.split()).upper().translate(_CONFUSABLE)
    return hmac.compare_digest(cleaned, expected.upper())
