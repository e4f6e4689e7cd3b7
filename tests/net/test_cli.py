"""`pigeon-tui host`: headless (textual never loaded), and startable as a private child host."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest

from net.client import Client
from net.spawn import HostSpec, start_host

from .helpers import play_client

_HEADLESS_CHECK = (
    "import atexit, sys\n"
    "atexit.register(lambda: print('TEXTUAL' if 'textual' in sys.modules else 'HEADLESS', flush=True))\n"
    "from pigeon_tui.cli import main\n"
    "sys.exit(main(['host', *sys.argv[1:]]))\n"
)


def test_host_help_never_loads_textual() -> None:
    out = subprocess.run([sys.executable, "-c", _HEADLESS_CHECK, "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "--reaction-window" in out.stdout
    assert out.stdout.strip().endswith("HEADLESS")


def test_host_refuses_impossible_settings(capsys: pytest.CaptureFixture[str]) -> None:
    """In this process: `host` refuses its settings before it starts anything (the command's
    own entry point, `python -m pigeon_tui host`, is what tests/net/test_spawn.py's hosts run)."""
    from pigeon_tui.cli import main

    assert main(["host", "--seats", "3", "--bots", "4"]) == 2
    assert "bots" in capsys.readouterr().err


async def test_private_host_child_plays_a_game_and_never_loads_textual() -> None:
    host = await start_host(
        HostSpec(seats=2, bots=1, bot_delay=0, seed=4), command=(sys.executable, "-c", _HEADLESS_CHECK)
    )
    try:
        assert host.address == "127.0.0.1" and host.port > 0
        assert f"pigeon-tui join 127.0.0.1:{host.port}" in host.join_lines
        client = Client(host.address, host.port, "Solo", table=1)
        await client.connect()
        await play_client(client, random.Random(1))
        assert client.result is not None and client.view is not None and client.view.over
        await client.close()
        assert host.process.stdin is not None
        host.process.stdin.close()
        assert host.process.stdout is not None
        rest = host.process.stdout.read().decode()
    finally:
        await host.stop()
    assert rest.strip().endswith("HEADLESS")
    assert host.process.returncode == 0


def test_r4_6_selfplay_reports_its_settings_turns_and_restarts() -> None:
    """R4.6: `selfplay --json --house-rule infamous_empty=trophy` reports the settings it ran
    with, turns_mean/turns_max and restarts_mean (final phases called off: none under trophy)."""
    import json

    from pigeon_tui.cli import main

    def run(*extra: str) -> dict[str, Any]:
        import contextlib
        import io

        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["selfplay", "--games", "12", "--seed", "3", "--json", *extra]) == 0
        result: dict[str, object] = json.loads(out.getvalue())
        return result

    trophy = run("--house-rule", "infamous_empty=trophy")
    book = run()
    assert trophy["settings"] == {
        "edition": "3.5",
        "first_player": None,
        "blind_windows": False,
        "infamous_empty": "trophy",
        "custom_1": "",
        "custom_2": "",
    }
    assert book["settings"]["infamous_empty"] == "resume"
    assert trophy["restarts_mean"] == 0.0 and trophy["restarts_max"] == 0
    for r in (trophy, book):
        assert r["turns_max"] >= r["turns_mean"] > 0


