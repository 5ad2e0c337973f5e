"""The HTML report: from a run (``chinchon simulate --report``) and from its Parquet
records (``chinchon report``, ``--compare A B``): every figure inside, no outside
address, the run's parameters; the records read back give the run's statistics; bad
records folders get a one-line error and exit status 2.

Needs the ``plot`` extra and pyarrow (the ``dask`` extra); skipped without them, except
under ``CHINCHON_REQUIRE_PLOT_TESTS`` / ``CHINCHON_REQUIRE_DASK_TESTS`` (``.ci/run``)."""

from __future__ import annotations

import base64
import json
import re
import shutil

import pytest

from tests.simulation.conftest import require_plot_extra

require_plot_extra()
matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
pytest.importorskip("pyarrow")

import chinchon  # noqa: E402
from chinchon.cli import main  # noqa: E402
from chinchon.errors import RecordsError  # noqa: E402
from chinchon.rules import Rules  # noqa: E402
from chinchon.simulation import simulate  # noqa: E402
from chinchon.simulation.plot import KINDS  # noqa: E402
from chinchon.simulation.records import FORMAT  # noqa: E402
from chinchon.simulation.report import load_records, render, run_of  # noqa: E402

NATIVE = chinchon.IMPLEMENTATION == "native"
N = 60 if NATIVE else 8
BOTS = "greedy,greedy,random,random"

