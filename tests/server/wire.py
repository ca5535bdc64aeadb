"""A raw WebSocket client, for tests that need real sockets (the server: tests.support.local).

The Starlette test client runs the app in-process and never lets a client
stall, stop mid-frame or fill a socket buffer; these helpers do.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
from typing import Any

from miau.server.serving import MAX_WEBSOCKET_FRAME

__all__ = ["MAX_WEBSOCKET_FRAME", "RawSocket", "masked_frame"]

"""As ``miau play`` configures uvicorn."""


def masked_frame(payload: bytes, opcode: int = 0x1) -> bytes:
    """One final client frame (clients must mask), text by default."""
    mask = os.urandom(4)
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 1 << 16:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
    return header + mask + masked


class RawSocket:
    """A WebSocket client on a bare TCP socket: it reads only when told to."""

    def __init__(self, port: int, cookie: str | None = None, receive_buffer: int | None = None):
        self.sock = socket.socket()
        if receive_buffer is not None:
            # Set before connecting, so the advertised window stays small.
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            "GET /ws HTTP/1.1",
            f"Host: 127.0.0.1:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
        ]
        if cookie is not None:
            lines.append(f"Cookie: miau_player={cookie}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("the server closed during the handshake")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(head.decode(errors="replace"))

    def send_json(self, message: dict[str, Any]) -> None:
        """Send one text frame."""
        self.sock.sendall(masked_frame(json.dumps(message).encode()))

    def _read_exactly(self, count: int) -> bytes:
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self) -> tuple[int, bytes]:
        """The next frame from the server: its opcode and payload (servers do not mask)."""
        first, second = self._read_exactly(2)
        length = second & 0x7F
        if length == 126:
            (length,) = struct.unpack("!H", self._read_exactly(2))
        elif length == 127:
            (length,) = struct.unpack("!Q", self._read_exactly(8))
        return first & 0x0F, self._read_exactly(length)

    def receive_json(self) -> dict[str, Any]:
        """The next text frame, as JSON (pings are skipped)."""
        while True:
            opcode, payload = self.receive()
            if opcode == 0x1:
                reply: dict[str, Any] = json.loads(payload)
                return reply
            if opcode == 0x8:
                raise ConnectionError(f"closed by the server: {payload!r}")

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send one message and read its reply."""
        self.send_json(message)
        return self.receive_json()

    def close(self) -> None:
        """Drop the TCP connection."""
        self.sock.close()

    def __enter__(self) -> RawSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
