"""The reviewer passphrase: a slow scrypt hash that only the station's account can read."""

import hashlib
import hmac
import secrets

# scrypt's cost: about 16 MiB and a few tens of milliseconds a try, so a guess is never free.
_N, _R, _P = 2**14, 8, 1
_KEY_BYTES = 32
MIN_LENGTH = 8
"""The shortest passphrase `install` and `passphrase` accept."""


class PassphraseError(ValueError):
    """A passphrase that cannot be used (too short, or the two entries differ)."""


def check_new(passphrase: str, again: str) -> None:
    """Raise PassphraseError unless `passphrase` is acceptable and typed the same twice."""
    if passphrase != again:
        raise PassphraseError("the two entries differ")
    if len(passphrase) < MIN_LENGTH:
        raise PassphraseError(f"use at least {MIN_LENGTH} characters")


def hash_record(passphrase: str) -> dict:
    """A fresh salt and the scrypt hash of `passphrase`, with the cost it was made at."""
    salt = secrets.token_bytes(16)
    key = hashlib.scrypt(passphrase.encode("utf-8"), salt=salt, n=_N, r=_R, p=_P, dklen=_KEY_BYTES)
    return {"scheme": "scrypt", "n": _N, "r": _R, "p": _P, "salt": salt.hex(), "hash": key.hex()}


def matches(passphrase: str, record: dict) -> bool:
    """Whether `passphrase` hashes to the record (constant time in the comparison)."""
    if record.get("scheme") != "scrypt":
        return False
    n, r, p = int(record["n"]), int(record["r"]), int(record["p"])
    key = hashlib.scrypt(
        passphrase.encode("utf-8", "surrogatepass"),
        salt=bytes.fromhex(record["salt"]),
        n=n,
        r=r,
        p=p,
        dklen=len(record["hash"]) // 2,
        maxmem=256 * r * n * p + 1024 * 1024,
    )
    return hmac.compare_digest(key.hex(), record["hash"])
