"""Bots playing whole games of any game (core.games) with no network: the engines' workout and
the bots' tournament.

Pure: the caller passes a clock (`now`) so that timing stays out of core."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.cards import Edition
from core.decisions import IllegalChoice
from core.games import DEFAULT, PIGEONS, AnyGame, GameBot, SettingValue, direct
from core.games import game as find_game


@dataclass(slots=True)
class BotStats:
    spec: str
    seats: int = 0
    wins: float = 0.0
    """A win shared by k players counts 1/k (R7.2)."""
    score_sum: int = 0
    times: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        rate = self.wins / self.seats if self.seats else 0.0
        half = 1.96 * math.sqrt(rate * (1 - rate) / self.seats) if self.seats else 0.0
        times = sorted(self.times)
        return {
            "seats": self.seats,
            "wins": round(self.wins, 3),
            "win_rate": round(rate, 4),
            "win_rate_ci95": [round(max(0.0, rate - half), 4), round(min(1.0, rate + half), 4)],
            "mean_score": round(self.score_sum / self.seats, 3) if self.seats else 0.0,
            "decision_ms_mean": round(1000 * sum(times) / len(times), 4) if times else 0.0,
            "decision_ms_p95": round(1000 * times[int(0.95 * (len(times) - 1))], 4) if times else 0.0,
        }


@dataclass(slots=True)
class Summary:
    games: int = 0
    turns: int = 0
    turns_max: int = 0
    """The longest game's turns."""
    restarts: int = 0
    """Final phases called off (R6.2: the Infamous converted with the Flock deck empty, R4.6)."""
    restarts_max: int = 0
    """The most final phases called off in one game."""
    decisions: int = 0
    errors: int = 0
    stats: dict[str, BotStats] = field(default_factory=dict)


def play_game(
    state: Any,
    bots: list[GameBot[Any]],
    now: Callable[[], float] | None = None,
    game: AnyGame = PIGEONS,
    on_events: Callable[[Sequence[Any]], None] | None = None,
) -> tuple[int, list[list[float]]]:
    """Play `state` (of `game`) to the end with one bot per seat. Returns (decisions, think
    times per seat). `on_events` is given the events of every choice. A bot whose `reads_view`
    is False is handed None for its view."""
    times: list[list[float]] = [[] for _ in bots]
    count = 0
    view, apply = direct(game.glance or game.view), direct(game.apply)
    # Per seat, what makes its bot's view: none for a bot that says it reads none (the random bot)
    views = [None if getattr(bot, "reads_view", True) is False else view for bot in bots]
    if now is None and on_events is None:
        # nothing to time or pass on: the loop of the engines' speed benches (bench/engine.py,
        # bench/cubirds.py), where this loop's own work is a tenth of a random game's
        choose = [bot.choose for bot in bots]
        while not state.over:
            decision = state.open[0]
            seat = decision.player
            seen = views[seat]
            apply(state, seat, decision.id, choose[seat](seen and seen(state, seat), decision))
            count += 1
        return count, times
    while not state.over:
        decision = state.open[0]
        seat = decision.player
        t0 = now() if now else 0.0
        seen = views[seat]
        option = bots[seat].choose(seen and seen(state, seat), decision)
        if now:
            times[seat].append(now() - t0)
        events = apply(state, seat, decision.id, option)
        if on_events is not None:
            on_events(events)
        count += 1
    return count, times


def selfplay(
    games: int,
    players: int,
    specs: list[str],
    seed: int,
    edition: Edition | str = Edition.V35,
    now: Callable[[], float] | None = None,
    deadlines: bool = True,
    game: str = DEFAULT,
    settings: Mapping[str, SettingValue] | None = None,
) -> Summary:
    """Play `games` games. Bot specs fill the seats in order (the last repeats); seats rotate
    one place each game so that no bot profits from seat order.

    `now` is the caller's clock: it times every decision and, unless `deadlines` is False, also
    holds the search bots to their time limits (without it they run their iteration budgets,
    which makes a tournament reproducible bit for bit).

    `game` is a game id (core.games); `edition` is Pigeons & Guano's only; `settings` are more of
    the game's settings (house rules: `{"infamous_empty": "trophy"}`). Raises ValueError on an
    unknown game, bot level or setting."""
    played = find_game(game)
    chosen = {**({"edition": Edition(edition).value} if played is PIGEONS else {}), **(settings or {})}
    played.check_settings(chosen)
    deadline_clock = now if deadlines else None
    specs = (specs + [specs[-1]] * players)[:players]
    out = Summary(stats={s: BotStats(s) for s in specs})
    for g in range(games):
        shift = g % players
        seat_specs = specs[shift:] + specs[:shift]
        bots = [
            played.make_bot(spec, seed * 1_000_003 + g * 17 + i, deadline_clock) for i, spec in enumerate(seat_specs)
        ]
        state = played.new_game(players, seed * 1_000_003 + g, chosen)
        events: list[Any] = []
        try:
            count, times = play_game(state, bots, now, played, events.extend)
        except (IllegalChoice, ValueError, KeyError, AssertionError):
            out.errors += 1
            continue
        out.games += 1
        out.turns += state.turn
        out.turns_max = max(out.turns_max, state.turn)
        cancels = sum(1 for e in events if getattr(e, "kind", None) == "final_cancelled")
        out.restarts += cancels
        out.restarts_max = max(out.restarts_max, cancels)
        out.decisions += count
        won = played.winners(state)
        for seat, sc in enumerate(played.scores(state)):
            st = out.stats[seat_specs[seat]]
            st.seats += 1
            st.score_sum += sc.total
            st.times.extend(times[seat])
            if seat in won:
                st.wins += 1 / len(won)
    return out
