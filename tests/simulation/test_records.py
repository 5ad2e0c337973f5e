"""Per-game Parquet records: one row per game, no duplicate after a chunk ran twice,
and the same numbers as the in-memory statistics."""

from __future__ import annotations

import json
from collections import Counter

import pytest

pa = pytest.importorskip("pyarrow")
pd = pytest.importorskip("pandas")

import chinchon  # noqa: E402
from chinchon.cli import main  # noqa: E402
from chinchon.errors import ChinchonError, RecordsError  # noqa: E402
from chinchon.game.state import GameState  # noqa: E402
from chinchon.simulation import SimulationParams, game_seed, play_chunk, read_records, simulate  # noqa: E402
from chinchon.simulation.records import COLUMNS, part_name, prepare  # noqa: E402

from . import faulty  # noqa: E402

NATIVE = chinchon.IMPLEMENTATION == "native"
N = 40 if NATIVE else 6
BOTS = "greedy,greedy,random,random"


def check_records(path, result):
    """The records under ``path`` are ``result``'s games, one row each, and give its
    statistics."""
    table = read_records(str(path))
    df = pd.read_parquet(path)  # pandas reads the directory as one table too
    assert len(df) == table.num_rows == result.games
    assert sorted(df["index"]) == list(range(result.games))  # complete, no duplicate
    assert list(table.column("index").to_pylist()) == list(range(result.games))
    assert table.column_names == list(COLUMNS)
    rows = table.to_pylist()
    won = [r for r in rows if r["status"] == "won"]
    assert [sum(r["winner"] == s for r in won) for s in range(result.players)] \
        == result.wins_per_seat
    assert dict(Counter(r["winner_bot"] for r in won)) == \
        {b: w for b, w in result.wins_per_bot.items() if w}
    status = Counter(r["status"] for r in rows)
    assert (status["draw"], status["cancelled"], status["stalled"]) == \
        (result.draws, result.cancelled, result.stalled)
    assert sum(r["hands"] for r in rows) == result.hands
    assert dict(Counter(t for r in rows for t in r["turns"])) == result.turns_per_hand
    assert dict(Counter(e for r in rows for e in r["endings"])) == \
        {k: v for k, v in result.endings.items() if v}
    assert dict(Counter(p for r in rows for p in r["points"])) == result.points
    assert [sum(r["rejoins"][s] for r in rows) for s in range(result.players)] == \
        result.rejoins_per_seat
    # each of points with its seat: the histogram of each seat's hand points
    assert all(len(r["point_seats"]) == len(r["points"]) for r in rows)
    assert [dict(Counter(p for r in rows for p, t in zip(r["points"], r["point_seats"])
                         if t == s)) for s in range(result.players)] == result.points_per_seat
    assert all(r["seed"] == str(result.seed) for r in rows)
    assert all(r["game_seed"] == game_seed(result.seed, r["index"]) for r in rows)
    assert all(r["players"] == result.players and r["bots"] == result.bots for r in rows)
    # the first lead, as a table of that seed draws it
    assert [r["lead"] for r in rows[:8]] == \
        [GameState(result.players, seed=game_seed(result.seed, r["index"]),
                   rules=result.rules).lead for r in rows[:8]]
    if result.records:  # field by field against the kept GameRecords
        for r, g in zip(rows, result.records):
            assert (r["index"], r["status"], r["hands"], r["turns"], r["endings"],
                    r["points"], r["rejoins"], r["totals"], r["point_seats"]) == \
                (g.index, g.status, g.hands, g.turns, g.outcomes, g.points, g.rejoins,
                 g.totals, g.point_seats)
            assert r["winner"] == (g.winner if g.status == "won" else None)
    return rows


@pytest.mark.parametrize("jobs,size", [(1, 7), (2, 3)])
def test_records_are_the_games_and_their_statistics(tmp_path, jobs, size):
    path = tmp_path / "games.parquet"
    r = simulate(N, 4, bots=BOTS, seed=5, jobs=jobs, chunk_size=size, records=path,
                 rules="classic")
    rows = check_records(path, r)
    assert {row["rules"] for row in rows} == {"classic"}
    parts = sorted(p.name for p in path.iterdir() if p.name.startswith("part-"))
    assert parts == [part_name(a) for a in range(0, N, size)]
    assert not [p for p in path.iterdir() if p.name.startswith(".")]  # no temporary left
    meta = json.loads((path / "_chinchon.json").read_text())
    assert meta["games"] == N and meta["rules_name"] == "classic"


def test_a_chunk_played_again_replaces_its_part(tmp_path):
    folder = prepare(str(tmp_path / "g"), SimulationParams(3, ("greedy",) * 3, 1,
                                                         chinchon.HOUSE_RULES), 6)
    params = SimulationParams(3, ("greedy",) * 3, 1, chinchon.HOUSE_RULES, records=folder)
    for _ in range(2):
        play_chunk(params, 0, 3)
        play_chunk(params, 3, 6)
    assert read_records(folder).column("index").to_pylist() == list(range(6))