_FIGURE = re.compile(r'<figure id="figure-(\w+)" class="plot"><img alt="[^"]*" '
                     r'src="data:image/png;base64,([A-Za-z0-9+/=]+)">')


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two record sets: the house rules in two chunks on two processes, and classic."""
    root = tmp_path_factory.mktemp("records")
    a = simulate(N, 4, bots=BOTS, seed=5, records=root / "a", jobs=2, chunk_size=N // 2)
    b = simulate(N, 4, bots=BOTS, seed=6, records=root / "b", rules="classic")
    return root, a, b


def check_page(text: str, kinds=KINDS) -> dict[str, bytes]:
    """Every figure is a PNG inside the page; nothing points elsewhere."""
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    assert not re.search(r"https?://", text, re.IGNORECASE)
    assert not re.search(r"<(script|link|iframe)\b|\bsrc=\"(?!data:)|url\(", text)
    found = {kind: base64.b64decode(data) for kind, data in _FIGURE.findall(text)}
    assert list(found) == list(kinds)
    assert all(png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000
               for png in found.values())
    return found


def check_parameters(text: str, result, **more) -> None:
    for key, value in {"games": result.games, "players": result.players,
                       "seed": result.seed, "engine": result.engine, **more}.items():
        assert re.search(rf"<tr><td>{re.escape(key)}</td><td[^>]*>{re.escape(str(value))}"
                         "</td>", text), key
    assert re.search(r"<tr><td>games/s</td><td class=\"num\">\d+</td>", text)
    bots = ", ".join(f"{s}: {b}" for s, b in enumerate(result.bots))
    assert f"<td>bots</td><td>{bots}</td>" in text
    for field, value in result.rules.to_dict().items():  # the rules table, every field
        shown = json.dumps(value) if isinstance(value, (list, bool)) or value is None \
            else str(value)
        assert re.search(rf"<tr[^>]*><td>{field}</td><td[^>]*>{re.escape(shown)}</td>", text), \
            field


def test_records_give_the_runs_statistics(runs):
    root, a, b = runs
    assert load_records(str(root / "a")).result.stats() == a.stats()
    rb = load_records(str(root / "b"))
    assert rb.result.stats() == b.stats()
    assert rb.params["engine"] == b.engine and rb.params["max_turns"] == 1000
    assert rb.result.rules == Rules.preset("classic")


def test_report_of_a_result(runs):
    _, a, _ = runs
    text = render([run_of(a, max_turns=1000)])
    check_page(text)
    check_parameters(text, a, rules="barajamos", max_turns=1000)


def test_cli_report_from_records(runs, tmp_path, capsys):
    root, a, _ = runs
    out = tmp_path / "run.html"
    assert main(["report", str(root / "a"), "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"report: {out}\n"
    text = out.read_text(encoding="utf-8")
    check_page(text)
    check_parameters(text, a, rules="barajamos", records=str(root / "a"), jobs=2)


def test_cli_simulate_report(tmp_path, capsys):
    out = tmp_path / "sim.html"
    assert main(["simulate", "--games", str(N), "--players", "3", "--bots", "greedy,random",
                 "--seed", "2", "--rules", "conga", "--players", "2", "--no-progress",
                 "--report", str(out)]) == 0
    assert f"report           {out}" in capsys.readouterr().out
    text = out.read_text(encoding="utf-8")
    check_page(text)
    r = simulate(N, 2, bots="greedy,random", seed=2, rules="conga")
    check_parameters(text, r, rules="conga", max_turns=1000)
    assert main(["simulate", "--games", "2", "--players", "2", "--no-progress", "--json",
                 "--report", str(out)]) == 0
    assert json.loads(capsys.readouterr().out)["report"] == str(out)


def test_cli_compare(runs, tmp_path, capsys):
    root, a, b = runs
    out = tmp_path / "cmp.html"
    assert main(["report", "--compare", str(root / "a"), str(root / "b"),
                 "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    check_page(text)
    assert '<h2 id="differences">' in text
    label_a, label_b = f"A: {root / 'a'}", f"B: {root / 'b'}"
    assert f"<th>parameter</th><th>{label_a}</th><th>{label_b}</th>" in text
    # the one rule that differs between the presets is marked
    assert '<tr class="differs"><td>seven_run_wins</td><td>true</td><td>false</td></tr>' in text
    assert text.count('<tr class="differs">') == 1
    p0a, p0b = 100 * a.wins_per_seat[0] / a.games, 100 * b.wins_per_seat[0] / b.games
    assert (f"<td>win rate, seat 0</td><td>{p0a:.2f}%</td><td>{p0b:.2f}%</td>"
            f"<td>{p0b - p0a:+.2f}%</td>") in text


def _part(folder):
    return sorted(p for p in folder.iterdir() if p.name.startswith("part-"))


def _error(capsys, *argv) -> str:
    assert main(list(argv)) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    return captured.err


def test_bad_records_folders(runs, tmp_path, capsys):
    root, _, _ = runs
    out = str(tmp_path / "x.html")
    assert "no folder" in _error(capsys, "report", str(tmp_path / "none"), "--out", out)
    (tmp_path / "file").write_text("x")
    assert "is a file" in _error(capsys, "report", str(tmp_path / "file"), "--out", out)
    (tmp_path / "empty").mkdir()
    assert "holds no games" in _error(capsys, "report", str(tmp_path / "empty"), "--out", out)
    # a run of no games: the advice is to simulate some, not the command that wrote it
    assert main(["simulate", "--games", "0", "--records", str(tmp_path / "z0")]) == 0
    capsys.readouterr()
    error = _error(capsys, "report", str(tmp_path / "z0"), "--out", out)
    assert "holds a run of no games" in error and "--games N" in error
    assert "one RECORDS_DIR, or --compare" in _error(capsys, "report", "--out", out)
    assert "one RECORDS_DIR, or --compare" in _error(
        capsys, "report", str(root / "a"), "--compare", str(root / "a"), str(root / "b"),
        "--out", out)
    # no metadata
    bare = tmp_path / "bare"
    bare.mkdir()
    shutil.copy(_part(root / "a")[0], bare)
    assert "no _chinchon.json" in _error(capsys, "report", str(bare), "--out", out)
    # another version: an older format, or a column missing
    old = tmp_path / "old"
    shutil.copytree(root / "a", old)
    meta = json.loads((old / "_chinchon.json").read_text())
    del meta["format"]
    (old / "_chinchon.json").write_text(json.dumps(meta))
    err = _error(capsys, "report", str(old), "--out", out)
    assert "records format 1" in err and f"reads format {FORMAT}" in err
    import pyarrow.parquet as pq

    lacking = tmp_path / "lacking"
    shutil.copytree(root / "a", lacking)
    for p in _part(lacking):
        pq.write_table(pq.read_table(p).drop_columns(["point_seats"]), p)
    assert "lacks the column(s) point_seats" in _error(capsys, "report", str(lacking),
                                                       "--out", out)
    # one part of two lacking it: the dataset took the first part's columns and read
    # nulls for it, and the report died of them
    one = tmp_path / "one_lacking"
    shutil.copytree(root / "a", one)
    last = _part(one)[-1]
    pq.write_table(pq.read_table(last).drop_columns(["point_seats"]), last)
    err = _error(capsys, "report", str(one), "--out", out)
    assert f"{last.name} lacks the column(s) point_seats" in err
    # parts missing
    short = tmp_path / "short"
    shutil.copytree(root / "a", short)
    _part(short)[-1].unlink()
    assert f"holds {N // 2} of the run's {N} games" in _error(capsys, "report", str(short),
                                                             "--out", out)
    assert not (tmp_path / "x.html").exists()


def _edited(root, tmp_path, name, **changes):
    """A copy of the records ``root / 'a'`` whose _chinchon.json has ``changes`` (a
    value of None: the key removed)."""
    folder = tmp_path / name
    shutil.copytree(root / "a", folder)
    meta = json.loads((folder / "_chinchon.json").read_text())
    for key, value in changes.items():
        if value is None:
            del meta[key]
        else:
            meta[key] = value
    (folder / "_chinchon.json").write_text(json.dumps(meta))
    return folder


@pytest.mark.parametrize("key", ["seed", "rules_name", "games", "players", "bots", "rules"])
def test_metadata_lacking_a_key(runs, tmp_path, capsys, key):
    root, _, _ = runs
    folder = _edited(root, tmp_path, "lacking", **{key: None})
    err = _error(capsys, "report", str(folder), "--out", str(tmp_path / "x.html"))
    assert f"_chinchon.json lacks the key '{key}'" in err and str(folder) in err
    assert "mixes" not in err
    with pytest.raises(RecordsError, match=f"lacks the key '{key}'"):
        load_records(str(folder))
    assert not (tmp_path / "x.html").exists()


@pytest.mark.parametrize("changes,words", [
    ({"players": "4"}, "'players' must be an int 2..6, got '4'"),
    ({"seed": "five"}, "'seed' must be the simulation's seed"),
    ({"bots": "greedy"}, "'bots' must be a list of bot names"),
    ({"bots": ["greedy"]}, "'bots' names 1 bots for 4 players"),
    ({"rules": {"deck": 41}}, "'rules' holds no valid rules"),
    ({"run": {"jobs": "two"}}, "'run' must be an object of the run's engine"),
    ({"run": {"seconds": float("nan")}}, "'run' must be an object of the run's engine"),
    ({"run": {"jobs": 0}}, "'run' must be an object of the run's engine"),
    ({"rules": Rules.preset("classic").to_dict()},
     "_chinchon.json's 'rules' are the preset classic, but its 'rules_name' says barajamos"),
    ({"rules_name": "classic"}, "holds games of the rules barajamos, but its "
                                "_chinchon.json says classic"),
])
def test_metadata_with_a_bad_value(runs, tmp_path, capsys, changes, words):
    root, _, _ = runs
    folder = _edited(root, tmp_path, "bad", **changes)
    err = _error(capsys, "report", str(folder), "--out", str(tmp_path / "x.html"))
    assert words in err and str(folder) in err


def test_mixed_rule_sets_only_with_compare(runs, tmp_path, capsys):
    root, _, _ = runs
    mixed = tmp_path / "mixed"
    shutil.copytree(root / "a", mixed)
    shutil.copy(_part(root / "b")[0], mixed / "part-000099999999.parquet")
    err = _error(capsys, "report", str(mixed), "--out", str(tmp_path / "x.html"))
    assert "mixes rule sets (barajamos, classic)" in err and "--compare A B" in err
    with pytest.raises(RecordsError, match="mixes rule sets"):
        load_records(str(mixed))
    # the same two rule sets, each its own records, compared: fine
    assert main(["report", "--compare", str(root / "a"), str(root / "b"),
                 "--out", str(tmp_path / "ok.html")]) == 0
    assert capsys.readouterr().out == f"report: {tmp_path / 'ok.html'}\n"
    # another simulation's games under the same rules
    seeds = tmp_path / "seeds"
    shutil.copytree(root / "a", seeds)
    other = simulate(3, 4, bots=BOTS, seed=9, records=tmp_path / "c")
    assert other.games == 3
    shutil.copy(_part(tmp_path / "c")[0], seeds / "part-000099999999.parquet")
    assert "mixes simulations (seed 5, 9)" in _error(capsys, "report", str(seeds), "--out",
                                                    str(tmp_path / "x.html"))


def test_unwritable_report(runs, tmp_path, capsys):
    root, _, _ = runs
    err = _error(capsys, "report", str(root / "a"), "--out", str(tmp_path / "no" / "x.html"))
    assert "cannot write the report" in err


def test_an_unwritable_report_is_said_before_any_game(tmp_path, capsys):
    """simulate --report to a file that cannot be written played every game, wrote the
    records, then failed; now nothing is played (no records folder made)."""
    records = tmp_path / "recs"
    for out, words in ((tmp_path / "no" / "x.html", "no folder"),
                       (tmp_path, "it is a folder")):
        err = _error(capsys, "simulate", "--games", "50", "--records", str(records),
                     "--report", str(out))
        assert f"cannot write the report {str(out)!r}: {words}" in err, err
        assert not records.exists()
    # the report where the records go, or in their folder: played every game, then
    # failed on the folder (exit 1), or left a stray file in the records
    for out in (records, records / "r.html", records / "sub" / "r.html"):
        err = _error(capsys, "simulate", "--games", "50", "--records", str(records),
                     "--report", str(out))
        assert f"cannot write the report {str(out)!r}: it would be the records folder" in err
        assert not records.exists()


def test_a_report_through_a_link_that_leads_nowhere_is_said_before_reading(runs, tmp_path,
                                                                          capsys):
    """--out a symbolic link is written through: a loop of links, or one into a folder
    that is not there, is bad input (status 2) found before the records are read, not
    a failed write after them (status 1); an empty name is no file, nor no folder."""
    root, _, _ = runs
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    (tmp_path / "dangling").symlink_to(tmp_path / "no" / "x.html")
    (tmp_path / "fine").symlink_to(tmp_path / "written.html")
    for out, words in ((tmp_path / "loop1", "a loop of symbolic links"),
                       (tmp_path / "dangling", f"no folder {tmp_path / 'no'}"),
                       ("", "its name is empty")):
        err = _error(capsys, "report", str(root / "a"), "--out", str(out))
        assert f"cannot write the report {str(out)!r}: {words}" in err, err
    assert "no records folder: its name is empty" in _error(
        capsys, "report", "", "--out", str(tmp_path / "x.html"))
    assert main(["report", str(root / "a"), "--out", str(tmp_path / "fine")]) == 0
    assert (tmp_path / "written.html").read_text().startswith("<!DOCTYPE html>")


def test_a_report_is_not_written_over_the_records_it_reads(runs, tmp_path, capsys):
    """chinchon report --out a file of the records it reads (its _chinchon.json, a part)
    wrote the HTML over it, and the records were no run's any more; refused, as
    simulate --report is, for either folder of --compare too."""
    import shutil

    root, _, _ = runs
    folder = tmp_path / "a"
    shutil.copytree(root / "a", folder)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    for out in [folder / "_chinchon.json", folder / _part(folder)[0].name, folder]:
        for argv in ([str(folder)], ["--compare", str(root / "a"), str(folder)]):
            err = _error(capsys, "report", *argv, "--out", str(out))
            assert f"cannot write the report {str(out)!r}: it would be the records" in err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def _rewritten(root, tmp_path, name, column, edit):
    """A copy of the records ``root / 'a'`` whose first part's ``column`` is
    ``edit(values)`` (a list per row)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path / name
    shutil.copytree(root / "a", folder)
    part = _part(folder)[0]
    table = pq.read_table(part)
    at = table.schema.get_field_index(column)
    values = edit(table.column(column).to_pylist())
    table = table.set_column(at, table.schema.field(at),
                             pa.array(values, type=table.schema.field(at).type))
    pq.write_table(table, part)
    return folder


