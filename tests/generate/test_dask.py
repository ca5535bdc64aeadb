"""The Dask path: candidates evaluated on a local cluster give the same pack as in-process."""

from __future__ import annotations

from distributed import Client

from miau.generate import generate
from tests.generate.helpers import local_cluster, small_options, small_source
from tests.generate.test_generate import run, written


def test_a_local_dask_cluster_gives_the_same_pack_as_this_process() -> None:
    with local_cluster() as cluster, Client(cluster) as client:  # type: ignore[no-untyped-call]
        on_dask = generate(
            small_source(1).seeds, small_options(1), executor=client.get_executor(pure=False)
        )
    assert on_dask.solved > 0
    assert written(on_dask) == written(run())
