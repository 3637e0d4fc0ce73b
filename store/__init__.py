"""The shared SQLite store: sessions, taint, blocked calls, quarantine and the audit log.

Names are imported on first use, so that a module inside the package (the station's marker and
wire format, which every hook reads) can be imported without loading SQLite and the repositories.
"""

from importlib import import_module

# Not typing.TYPE_CHECKING: importing typing is a quarter of a thin hook's own start-up.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .canonical import canonical_json, sha256_hex
    from .connection import StoreUnavailable
    from .paths import default_store_path, resolve_store_path
    from .store import Store
    from .tokens import TokenError

_NAMES = {
    "Store": ".store",
    "StoreUnavailable": ".connection",
    "TokenError": ".tokens",
    "canonical_json": ".canonical",
    "default_store_path": ".paths",
    "resolve_store_path": ".paths",
    "sha256_hex": ".canonical",
}

__all__ = [
    "Store",
    "StoreUnavailable",
    "TokenError",
    "canonical_json",
    "default_store_path",
    "resolve_store_path",
    "sha256_hex",
]


def __getattr__(name: str) -> object:
    module = _NAMES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value
