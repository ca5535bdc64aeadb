"""``miau generate``: writes a pack that ``miau check`` passes, deeper than its seed and the walks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from miau.cli import main
from miau.generate import analyse, solver_score, walks
from miau.packs import load_pack
from miau.solver import solve
from tests.generate.helpers import SIZE, WORDS, local_cluster, small_source

SMALL = [
    "generate",
    "--words",
    ",".join(WORDS),
    "--size",
    f"{SIZE[0]}x{SIZE[1]}",
    "--candidates",
    "24",
    "--batch",
    "8",
    "--max",
    "3000",
    "--scorer",
    "solver",
    # Seed 2's first 24 candidates hold a level with an idea that is new and not the seed's:
    # finishing writes only those (seed 0's are near-copies of its solution or shipped ideas).
    "--seed",
    "2",
]


def depth(level: dict[str, object]) -> float:
    return solver_score(analyse(level, solve(level), 300_000)).depth


def test_the_written_pack_passes_miau_check_and_every_level_is_deeper_than_seed_and_walks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.json"
    assert main([*SMALL, "--workers", "1", "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["check", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    levels = report["packs"][0]["levels"]
    assert levels, "the pack has no levels"
    for level in levels:
        assert not level["failed"]
        assert level["solver"]["outcome"] == "solved"
        assert level["solution"]["won"]
        assert level["solution"]["turns"] == level["solver"]["length"], "not proved shortest"
    floor = max(depth(dict(seed.level)) for seed in (*small_source(2).seeds, *walks()))
    for level in load_pack(out).levels:
        assert depth(dict(level.data)) > floor, level.id


def test_a_request_no_level_meets_writes_nothing_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.json"
    status = main(
        [*SMALL, "--workers", "1", "--need", "DEFEAT,SINK", "--tier", "4", "-o", str(out)]
    )
    assert status == 1
    assert "no level that need DEFEAT+SINK, tier 4" in capsys.readouterr().out
    assert not out.exists()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["generate", "--size", "6x5"], "give a PACK"),
        (["generate", "--words", "MIAU,IS,YOU", "--size", "6x5"], "at least two nouns"),
        (["generate", "--words", "MIAU,FLAG", "--size", "six"], "WxH"),
        (["generate", "packs/tutorial.json", "--level", "nowhere"], "no level 'nowhere'"),
    ],
)
def test_bad_input_is_refused_with_a_reason(
    arguments: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*arguments, "-o", str(tmp_path / "out.json")]) == 2
    assert message in capsys.readouterr().err


def test_a_dask_scheduler_writes_the_same_pack_as_one_process(tmp_path: Path) -> None:
    local, remote = tmp_path / "local.json", tmp_path / "remote.json"
    assert main([*SMALL, "--workers", "1", "-o", str(local)]) == 0
    with local_cluster("tcp") as cluster:
        assert main([*SMALL, "--scheduler", cluster.scheduler_address, "-o", str(remote)]) == 0
    assert remote.read_bytes() == local.read_bytes()
