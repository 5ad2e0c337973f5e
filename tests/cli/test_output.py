"""Output the command cannot write: a full disk is one line on stderr and status 1, a
reader that stops early (``| head -1``) status 0, neither a traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

HAND = "7o 7c 7b 9e 10e 11e 4o 5b"


def _run(args: list[str], stdout: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "chinchon", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args", [["hint", HAND], ["simulate", "--games", "5"]])
def test_a_full_disk_is_one_line(args):
    with open("/dev/full", "w") as full:
        done = _run(args, full)
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"chinchon {args[0]}: error: [Errno 28] No space left on device\n"


@pytest.mark.parametrize("args", [["hint", HAND], ["simulate", "--games", "20"]])
def test_a_reader_that_stops_early_is_no_error(args):
    """The pipe's reader is gone before the command writes (``| head -0``; ``head -1``
    once its line is read): every write then fails with a broken pipe."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    with os.fdopen(write_end, "w") as gone:
        done = _run(args, gone)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_report_the_disk_will_not_take_is_status_1_after_the_results():
    """The run's results still reach stdout (they were lost with the report before, and
    the status was 2, that of bad input)."""
    from tests.simulation.conftest import require_plot_extra

    require_plot_extra()
    pytest.importorskip("matplotlib")
    done = _run(["simulate", "--games", "20", "--report", "/dev/full"], subprocess.PIPE)
    assert done.returncode == 1, done.stderr
    assert done.stderr == ("chinchon simulate: error: cannot write the report '/dev/full': "
                           "No space left on device\n")
    assert "20 games, 4 players" in done.stdout and "report " not in done.stdout


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args", [["--version"], ["--help"], ["simulate", "--help"]])
def test_help_and_version_on_a_full_disk_are_status_1(args):
    """argparse itself drops a failed write of these (status 0, nothing said)."""
    with open("/dev/full", "w") as full:
        done = _run(args, full)
    assert done.returncode == 1, done.stderr
    assert done.stderr == "chinchon: error: [Errno 28] No space left on device\n"


@pytest.mark.parametrize("args", [
    ["--help"], ["play", "--seed", "1"],
    ["settle", "--closer", "3e 4e 5e 6e 7e 8e 9e", "--opponent", "10e 2e 1e 1o 1c 12b 11b"],
])
def test_an_output_encoding_without_the_letters_is_one_line(args):
    """Under PYTHONIOENCODING=ascii the ó of Chinchón cannot be written: one line
    saying what to set and status 1, as any output that cannot be written; it was a
    UnicodeEncodeError's traceback."""
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    done = subprocess.run([sys.executable, "-m", "chinchon", *args], input="",
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 1, done.stderr
    name = "chinchon" if args[0].startswith("-") else f"chinchon {args[0]}"
    assert done.stderr == (f"{name}: error: the output's encoding, ascii, cannot write "
                           f"'\\xf3': set PYTHONIOENCODING=utf-8\n"), done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="closes a descriptor")
@pytest.mark.parametrize("args", [["rules"], ["hint", HAND], ["--version"]])
def test_a_closed_stdout_is_status_1_not_silence(args):
    """Started with stdout closed (``>&-``), Python makes sys.stdout None and print
    writes nothing: every command said nothing and exited 0."""
    done = subprocess.run([sys.executable, "-m", "chinchon", *args], stderr=subprocess.PIPE,
                          text=True, timeout=120, preexec_fn=lambda: os.close(1))
    assert done.returncode == 1, done.stderr
    assert done.stderr.endswith("error: [Errno 9] the standard output is closed\n"), done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_help_to_a_reader_that_stops_early_is_no_error():
    read_end, write_end = os.pipe()
    os.close(read_end)
    with os.fdopen(write_end, "w") as gone:
        done = _run(["--help"], gone)
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.parametrize("args, left", [
    (["hint", HAND, "--bogus"], "--bogus"),
    (["rules", "extra"], "extra"),
    (["settle", "--closer", HAND, "--eliminate-above", "3"], "--eliminate-above 3"),
])
def test_what_a_command_leaves_is_its_own_error(args, left, capsys):
    """One line under the command's name, as every bad input (argparse would name the
    top parser: ``chinchon: error: unrecognized arguments``)."""
    from chinchon.cli import main

    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    assert capsys.readouterr().err == (
        f"chinchon {args[0]}: error: unrecognized arguments: {left}\n")
