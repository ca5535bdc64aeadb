"""The server's WebSocket keepalive leaves the process's global random state alone.

uvicorn draws each ping's payload from ``random``; a server in a test's
process used to shift the global random state under a hypothesis test
running beside it (``HypothesisDeprecationWarning: Do not use the random
module inside strategies``), see ``serving.keep_pings_off_the_global_random``.
"""

from __future__ import annotations

import random
import socket
import threading
import time
from pathlib import Path

import uvicorn

from miau.server.app import create_app
from miau.server.serving import uvicorn_config
from tests.server.wire import RawSocket, masked_frame

PING = 0x9
PONG = 0xA


def test_keepalive_pings_do_not_touch_the_global_random_state(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn_config(
        create_app(db_path=tmp_path / "miau.db"),
        host="127.0.0.1",
        port=port,
        ws_ping_interval=0.05,
        ws_ping_timeout=5,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 15
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        before = random.getstate()
        with RawSocket(port) as client:
            pings = 0
            while pings < 3:
                opcode, payload = client.receive()
                if opcode == PING:
                    # The next ping is sent only once this one is answered.
                    client.sock.sendall(masked_frame(payload, opcode=PONG))
                    pings += 1
        assert random.getstate() == before
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    assert not thread.is_alive()