@pytest.mark.parametrize("column,edit,words", [
    ("status", lambda v: [None] + v[1:], "has a status not of won, draw"),
    ("status", lambda v: ["weird"] + v[1:], "has a status not of won, draw"),
    ("winner", lambda v: [7 if w is not None else w for w in v], "has a winner that is not"),
    ("rejoins", lambda v: [v[0][:2]] + v[1:], "has a rejoins list not of 4 seats"),
    ("point_seats", lambda v: [v[0][:-1]] + v[1:], "point_seats and points of different"),
    ("point_seats", lambda v: [[9] * len(v[0])] + v[1:], "a point's seat that is not a seat"),
    ("endings", lambda v: [["weird"] * len(v[0])] + v[1:], "has an ending not of normal"),
    ("turns", lambda v: [v[0] + [3]] + v[1:], "endings and turns of different lengths"),
    # nulls inside the lists, or for a whole value, were counted as a huge negative or 0
    ("points", lambda v: [[None] * len(v[0])] + v[1:], "has a null in its points list"),
    ("rejoins", lambda v: [[None] + v[0][1:]] + v[1:], "has a null in its rejoins list"),
    ("hands", lambda v: [None] + v[1:], "has no hands (null)"),
    ("lead", lambda v: [None] + v[1:], "has no lead (null)"),
])
def test_rows_no_simulation_writes(runs, tmp_path, capsys, column, edit, words):
    """Rows edited by hand: each refused in one line naming the game, where the report
    died of some (a short list) and counted others into wrong statistics (a winner
    out of the seats, an unknown ending, a status of null)."""
    root, _, _ = runs
    folder = _rewritten(root, tmp_path, "edited", column, edit)
    err = _error(capsys, "report", str(folder), "--out", str(tmp_path / "x.html"))
    assert words in err and "the game of index" in err and str(folder) in err
    with pytest.raises(RecordsError, match="not a row chinchon simulate writes"):
        load_records(str(folder))
    assert not (tmp_path / "x.html").exists()


