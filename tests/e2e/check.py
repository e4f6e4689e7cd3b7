"""The check: does a drawn board equal the public state as of the last event its log shows?

Each frame's log is aligned with the replayed story (the newest sentence on screen says which
point of the game the frame is at), then every field the board shows (Zones, Balconies, scores,
hand sizes, trophies, the hand, the decks, the played pile, the Invasion, the turn line) is
compared with the engine's view at that point. A board that equals an earlier point instead is
stale; a later one, ahead.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from core.cards import ACTIONS
from core.views import PlayerView
from pigeon_tui.themes import GUANO_LETTER, PIGEON_LETTER
from pigeon_tui.widgets.zone import grouped, pigeon_word
from tests.e2e.screen import HAND_TITLE, Table, covered, option_keys, parse_table, reading, squash
from tests.e2e.terminal import Frame
from tests.e2e.truth import Story

ELLIPSIS: Final = "…"
STATUS_WIDTH: Final = 80
"""Cells of the status line at 80 columns."""
SEARCH: Final = 400
"""Points either side of the expected ones searched to tell a stale board from a wrong one."""
ALSO_AHEAD: Final = 12
"""How far after the log's first match the same rows may stand for a later telling (one
Invasion or scare batch tells a handful of landings)."""


def truth_fields(v: PlayerView, names: Sequence[str], me: int | None) -> dict[str, tuple[str, ...]]:
    """Each field of the board as the engine's view `v` has it, in the canonical form of
    `tests.e2e.screen.reading` (a tuple: the renderings the client may choose between)."""
    out: dict[str, tuple[str, ...]] = {}
    out["turn"] = (str(v.turn),)
    if v.over:
        whose = "Game over"
    elif v.active == me:
        whose = "Your turn"
    else:
        whose = f"{names[v.active]} to play"
    out["whose"] = (whose,)
    progress = v.invasion()
    invading = f"Invasion: reveal {max(1, progress[0])} of {progress[1]}" if progress else "Invasion"
    out["phase"] = ("" if v.over else f"action {3 - v.actions_left} of 2" if v.actions_left > 0 else invading,)
    final = str(v.final_left) if v.final_left is not None and not v.over else ""
    out["final"] = (final,)
    if final:  # the status line leaves "LAST ROUND: n turns left" out when it does not fit
        left = f" Turn {v.turn} · {whose}" + (f", {out['phase'][0]}" if out["phase"][0] else "")
        if len(left) + len(f"LAST ROUND: {final} turns left") + 3 > STATUS_WIDTH:
            out["final"] = (final, "")
    book = v.book
    scores = v.scores()
    for z in v.zones:
        guano = "".join(GUANO_LETTER[ACTIONS[c].kind] for c in z.guano if c in ACTIONS)
        cards: tuple[str, ...]
        if z.pigeons:
            rows = [book[p] for p in z.pigeons]
            letters = [PIGEON_LETTER[r.kind] for r in rows]
            cards = (
                squash(" ".join(pigeon_word(r) for r in rows)) + guano,
                "".join(letters) + guano,
                squash(grouped(letters, "×")) + guano,
            )
        else:
            cards = ("-" + guano,)
        out[f"{z.id}.cards"] = cards
        if z.id.startswith("b"):
            seat = int(z.id[1:])
            name = names[seat]
            out[f"{z.id}.name"] = (f"{name} (you)", name) if seat == me and name != "You" else (name,)
            out[f"{z.id}.score"] = (str(scores[seat].total),)
            out[f"{z.id}.trophies"] = (str(len(v.trophies[seat])),)
            out[f"{z.id}.hand"] = (str(v.hand_sizes[seat]),)
        else:
            out[f"{z.id}.used"] = (str(sum(book[p].size for p in z.pigeons)),)
    out["hand.count"] = (str(len(v.hand)),)
    out["hand.cards"] = ("|".join(ACTIONS[c].name for c in v.hand),)
    out["flock"] = (str(v.flock_count),)
    out["deck"] = (str(v.deck_count),)
    out["discard"] = (str(len(v.discard)),)
    out["played"] = (", ".join(ACTIONS[c].name for c in v.played) or "nothing yet",)
    n = v.invasion_size()
    coming = f"{n} pigeon{'' if n == 1 else 's'}"
    out["invasion"] = ("" if v.over else f"reveal {max(1, progress[0])} of {progress[1]}" if progress else coming,)
    air = [book[c].name if c in book else ACTIONS[c].name for c in v.air]
    out["air"] = (", ".join(air),)
    return out


def _same(shown: str, truth: str) -> bool:
    """Equal, or equal up to where the screen cut the text with an ellipsis."""
    if shown == truth or squash(shown) == squash(truth):
        return True
    if ELLIPSIS in shown:
        parts = shown.split("|")
        wanted = truth.split("|")
        if len(parts) != len(wanted):
            return False
        return all(
            p == w or (p.endswith(ELLIPSIS) and squash(w).startswith(squash(p[:-1])))
            for p, w in zip(parts, wanted, strict=True)
        )
    return False


def differences(shown: Mapping[str, str], truth: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, str]]:
    """Fields where the screen says something the truth does not: field -> (shown, truth)."""
    out: dict[str, tuple[str, str]] = {}
    for key, options in truth.items():
        got = shown.get(key)
        if got is None:
            out[key] = ("(not shown)", options[0])
        elif not any(_same(got, t) for t in options):
            out[key] = (got, " or ".join(options))
    for key, got in shown.items():
        if key not in truth:
            out[key] = (got, "(no such field)")
    return out


@dataclass(slots=True)
class Verdict:
    """What one frame showed, judged."""

    frame: int
    kind: str
    """ok, stale (an earlier point), ahead (a later point), wrong (no point), unaligned (the log
    matches nothing in the story), or log cut (the log's newest line is hidden: not judged)."""
    sentence: int | None = None
    """Index of the newest log sentence on screen."""
    lag: int = 0
    """For stale and ahead: sentences between the log and the point the board matches."""
    diffs: dict[str, tuple[str, str]] = field(default_factory=dict)
    """The board against the truth at the log's point."""
    lasted: float = 0.0
    """Seconds until the next frame replaced it (how long a person could see it)."""

    def line(self, frames: Sequence[Frame], story: Story) -> str:
        said = story.sentences[self.sentence] if self.sentence is not None else "?"
        diffs = "; ".join(f"{k}: shows {a!r}, truth {b!r}" for k, a, b in ((k, *v) for k, v in self.diffs.items()))
        return f"frame {self.frame} ({self.kind}, {self.lag:+d} sentences, {self.lasted:.2f} s) after {said!r}: {diffs}"


class Judge:
    """Judges the frames of one seat's screen against its story, in order."""

    def __init__(self, story: Story, names: Sequence[str], me: int | None) -> None:
        self.story = story
        self.names = tuple(names)
        self.me = me
        self.words: list[str] = []
        self.ends: list[int] = []
        """Words told through each sentence."""
        for s in story.sentences:
            self.words.extend(s.split())
            self.ends.append(len(self.words))
        self.by_logged: dict[int, list[int]] = defaultdict(list)
        for i, p in enumerate(story.points):
            self.by_logged[p.logged].append(i)
        self._truth: dict[int, dict[str, tuple[str, ...]]] = {}
        self.last = 0
        """The newest sentence seen so far (the log never goes back)."""

    def truth(self, point: int) -> dict[str, tuple[str, ...]]:
        if point not in self._truth:
            self._truth[point] = truth_fields(self.story.points[point].view, self.names, self.me)
        return self._truth[point]

    def align(self, log: Sequence[str]) -> int | None:
        """The index of the newest sentence the log rows show, or None if they match nothing."""
        shown = " ".join(log).split()
        if not shown:
            return None
        n = len(shown)
        onwards = range(self.last, len(self.ends))
        back = range(self.last - 1, -1, -1)  # the nearest first
        for k in itertools.chain(onwards, back):
            end = self.ends[k]
            if end >= n and self.words[end - n : end] == shown:
                return k
        return None

    def also_shown(self, log: Sequence[str], k: int) -> list[int]:
        """`k` and the sentences soon after it that the same log rows could end with: a run of
        one sentence told again and again ("The Infamous Pigeon lands on the Crowd." five times)
        shows the same rows after its 3rd, 4th and 5th telling when only three rows fit, and a
        log with room for one sentence shows "The Infamous Pigeon flies from Dove's Balcony to
        the Crowd." alike after the first and the fifth of five landings."""
        shown = " ".join(log).split()
        n = len(shown)
        ahead = range(k + 1, min(len(self.ends), k + 1 + ALSO_AHEAD))
        return [k] + [j for j in ahead if self.words[self.ends[j] - n : self.ends[j]] == shown]

    def judge(self, index: int, table: Table) -> Verdict:
        if table.log_cut:
            return Verdict(
                index, "log cut", diffs={"log": (" / ".join(table.log), "its newest line, under the footer")}
            )
        k = self.align(table.log)
        if k is None:
            return Verdict(index, "unaligned", diffs={"log": (" / ".join(table.log), "a run of the story's sentences")})
        shown = reading(table)
        for c in self.also_shown(table.log, k):
            if any(not differences(shown, self.truth(p)) for p in self.by_logged.get(c + 1, [])):
                self.last = max(self.last, c)
                return Verdict(index, "ok", c)
        self.last = max(self.last, k)
        here = self.by_logged.get(k + 1, [])
        best: dict[str, tuple[str, str]] | None = None
        for p in here:
            d = differences(shown, self.truth(p))
            if best is None or len(d) < len(best):
                best = d
        if best is None:  # no point has exactly this many sentences: compare with the one before
            p = self._point_before(k + 1)
            best = differences(shown, self.truth(p))
        match = self._matching_point(shown, k + 1)
        if match is None:
            return Verdict(index, "wrong", k, 0, best)
        lag = self.story.points[match].logged - (k + 1)
        return Verdict(index, "stale" if lag < 0 else "ahead", k, lag, best)

    def _point_before(self, logged: int) -> int:
        before = [i for n, ids in self.by_logged.items() if n <= logged for i in ids]
        return max(before) if before else 0

    def _matching_point(self, shown: Mapping[str, str], logged: int) -> int | None:
        """The point nearest the log's whose truth the board equals, if any."""
        points = self.story.points
        centre = self._point_before(logged)
        for dist in range(1, SEARCH):
            for p in (centre - dist, centre + dist):
                if 0 <= p < len(points) and points[p].logged != logged and not differences(shown, self.truth(p)):
                    return p
        return None


@dataclass(slots=True)
class Episode:
    """Consecutive wrong frames: one wrong board as a person saw it."""

    verdicts: list[Verdict]
    prompt: bool
    """The player was asked something while it showed (the prompt offered options)."""
    answered: bool
    """The player pressed a key while it showed."""

    @property
    def seconds(self) -> float:
        return sum(v.lasted for v in self.verdicts)


@dataclass(slots=True)
class Report:
    """The verdicts on every table frame of one seat's screen."""

    frames: int = 0
    """Table frames judged."""
    covered: int = 0
    """Table frames not judged: a notification covered part of them."""
    log_cut: int = 0
    """Table frames not judged: the footer covered the log's newest line."""
    verdicts: list[Verdict] = field(default_factory=list)
    """Every frame that was not ok."""
    episodes: list[Episode] = field(default_factory=list)

    def count(self, kind: str) -> int:
        return sum(1 for v in self.verdicts if v.kind == kind)

    @property
    def bad(self) -> int:
        return len(self.verdicts)


def judge_frames(
    frames: Sequence[Frame], story: Story, names: Sequence[str], me: int | None, keys: Sequence[float] = ()
) -> Report:
    """Judge every dealt table frame of a screen, in order, and group the wrong ones into
    episodes (`keys`: when the player pressed keys)."""
    judge = Judge(story, names, me)
    report = Report()
    run: list[Verdict] = []
    asked = False
    for i, frame in enumerate(frames):
        table = parse_table(frame)
        if table is None:
            if covered(frame.lines) and HAND_TITLE in frame.text:
                report.covered += 1
            continue
        verdict = judge.judge(i, table)
        if verdict.kind == "log cut":
            report.log_cut += 1
            continue
        report.frames += 1
        if verdict.kind == "ok":
            if run:
                report.episodes.append(_episode(run, asked, frames, keys))
                run, asked = [], False
            continue
        verdict.lasted = frames[i + 1].at - frame.at if i + 1 < len(frames) else 0.0
        report.verdicts.append(verdict)
        run.append(verdict)
        asked = asked or bool(option_keys(table))
    if run:
        report.episodes.append(_episode(run, asked, frames, keys))
    return report


def _episode(run: list[Verdict], asked: bool, frames: Sequence[Frame], keys: Sequence[float]) -> Episode:
    start = frames[run[0].frame].at
    end = frames[run[-1].frame].at + run[-1].lasted
    return Episode(run, asked, any(start <= t <= end for t in keys))
