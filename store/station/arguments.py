"""Checks a request's arguments against the store method it names, before the method runs."""

import inspect
import types
import typing
from collections.abc import Callable
from typing import Any


class ArgumentCheck:
    """Checks a request's arguments against the method's signature and its plain annotations.

    A forged request may name arguments the method does not take, or give a text where a number
    goes: both are bad requests, refused before the method runs.
    """

    def __init__(self, method: Callable) -> None:
        parameters = list(inspect.signature(method).parameters.values())[1:]
        self._names = frozenset(p.name for p in parameters)
        self._required = frozenset(
            p.name for p in parameters if p.default is inspect.Parameter.empty
        )
        hints = typing.get_type_hints(method)
        self._types = {name: _plain_types(hint) for name, hint in hints.items() if name != "return"}

    def __call__(self, arguments: dict) -> None:
        unknown = arguments.keys() - self._names
        if unknown:
            raise TypeError(f"unexpected arguments: {', '.join(sorted(unknown))}")
        missing = self._required - arguments.keys()
        if missing:
            raise TypeError(f"missing arguments: {', '.join(sorted(missing))}")
        for name, value in arguments.items():
            allowed = self._types.get(name)
            if allowed is not None and not isinstance(value, allowed):
                raise TypeError(f"{name} must be {' or '.join(t.__name__ for t in allowed)}")


def _plain_types(hint: Any) -> tuple[type, ...] | None:
    """The runtime types an annotation allows, or None when it is not a plain one (then unchecked)."""
    options = (
        typing.get_args(hint)
        if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union
        else (hint,)
    )
    allowed: list[type] = []
    for option in options:
        option = typing.get_origin(option) or option
        if option is type(None):
            allowed.append(type(None))
        elif option is float:
            allowed += [float, int]
        elif option in (str, int, bool, list, dict, tuple):
            allowed.append(list if option is tuple else option)
        else:
            return None
    return tuple(allowed)
