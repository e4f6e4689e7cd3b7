"""R8 over the wire: over whole games, no client receives a card id it may not see (other
hands, the decks, cards removed unseen, trophies taken face down)."""

from __future__ import annotations

import asyncio
import random

import pytest

from core.events import Event
from core.state import GameState
from net.client import Client, GameChanged, GameOver
from net.table import Frame, Outbox, Recipient, Table

from .boards import Truth, public_board
from .fake import Inbox, Player, clock_of, fake_table, play
from .helpers import Raw, card_ids, play_raw, running_host, table_config


def secrets_for(state: GameState, seat: int | None) -> set[str]:
    hidden = set(state.deck) | set(state.flock) | set(state.removed)
    for s, hand in enumerate(state.hands):
        if s != seat:
            hidden |= set(hand)
    for trophies in state.trophies:
        for t in trophies:
            if t.hidden:
                hidden |= set(t.cards)
    return hidden


class Spy(Outbox):
    """Notes, for every update and snapshot its table sends, what the recipient may not see in
    the game as it stands then (the decisions it is sent are checked against that)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.hidden: dict[tuple[int | None, str, int], set[str]] = {}
        """(seat, or None for a spectator; frame type; seq) -> card ids hidden from it then."""
        table.outbox = self

    def send(self, to: Recipient, frame: Frame) -> None:
        if frame["t"] in ("update", "snapshot"):
            assert self.table.state is not None
            seat = next((m.seat for m in self.table.humans if m.conn is to), None)
            self.hidden[(seat, frame["t"], frame["seq"])] = secrets_for(self.table.state, seat)
        super().send(to, frame)


def check(raw: Raw, seat: int | None, truth: Truth, spy: Spy) -> int:
    """Every card id in every game frame `raw` got was visible to it when the frame was made.

    A view is checked against the board it shows (the state at a window's event, or after the
    last event sent: `Truth`), its decisions against the state when it was sent. A snapshot
    repeats the last update's view and its decisions still open. Events tell what happened
    earlier (a pigeon shown, then shuffled back into the Flock deck), so they are checked for
    what they may show: a secret event's cards only to its player (also in the game's log a
    snapshot carries)."""
    checked = shown = 0
    for frame in raw.frames:
        if frame["t"] in ("update", "snapshot"):
            if frame["t"] == "snapshot":
                assert frame["complete"], "the game's whole log: the board it shows is known"
                shown = len(frame["events"])
            else:
                shown += len(frame["events"])
            board = truth.at_window[shown] if frame["window"] is not None else truth.after[shown]
            leaked = card_ids(frame["view"]) & secrets_for(board, seat)
            leaked |= card_ids(frame["decisions"]) & spy.hidden[(seat, frame["t"], frame["seq"])]
            assert not leaked, f"{frame['t']} {frame['seq']} shows {sorted(leaked)}"
            for e in frame["events"]:
                if e["secret"] and e["player"] != seat:
                    assert not e["cards"], f"{frame['t']} {frame['seq']}: {e}"
            checked += 1
        elif frame["t"] != "over":  # the record of a finished game may show everything
            assert not card_ids(frame), frame
    return checked


@pytest.mark.parametrize(
    ("humans", "bots", "window", "seed", "sockets"),
    [(3, 1, 0.002, 11, True), (1, 3, 0.0, 12, False), (2, 0, 0.002, 13, False)],
    ids=["3-1-0.002-11", "1-3-0.0-12", "2-0-0.002-13"],
)
async def test_no_frame_shows_a_card_its_recipient_may_not_see(
    humans: int, bots: int, window: float, seed: int, sockets: bool
) -> None:
    """What each frame shows is the host's doing: the first game is played over sockets, the
    others through memory (`Raw.pipe`, served as accepted sockets), which costs less."""
    cfg = table_config(seats=humans + bots, bots=bots, reaction_window=window, seed=seed)
    async with running_host(cfg) as host:

        async def connect() -> Raw:
            return await Raw.open(host.port) if sockets else Raw.pipe(host)

        table = host.tables[1]
        spy = Spy(table)
        watcher = await connect()
        await watcher.hello("Eve", table=1, watch=True)
        players = [await connect() for _ in range(humans)]
        seats: list[int | None] = []
        for i, raw in enumerate(players):
            await raw.hello(f"P{i}", table=1)
            seats.append((await raw.recv("seated"))["seat"])
        # a player asks for a snapshot mid-game, and a latecomer starts watching
        late = await connect()
        tasks = [asyncio.create_task(play_raw(p, random.Random(seed + i))) for i, p in enumerate(players)]
        tasks.append(asyncio.create_task(watcher.recv("over", timeout=60.0)))  # reading, it answers pings
        await players[0].recv("update")
        players[0].send({"t": "sync", "seq": 0})
        await late.hello("Late", table=1, watch=True)
        tasks.append(asyncio.create_task(late.recv("over", timeout=60.0)))
        await asyncio.gather(*tasks)
        assert table.record is not None
        raws = [*players, watcher, late]
        seen = [*seats, None, None]
        total = 0
        for raw, seat, truth in zip(raws, seen, Truth.each(table.record, seen), strict=True):
            total += check(raw, seat, truth, spy)
        assert total > 50
        assert any(card_ids(f["view"]) for f in players[0].frames if f["t"] == "update" and f["view"]), "real cards"
        drew = [e for f in players[0].frames if f["t"] == "update" for e in f["events"] if e["kind"] == "drew"]
        assert any(e["cards"] for e in drew) and any(not e["cards"] for e in drew), "own draws shown, others' not"
        for r in raws:
            await r.close()


async def test_a_spectator_watches_a_whole_game_and_never_sees_a_hidden_card() -> None:
    """R8, issue 9: spectators through `net.client`, one from before the deal and one who
    comes in mid-game (and gets the game's log), see every board as of its last event, and
    never a card in a hand, a deck, removed unseen or in a trophy taken face down."""
    cfg = table_config(seats=4, bots=2, reaction_window=0.003, seed=17)
    async with running_host(cfg) as host:
        eve = Client("127.0.0.1", host.port, "Eve", table=1, watch=True)
        await eve.connect()
        seen: list[GameChanged] = []

        async def watch(client: Client, out: list[GameChanged]) -> None:
            async for u in client.updates():
                if isinstance(u, GameChanged):
                    out.append(u)
                if isinstance(u, GameOver):
                    return

        watching = asyncio.create_task(watch(eve, seen))
        players = [await Raw.open(host.port) for _ in range(2)]
        for i, raw in enumerate(players):
            await raw.hello(f"P{i}", table=1)
        playing = [asyncio.create_task(play_raw(p, random.Random(i))) for i, p in enumerate(players)]
        while len(seen) < 20:
            await asyncio.sleep(0.01)
        late = Client("127.0.0.1", host.port, "Late", table=1, watch=True)
        await late.connect()
        late_seen: list[GameChanged] = []
        await asyncio.gather(*playing, watching, watch(late, late_seen))
        record = host.tables[1].record
        assert record is not None
        truth = Truth.of(record, None)
        shown = 0
        for u in seen:
            assert not u.snapshot and u.view is not None and u.view.hand == () and u.decisions == ()
            shown += len(u.events)
            assert [e.to_dict() for e in u.events] == truth.events[shown - len(u.events) : shown]
            assert public_board(u.view.to_dict()) == truth.board(shown, u.window is not None)
            board = truth.at_window[shown] if u.window is not None else truth.after[shown]
            assert not card_ids(u.view.to_dict()) & secrets_for(board, None)
            assert all(not e.cards for e in u.events if e.secret)
        assert shown == len(truth.events)
        first = late_seen[0]
        assert first.snapshot and [e.to_dict() for e in first.events] == truth.events[: len(first.events)]
        assert list(late.log) == [Event.from_dict(e) for e in truth.events][-len(late.log) :]
        assert all(not e.cards for e in late.log if e.secret)
        for c in (eve, late):
            await c.close()
        for r in players:
            await r.close()


def test_no_frame_shows_a_hidden_card_on_a_fake_clock() -> None:
    """The check above without sockets: three people, a bot and a spectator at a paced table on
    a fake clock (1.5 s windows, a whole game in milliseconds); one person drops mid-game and
    comes back with a snapshot of the game's log; a latecomer starts watching."""
    seed = 22
    table = fake_table(table_config(seats=4, bots=1, reaction_window=1.5, seed=seed))
    spy = Spy(table)
    clock = clock_of(table)
    eve = Inbox("Eve", clock)
    table.watch(eve)
    players = [Player(table, f"P{i}", seed + i) for i in range(3)]
    for _ in range(40):
        clock.advance(0)
        if not any(p.act() for p in players):
            clock.advance((clock.next_due() or clock.now()) - clock.now())
    dropped = players[0]
    table.disconnected(dropped.member)
    back = Inbox("P0 again", clock)
    table.resume(dropped.member, back, None)
    dropped.inbox = back
    late = Inbox("Late", clock)
    table.watch(late)
    play(table, players)
    assert table.record is not None
    total = 0
    inboxes = [(p.inbox, p.member.seat) for p in players] + [(eve, None), (late, None)]
    truths = Truth.each(table.record, [seat for _, seat in inboxes])
    for (inbox, seat), truth in zip(inboxes, truths, strict=True):
        total += check(inbox, seat, truth, spy)  # type: ignore[arg-type]
    assert total > 50