@pytest.mark.parametrize("column,cast", [("winner", "string"), ("status", "int64"),
                                         ("hands", "string"), ("points", "float64")])
def test_a_column_of_another_type_is_refused(runs, tmp_path, capsys, column, cast):
    """A part whose column holds another type (a winner as text, points as floats)
    crashed the report with a pyarrow error, or was counted ("2.0" hands)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    root, _, _ = runs
    folder = tmp_path / "typed"
    shutil.copytree(root / "a", folder)
    part = _part(folder)[0]
    table = pq.read_table(part)
    at = table.schema.get_field_index(column)
    kind = table.schema.field(at).type
    target = pa.list_(getattr(pa, cast)()) if pa.types.is_list(kind) else getattr(pa, cast)()
    values = table.column(column)
    if column == "status":
        values = pa.array([len(v) for v in values.to_pylist()], type=target)
    else:
        values = values.cast(target)
    pq.write_table(table.set_column(at, pa.field(column, target), values), part)
    err = _error(capsys, "report", str(folder), "--out", str(tmp_path / "x.html"))
    assert f"{part.name}'s column {column} holds" in err and "not a part" in err


@pytest.mark.parametrize("edit,words", [
    (lambda m: {**m, "run": {**m["run"], "seconds": 10**400}}, "'run' must be"),
    (lambda m: "[" * 100_000 + "]" * 100_000, "_chinchon.json is unreadable"),
])
def test_a_meta_file_edited_past_reading_is_named(runs, tmp_path, capsys, edit, words):
    """Seconds past a float's range raised an OverflowError, arrays nested past the
    recursion limit a RecursionError: tracebacks, where a bad _chinchon.json is one line."""
    import json

    root, _, _ = runs
    folder = tmp_path / "meta"
    shutil.copytree(root / "a", folder)
    meta = folder / "_chinchon.json"
    new = edit(json.loads(meta.read_text()))
    meta.write_text(new if isinstance(new, str) else json.dumps(new))
    err = _error(capsys, "report", str(folder), "--out", str(tmp_path / "x.html"))
    assert words in err
