"""Miau as a static site: the game, engine and progress all in the player's browser.

``miau build-site OUT`` (``miau.site.build``) writes the site: the web
client, a zip of the standard-library packages (engine, pack loader,
solver, the shipped worlds and :mod:`miau.site.backend`) and the pinned
Pyodide runtime. In the page, ``miau.site.backend`` answers the same HTTP
API and play protocol as the server, keeping progress in IndexedDB.
"""
