"""A small start for quick generation runs: a 6x5 grid of a few words."""

from __future__ import annotations

from distributed import LocalCluster

from miau.generate import Limits, Options, Source, from_words, pools_for

WORDS = ("MIAU", "IS", "YOU", "FLAG", "IS", "WIN", "WALL", "IS", "STOP")
SIZE = (6, 5)


def small_source(seed: int = 0) -> Source:
    """The blank start every quick generation test grows from."""
    return from_words(WORDS, *SIZE, seed)


def small_options(seed: int = 0, candidates: int = 24) -> Options:
    """A count budget small enough for a test: three batches of eight, 3,000 states each."""
    return Options(
        pools=pools_for(small_source(seed)),
        limits=Limits(*SIZE, 20),
        seed=seed,
        candidates=candidates,
        batch=8,
        max_expansions=3000,
        scorer="solver",
    )


def local_cluster(protocol: str = "inproc") -> LocalCluster:
    """A one-worker Dask cluster in this process (threads, no worker processes: quick to start).

    No dashboard: it would want the fixed port 8787, which another run may hold.
    """
    cluster: LocalCluster = LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=1,
        threads_per_worker=2,
        processes=False,
        protocol=protocol,
        dashboard_address=None,
    )
    return cluster
