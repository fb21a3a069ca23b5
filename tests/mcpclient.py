"""kenning's MCP server for the MCP SDK's own `Client` (a dev dependency only).

`stdio_server()`: the server as every client starts it, `python -m kenning.mcp.server` in a
subprocess, in this process's working directory and environment (the test's project,
KENNING_HOME and fake embedder).
`in_process()`: the same request loop (`serve_lines`, what that process runs over its stdin
and stdout) in a thread of this process over two pipes, for tests whose audit hooks must see
what the server opens.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

import anyio
import anyio.to_thread
import mcp_types
from mcp import StdioServerParameters
from mcp.shared.message import SessionMessage


def stdio_server() -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "kenning.mcp.server"],
                                 env=dict(os.environ), cwd=os.getcwd())


@asynccontextmanager
async def in_process() -> AsyncIterator[tuple]:
    from kenning.mcp.server import open_memory, serve_lines, warm

    requests_in, requests_out = os.pipe()
    replies_in, replies_out = os.pipe()
    failed: list[BaseException] = []

    def serve() -> None:
        try:
            with open(requests_in, "rb") as lines, open(replies_out, "wb") as out:
                memory = open_memory()
                try:
                    warm(memory)
                    serve_lines(memory, lines, out)
                finally:
                    memory.close()
        except BaseException as exc:  # noqa: BLE001 - the test sees it after the session
            failed.append(exc)

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    to_client, from_server = anyio.create_memory_object_stream[SessionMessage | Exception](100)
    to_server, from_client = anyio.create_memory_object_stream[SessionMessage](100)
    writer, reader = open(requests_out, "wb"), open(replies_in, "rb")

    async def send() -> None:
        async with from_client:
            async for message in from_client:
                data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                await anyio.to_thread.run_sync(_write, writer, (data + "\n").encode("utf-8"))
        writer.close()  # the server reads the end of its input and stops

    async def receive() -> None:
        async with to_client:
            while raw := await anyio.to_thread.run_sync(reader.readline):
                message = mcp_types.jsonrpc_message_adapter.validate_json(raw, by_name=False)
                with suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
                    await to_client.send(SessionMessage(message))  # a client gone: drain
        reader.close()

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(send)
        tasks.start_soon(receive)
        try:
            yield from_server, to_server
        finally:
            await to_server.aclose()
    await anyio.to_thread.run_sync(server.join)
    if failed:
        raise failed[0]


def _write(stream, data: bytes) -> None:
    stream.write(data)
    stream.flush()
