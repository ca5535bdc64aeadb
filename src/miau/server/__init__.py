"""The Miau game server: the web client's files, the HTTP JSON API and the play WebSocket.

``create_app(db_path=...)`` (in ``miau.server.app``) builds the ASGI
application; ``miau play`` runs it on uvicorn. It is the async host of
the play service (:mod:`miau.play`, which says what every reply holds);
its modules, one job each: ``app`` (routes from the play service's table,
static files, the player cookie), ``session`` (one play WebSocket and its
game in the store), ``limits`` (rate limits and budgets), ``replays``
(long replays on worker threads), ``long_logs`` (the shortener process of
old logs), ``library`` and ``shared`` (their API endpoints and storage),
``store`` (the ``Store`` protocol, SQLite and PostgreSQL), ``studio`` (the
editor's solver jobs). ``docs/protocol.md`` describes the wire,
``docs/architecture.md`` the layers.
"""
