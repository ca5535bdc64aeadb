"""The play service: what both hosts of Miau answer, with the standard library only.

``miau play`` (the async host, :mod:`miau.server`) and the static site (the
in-page host, :mod:`miau.site`, under Pyodide) both answer the play
protocol and the HTTP API with this package; each adds only where things
are kept and how work is scheduled. ``docs/architecture.md`` maps it.
Modules, one job each:

- :mod:`~miau.play.protocol`: the play protocol's client messages and error replies;
- :mod:`~miau.play.log`: the play log (one entry per accepted intent), its
  replay and its compaction;
- :mod:`~miau.play.service`: the protocol's replies and rules (open, intent,
  the win record), the same on both hosts;
- :mod:`~miau.play.routes`: the HTTP API's one route table;
- :mod:`~miau.play.refusal`: an API request turned down, and the shared refusals;
- :mod:`~miau.play.worlds`: the worlds on offer, unlock rules and their JSON;
- :mod:`~miau.play.library_documents`: library requests and pack documents;
- :mod:`~miau.play.share_requests`: share links' requests;
- :mod:`~miau.play.studio_levels`: the editor's drafts and studio jobs' levels;
- :mod:`~miau.play.problems`: the loader's issues as JSON;
- :mod:`~miau.play.progress`: the progress file ``miau progress`` and the site share.
"""