def test_r4_6_a_bad_house_rule_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    """`--house-rule` on selfplay, play and host: an unknown rule or value is refused, saying why.
    selfplay and host are run in this process (they check before they start anything); `play`
    as a command (it starts its private host first)."""
    from pigeon_tui.cli import main

    for argv in (
        ["selfplay", "--games", "1", "--house-rule", "infamous_empty=never"],
        ["host", "--port", "0", "--house-rule", "infamous_empty=never"],
    ):
        assert main(argv) == 2
        assert "infamous_empty must be one of resume, trophy" in capsys.readouterr().err, argv
    out = subprocess.run(
        [sys.executable, "-m", "pigeon_tui", "play", "--house-rule", "infamous_empty=never"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and "infamous_empty must be one of resume, trophy" in out.stderr, out.stderr
    assert main(["host", "--port", "0", "--house-rule", "dice"]) == 2
    assert "NAME=VALUE" in capsys.readouterr().err


def test_a_command_line_reads_the_same_with_only_its_command_built() -> None:
    """Issue 9 (start-up): the CLI builds the options of the command it runs alone (each
    command's options cost imports, and a game against bots starts its host once they are
    read); every command line means what the whole parser says it means."""
    import argparse

    from pigeon_tui.cli import COMMANDS, command_of, parser

    whole = parser()
    commands = next(a for a in whole._actions if isinstance(a, argparse._SubParsersAction))
    assert set(commands.choices) == set(COMMANDS)
    lines = [
        [],
        ["--edition", "3.0", "--ascii"],
        ["play", "--seed", "1", "--pace", "fast"],
        ["--edition", "3.0", "play", "--players", "3"],
        ["host", "--port", "0", "--seats", "3", "--bots", "2"],
        ["join", "127.0.0.1:7777", "--name", "Ada"],
        ["selfplay", "--games", "2"],
        ["serve-ssh", "--port", "0"],
        ["serve-web", "--open"],
        ["replay", "--list"],
        ["stats", "--json"],
    ]
    for words in lines:
        only = command_of(words)
        assert only == (words[0] if words and words[0] in COMMANDS else "play" if "play" in words else "")
        assert vars(parser(only).parse_args(words)) == vars(whole.parse_args(words)), words
    assert command_of(["play", "-h"]) is None and command_of(["nonsense"]) is None


def test_r9_custom_cards_and_house_settings_from_the_command_line(tmp_path: object) -> None:
    """§9, R4.6: `--custom-card` (twice) and a TOML file of house settings define the game's
    customizable cards and house rules on selfplay; the options win over the file."""
    import contextlib
    import io
    import json
    from pathlib import Path

    from pigeon_tui.cli import main

    path = Path(str(tmp_path)) / "house.toml"
    path.write_text(
        '[house]\ninfamous_empty = "trophy"\n\n[[custom]]\nname = "Racing Pigeon"\nplaces = ["road", "statue"]\n'
        'rule = "lady"\n\n[[custom]]\nname = "Big Bird"\nsize = 3\nplaces = "crowd"\n'
    )

    def run(*extra: str) -> dict[str, Any]:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["selfplay", "--games", "5", "--json", *extra]) == 0
        settings: dict[str, Any] = json.loads(out.getvalue())["settings"]
        return settings

    s = run("--house-settings", str(path))
    assert s["infamous_empty"] == "trophy"
    assert s["custom_1"] == "name=Racing Pigeon,size=1,places=road+statue,rule=lady"
    assert s["custom_2"] == "name=Big Bird,size=3,places=crowd,rule=none"
    s = run("--house-settings", str(path), "--house-rule", "infamous_empty=resume", "--custom-card", "name=Zip")
    assert s["infamous_empty"] == "resume" and s["custom_1"].startswith("name=Zip,") and s["custom_2"] == ""


def test_r9_a_bad_custom_card_or_settings_file_is_a_clear_error(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    """§9: a bad custom card or house settings file stops selfplay and host before they start,
    saying why (run in this process: `test_host_refuses_impossible_settings` runs the command)."""
    from pathlib import Path

    from pigeon_tui.cli import main

    bad = Path(str(tmp_path)) / "bad.toml"
    bad.write_text('[[custom]]\nname = "X"\ncolour = "red"\n')
    for extra, says in (
        (["--custom-card", "name=Q,places=cables"], "custom card 'name=Q,places=cables': custom card places must"),
        (["--custom-card", "name=A", "--custom-card", "name=B", "--custom-card", "name=C"], "two customizable cards"),
        (["--house-settings", str(bad)], f"{bad}: custom card 1: unknown field colour"),
        (["--house-settings", str(bad) + ".none"], "cannot read the house settings file"),
    ):
        for command in (["selfplay", "--games", "1"], ["host", "--port", "0"]):
            assert main([*command, *extra]) == 2, (command, extra)
            err = capsys.readouterr().err
            assert says in err, (command, extra, err)


def test_the_version_is_pyprojects_and_version_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    """The version is written twice (pyproject.toml for installers, net.version for the program,
    which must not look it up in the package metadata at start-up): they must agree."""
    import tomllib
    from pathlib import Path

    from net.store import engine_version
    from net.version import VERSION
    from pigeon_tui.cli import main

    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert VERSION == pyproject["project"]["version"]
    assert engine_version() == f"pigeon-tui {VERSION}"
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().err == f"pigeon-tui {VERSION}\n"  # as argparse.ArgumentParser.exit writes it
