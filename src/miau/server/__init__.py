"""The Miau game server: the web client's files, the HTTP JSON API and the play WebSocket.

``create_app(db_path=...)`` (in ``miau.server.app``) builds the ASGI
application; ``miau play`` runs it on uvicorn. Modules, one job each:
``app`` (routes, static files, the player cookie), ``protocol`` (client
messages and error replies), ``session`` (one play session), ``store``
(the ``Store`` protocol and ``SqliteStore``), ``worlds`` (the packs on offer
and unlock rules). ``docs/protocol.md`` describes the wire.
"""
