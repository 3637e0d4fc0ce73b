"""The shared SQLite store: sessions, taint, blocked calls, quarantine and the audit log."""

from .canonical import canonical_json, sha256_hex
from .connection import StoreUnavailable
from .paths import default_store_path, resolve_store_path
from .store import Store
from .tokens import TokenError

__all__ = [
    "Store",
    "StoreUnavailable",
    "TokenError",
    "canonical_json",
    "default_store_path",
    "resolve_store_path",
    "sha256_hex",
]
