"""One spawned helper process that answers requests sent down a pipe, one at a time.

The server hands pure-Python work that could hold the interpreter lock for
long (reading a big pack, replaying an over-long log) to such a process, so
that other players' replies never wait behind it. The process starts with
the first request; requests take turns; a process that dies (out of memory,
killed) or whose request was abandoned midway is killed and replaced for
the next request, so no stale answer is ever read; a process whose server
died sees its pipe close and ends (its ``target`` returns on end of file).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

import anyio

__all__ = ["HelperProcess", "HelperProcessStopped"]


class HelperProcessStopped(Exception):
    """The helper process ended (or its pipe broke) before it answered a request."""


class HelperProcess:
    """A spawned process running ``target(pipe, *args)``: one request, one answer, in turn."""

    def __init__(self, target: Callable[..., None], args: tuple[Any, ...], name: str) -> None:
        """No process yet; ``target`` and ``args`` reach it by their import names (spawn)."""
        self.target = target
        self.args = args
        self.name = name
        self._process: BaseProcess | None = None
        self._pipe: Connection | None = None
        self._turn = anyio.Lock()

    def pid(self) -> int | None:
        """The process's id while it runs (for tests and diagnostics)."""
        return None if self._process is None else self._process.pid

    async def ask(self, request: object) -> Any:
        """Send ``request`` and return the process's answer, the event loop free meanwhile.

        :raises HelperProcessStopped: when the process died on it (it is
            replaced for the next request).
        """
        async with self._turn:
            if self._pipe is None:
                await anyio.to_thread.run_sync(self._start)
            pipe = self._pipe
            assert pipe is not None  # set by _start
            finished = False
            try:
                await anyio.to_thread.run_sync(pipe.send, request)
                await anyio.wait_readable(pipe.fileno())
                answer = await anyio.to_thread.run_sync(pipe.recv)
                finished = True
            except (EOFError, OSError):
                raise HelperProcessStopped(self.name) from None
            finally:
                if not finished:
                    self.close()
            return answer

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe(duplex=True)
        process = context.Process(
            target=self.target, args=(theirs, *self.args), name=self.name, daemon=True
        )
        process.start()
        # Only the process may hold its end, so the server's death reads as end of file there.
        theirs.close()
        self._process, self._pipe = process, ours

    def close(self) -> None:
        """Kill the process; a later request starts a new one."""
        if self._pipe is not None:
            self._pipe.close()
        if self._process is not None:
            self._process.kill()
            self._process.join()
            self._process.close()
        self._process = self._pipe = None