def test_records_after_a_worker_died_have_no_duplicate(tmp_path, monkeypatch):
    marker = tmp_path / "died"
    monkeypatch.setenv("CHINCHON_TEST_DIE_MARKER", str(marker))
    bots = [faulty.DyingBot, "greedy", "random"]
    path = tmp_path / "games"
    r = simulate(faulty.INDEX + 10, 3, bots=bots, seed=faulty.SEED, jobs=2, chunk_size=3,
                 records=path)
    assert marker.exists()
    check_records(path, r)


def test_an_earlier_run_is_replaced_and_foreign_files_refused(tmp_path):
    path = tmp_path / "games.parquet"
    simulate(N, 3, seed=1, chunk_size=2, records=path)
    r = simulate(5, 3, seed=2, chunk_size=4, records=path)  # fewer parts than before
    check_records(path, r)
    (path / "notes.txt").write_text("mine")
    with pytest.raises(ChinchonError, match="notes.txt"):
        simulate(2, 3, records=path)
    (tmp_path / "file").write_text("")
    with pytest.raises(ChinchonError, match="is a file"):
        simulate(2, 3, records=tmp_path / "file")


def test_another_programs_parquet_dataset_is_refused_and_kept(tmp_path):
    import pyarrow as pa
    import pyarrow.dataset as ds

    theirs = tmp_path / "theirs"  # pyarrow's own part name: part-0.parquet
    ds.write_dataset(pa.table({"x": [1, 2]}), theirs, format="parquet")
    before = sorted(p.name for p in theirs.iterdir())
    with pytest.raises(RecordsError, match="part-0.parquet"):
        simulate(2, 2, records=theirs)
    # parts named as ours, but no _chinchon.json a run wrote: not an earlier run either
    ours_named = tmp_path / "named"
    ours_named.mkdir()
    (ours_named / part_name(0)).write_text("mine")
    with pytest.raises(RecordsError, match="no _chinchon.json of a chinchon run"):
        simulate(2, 2, records=ours_named)
    (ours_named / "_chinchon.json").write_text("{}")
    with pytest.raises(RecordsError, match="no _chinchon.json of a chinchon run"):
        simulate(2, 2, records=ours_named)
    assert sorted(p.name for p in theirs.iterdir()) == before
    assert (ours_named / part_name(0)).read_text() == "mine"
    # a _chinchon.json alone, not a run's: it was written over
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "_chinchon.json").write_text('{"my": "precious config"}')
    with pytest.raises(RecordsError, match="holds a _chinchon.json that no chinchon run"):
        simulate(2, 2, records=alone)
    assert (alone / "_chinchon.json").read_text() == '{"my": "precious config"}'


@pytest.mark.parametrize("name", ["bad\udcffname", "nul\x00name"])
def test_a_records_path_that_cannot_name_the_files_is_refused_first(tmp_path, name):
    """pyarrow writes the parts by UTF-8 names: a name that is not (a byte of another
    encoding, read as a surrogate) was made and the games played, then the first part
    failed with a UnicodeEncodeError; a NUL was a plain ValueError."""
    path = str(tmp_path) + "/" + name
    with pytest.raises(RecordsError, match="cannot name the records' files"):
        simulate(2, 2, records=path)
    assert list(tmp_path.iterdir()) == []


def test_a_records_directory_that_cannot_be_made(tmp_path, capsys):
    (tmp_path / "file").write_text("")
    bad = tmp_path / "file" / "games"  # under a file: no directory can be made there
    with pytest.raises(RecordsError, match="cannot make the directory .*games"):
        simulate(2, 2, records=bad)
    assert main(["simulate", "--games", "3", "--records", str(bad), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("chinchon simulate: error: records: cannot make the directory")
    assert err.count("\n") == 1 and str(bad) in err


def test_an_empty_records_path_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # "" would be this directory: its files are left alone
    part, meta = tmp_path / part_name(0), tmp_path / "_chinchon.json"
    part.write_text("mine")
    meta.write_text("{}")
    with pytest.raises(RecordsError, match="records: the path is empty"):
        simulate(2, 2, records="")
    assert main(["simulate", "--games", "3", "--records", "", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("chinchon simulate: error: records: the path is empty")
    assert err.count("\n") == 1
    assert part.read_text() == "mine" and meta.read_text() == "{}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_chinchon.json", part.name]


def test_read_records_with_columns(tmp_path):
    simulate(6, 3, seed=3, chunk_size=2, records=tmp_path / "g")
    t = read_records(str(tmp_path / "g"), columns=["winner", "lead"])
    assert t.column_names == ["winner", "lead"] and t.num_rows == 6


def test_a_folder_of_no_game_reads_as_an_empty_table(tmp_path):
    """simulate(0, ...) writes a folder that read_records failed on (no column to sort
    by); a missing folder was a bare FileNotFoundError."""
    simulate(0, 2, records=tmp_path / "none")
    simulate(3, 2, records=tmp_path / "some")
    empty = read_records(str(tmp_path / "none"))
    some = read_records(str(tmp_path / "some"))
    assert empty.num_rows == 0 and empty.schema == some.schema
    assert read_records(str(tmp_path / "none"), columns=["winner"]).column_names == ["winner"]
    with pytest.raises(RecordsError, match="no folder"):
        read_records(str(tmp_path / "missing"))
