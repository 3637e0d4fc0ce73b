"""One live session of the official MCP Python SDK client, driven from synchronous tests.

The SDK is async and its stdio client is a context manager; an anyio blocking portal runs it on a
thread of its own, so a module-scoped fixture can keep one server open across tests and a test can
stop between two calls (to run `lazaretto approve` at a terminal) with the session still open.
Every request returns an outcome as a client sees it: `{"result": {...}}` (the SDK's parsed result
as JSON) or `{"error": {"code", "message", "data"}}`.
"""

import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import ExitStack, asynccontextmanager
from datetime import timedelta
from typing import Any

from anyio.from_thread import start_blocking_portal
from mcp import ClientSession, McpError, StdioServerParameters
from mcp.client.stdio import stdio_client
from pydantic import BaseModel

REQUEST_TIMEOUT = 60.0
"""Bounds a hung server or proxy; not a timing assertion."""


def outcome(result: BaseModel) -> dict:
    """A result as plain JSON, the fields the server left out left out."""
    return {"result": result.model_dump(mode="json", exclude_none=True, by_alias=True)}


class SdkSession:
    """`command` over stdio with the SDK's own transport, initialized, until `close`."""

    def __init__(self, command: list[str], env: dict, **client: Any) -> None:
        """`client`: ClientSession's own options (`sampling_callback`, `list_roots_callback`...),
        which also make up the capabilities the client declares."""
        self._stack = ExitStack()
        self._portal = self._stack.enter_context(start_blocking_portal())
        params = StdioServerParameters(command=command[0], args=command[1:], env=env)
        try:
            self._session, initialized = self._stack.enter_context(
                self._portal.wrap_async_context_manager(_open(params, client))
            )
        except BaseException:
            self._stack.close()
            raise
        self.initialized = outcome(initialized)

    def request(self, call: Callable[..., Awaitable[BaseModel]], *args: Any) -> dict:
        """The outcome of one SDK call (`ClientSession.list_tools` and the like) with `args`."""
        try:
            return outcome(self._portal.call(call, self._session, *args))
        except McpError as exc:
            return {"error": exc.error.model_dump(mode="json", exclude_none=True)}

    def list_tools(self) -> dict:
        return self.request(ClientSession.list_tools)

    def list_prompts(self) -> dict:
        return self.request(ClientSession.list_prompts)

    def list_resources(self) -> dict:
        return self.request(ClientSession.list_resources)

    def list_resource_templates(self) -> dict:
        return self.request(ClientSession.list_resource_templates)

    def call(self, tool: str, arguments: dict | None = None) -> dict:
        return self.request(ClientSession.call_tool, tool, arguments or {})

    def read_resource(self, uri: str) -> dict:
        return self.request(ClientSession.read_resource, uri)

    def get_prompt(self, name: str, arguments: dict | None = None) -> dict:
        return self.request(ClientSession.get_prompt, name, arguments)

    def close(self) -> None:
        self._stack.close()

    def __enter__(self) -> "SdkSession":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@asynccontextmanager
async def _open(
    params: StdioServerParameters, client: dict[str, Any]
) -> AsyncIterator[tuple[ClientSession, BaseModel]]:
    with open(os.devnull, "w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(
                read, write, read_timeout_seconds=timedelta(seconds=REQUEST_TIMEOUT), **client
            ) as session,
        ):
            yield session, await session.initialize()
