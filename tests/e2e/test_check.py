"""Issue 9: the harness's own parts. The check reads a true board as true and catches a stale
one planted on purpose; the screen reader finds every field; the terminal cuts frames where
the program ends them."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tests.e2e.check import Judge, judge_frames
from tests.e2e.screen import Table, option_keys, parse_table, reading
from tests.e2e.terminal import Frame, Terminal
from tests.e2e.truth import replay

DATA = Path(__file__).parent / "data" / "planted.json"


def _fixture() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text())
    return data


def _frame(d: dict[str, Any]) -> Frame:
    return Frame(0.0, tuple(d["lines"]), tuple(d["backgrounds"]))


def _table(frame: Frame) -> Table:
    table = parse_table(frame)
    assert table is not None, frame.text
    return table


def plant(board: Frame, log: Frame) -> Frame:
    """A screen that shows `board`'s Zones, Balconies, hand and decks with `log`'s prompt
    and log (the left column under the Balconies)."""
    later = _table(log)
    lines = list(board.lines)
    backgrounds = list(board.backgrounds)
    left = later.hand.left
    top = min(later.log_top, _table(board).log_top)
    for r in range(top, len(lines) - 1):
        lines[r] = log.lines[r][:left] + lines[r][left:]
        backgrounds[r] = log.backgrounds[r]
    return Frame(log.at, tuple(lines), tuple(backgrounds))


def test_the_check_finds_true_boards_true() -> None:
    d = _fixture()
    story = replay(d["record"], d["me"], d["names"])
    judge = Judge(story, d["names"], d["me"])
    for key in ("earlier", "later"):
        verdict = judge.judge(0, _table(_frame(d[key])))
        assert verdict.kind == "ok", verdict.diffs


def test_the_check_catches_a_stale_board_planted_on_purpose() -> None:
    """Issue 9: the board from before the events the prompt is about ("You react with
    Birdseed" while the hand still holds it) is caught, and called stale."""
    d = _fixture()
    story = replay(d["record"], d["me"], d["names"])
    planted = plant(_frame(d["earlier"]), _frame(d["later"]))
    verdict = Judge(story, d["names"], d["me"]).judge(0, _table(planted))
    assert verdict.kind == "stale"
    assert verdict.lag < 0
    assert verdict.diffs["hand.cards"] == ("Zot!|Wroom!|Birdseed", "Zot!|Wroom!")
    assert "statue.cards" in verdict.diffs
    report = judge_frames([_frame(d["earlier"]), planted], story, d["names"], d["me"])
    assert report.frames == 2 and report.bad == 1 and len(report.episodes) == 1


def test_the_check_catches_a_board_ahead_of_its_log() -> None:
    """The later board under the earlier log: the board tells what the log has not yet."""
    d = _fixture()
    story = replay(d["record"], d["me"], d["names"])
    planted = plant(_frame(d["later"]), _frame(d["earlier"]))
    verdict = Judge(story, d["names"], d["me"]).judge(0, _table(planted))
    assert verdict.kind == "ahead" and verdict.lag > 0


def test_the_screen_reader_reads_every_field() -> None:
    table = _table(_frame(_fixture()["later"]))
    shown = reading(table)
    assert shown["turn"] == "10" and shown["whose"] == "Your turn" and shown["phase"] == "Invasion: reveal 2 of 3"
    assert shown["road.used"] == "9" and shown["road.cards"] == "FFFISIgg"
    assert shown["statue.cards"] == "FatLame" and shown["statue.used"] == "3"
    assert [shown[f"b{s}.name"] for s in range(4)] == ["You", "Rocky", "Dove", "Percy"]
    assert [shown[f"b{s}.score"] for s in range(4)] == ["4", "1", "-2", "4"]
    assert [shown[f"b{s}.hand"] for s in range(4)] == ["2", "5", "4", "1"]
    assert shown["b2.cards"] == "FII" and shown["b0.cards"] == "-"
    assert shown["hand.count"] == "2" and shown["hand.cards"] == "Zot!|Wroom!"
    assert (shown["flock"], shown["deck"], shown["discard"]) == ("3", "24", "9")
    assert shown["played"] == "Wroom!, Birdseed, Birdseed"
    assert shown["invasion"] == "reveal 2 of 3" and shown["air"] == "Infamous Pigeon"
    assert option_keys(table) == list("1234567")
    assert table.log[-1] == "You react with Birdseed."
    assert table.prompt[0] == "Birdseed: send the pigeons to which Zone?"


def test_a_screen_that_is_not_a_dealt_table_is_not_read() -> None:
    blank = Frame(0.0, tuple(" " * 80 for _ in range(24)), tuple("default" for _ in range(24)))
    assert parse_table(blank) is None


_DRAWS = r"""
import os, sys, termios, tty
tty.setraw(0)
os.write(1, b"\x1b[?2026$p")
reply = b""
while not reply.endswith(b"$y"):
    reply += os.read(0, 1)
os.write(1, b"\x1b[?2026h\x1b[H" + reply[1:] + b"\x1b[?2026l")
os.write(1, b"\x1b[?2026h\x1b[2;1Hhalf")
os.write(1, b" and whole\x1b[?2026l")
os.read(0, 1)
"""


async def test_the_terminal_cuts_frames_where_the_program_ends_them() -> None:
    """The terminal answers the synchronized-output query as a modern terminal does, and a
    frame is read only once the program says it is complete (never half drawn)."""
    term = Terminal([sys.executable, "-c", _DRAWS], name="draws")
    try:
        await term.shows("whole", 10.0)
        assert term.synchronized
        texts = [f.lines[:2] for f in term.frames if f.lines[0].strip()]
        assert texts[-1][0].startswith("[?2026;2$y") and texts[-1][1].startswith("half and whole")
        assert not any(t[1].strip() == "half" for t in texts)
    finally:
        term.press("x")
        assert await term.close() == 0


_SPAWNS = r"""
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
print("grandchild", child.pid, "started", flush=True)
time.sleep(60)
"""


def _gone(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat[stat.rindex(")") + 2] == "Z"


async def test_the_terminal_leaves_no_process_behind() -> None:
    """A program that ignores ctrl+q and has a child of its own: closing kills both."""
    term = Terminal([sys.executable, "-c", _SPAWNS], name="spawns")
    try:
        lines = await term.shows("started", 10.0)
    finally:
        await term.close(grace=0.2)
    grandchild = int(next(x for x in lines if x.startswith("grandchild")).split()[1])
    assert _gone(term.process.pid) and _gone(grandchild)


def test_the_status_line_is_read_with_the_last_round_and_the_connection() -> None:
    """The connection sits one space from "LAST ROUND: n turns left" when the line is full."""
    frame = _frame(_fixture()["later"])
    status = " Turn 24 · Your turn, action 2 of 2 · LAST ROUND: 4 turns left connected 316 ms "
    shown = reading(_table(Frame(0.0, (status, *frame.lines[1:]), frame.backgrounds)))
    assert (shown["turn"], shown["whose"], shown["phase"], shown["final"]) == ("24", "Your turn", "action 2 of 2", "4")


def test_log_rows_that_repeat_one_sentence_are_read_as_any_of_its_tellings() -> None:
    """Five Infamous Pigeons fly to the Crowd one after the other (two from Dove's Balcony) and
    the prompt leaves room for one sentence: "...flies from Dove's Balcony to the Crowd." reads
    the same after the 1st and the 5th landing, so the board (five of them in the Crowd) is
    true for one of those readings. The board from before the landings under the same rows is
    still caught."""
    d = json.loads((DATA.parent / "repeated.json").read_text())
    story = replay(d["record"], d["me"], d["names"])
    frames = [_frame(d[key]) for key in ("before", "during", "after")]
    report = judge_frames(frames, story, d["names"], d["me"])
    assert report.frames == 3 and report.bad == 0, [v.diffs for v in report.verdicts]
    judge = Judge(story, d["names"], d["me"])
    judge.judge(0, _table(frames[0]))
    verdict = judge.judge(1, _table(plant(frames[0], frames[1])))
    assert verdict.kind == "stale" and verdict.lag < 0
