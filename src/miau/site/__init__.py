"""Miau as a static site: the game, engine and progress all in the player's browser.

``miau build-site OUT`` (``miau.site.build``) writes the site: the web
client, a zip of the standard-library packages (engine, pack loader,
solver, the shipped worlds, the play service :mod:`miau.play` and
:mod:`miau.site.backend`) and the pinned Pyodide runtime. In the page,
``miau.site.backend`` is the in-page host of the play service: it answers
the same HTTP API and play protocol as the server, with the same code,
keeping progress in IndexedDB. It imports nothing from :mod:`miau.server`.
"""
