"""The real path: a private host child process on 127.0.0.1, joined over TCP by the app; LAN
hosting and joining."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

from textual.pilot import Pilot

from net.client import Client
from net.client import Status as ClientStatus
from net.spawn import HostProcess
from pigeon_tui.app import PigeonApp
from pigeon_tui.screens.lobby import HostScreen, LobbyScreen
from pigeon_tui.screens.start import StartScreen
from pigeon_tui.screens.table import TableScreen
from pigeon_tui.session import GameOptions, LinkState, Session
from pigeon_tui.widgets.prompt import Prompt
from pigeon_tui.widgets.scores import TableStatus
from tests.tui.conftest import screen_text, wait_for_prompt


async def _answer(pilot: Pilot[None], times: int) -> None:
    for _ in range(times):
        prompt = await wait_for_prompt(pilot)
        if prompt is None:
            return
        key = next(e.key for e in prompt.entries if e.key not in ("esc", ""))
        await pilot.press(key)
        await pilot.pause(0.05)


async def test_game_against_bots_runs_on_a_private_host_over_tcp() -> None:
    app = PigeonApp(GameOptions(players=3, bots=("random",), seed=4), play_now=True, bot_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _answer(pilot, 3)
        session = app.session
        assert isinstance(session, Session)
        assert isinstance(session.host, HostProcess)
        process = session.host.process
        assert process.returncode is None
        assert session.client.status is ClientStatus.CONNECTED
        assert session.status.link is LinkState.LOCAL  # a private game: no link worth showing
        assert "connected" not in str(app.screen.query_one(TableStatus).render())
        assert "You" in screen_text(app)
        await app.action_quit()
        assert process.returncode is not None, "the private host ends with the app"


async def test_reconnects_with_its_seat_token_after_a_drop() -> None:
    app = PigeonApp(GameOptions(players=3, bots=("random",), seed=6), play_now=True, bot_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _answer(pilot, 2)
        session = app.session
        assert isinstance(session, Session)
        seat, token = session.client.seat, session.client.token
        conn = session.client._conn
        assert conn is not None
        conn.writer.transport.abort()  # the connection drops
        for _ in range(200):
            await pilot.pause(0.05)
            if session.client.status is ClientStatus.CONNECTED and session.client._conn is not conn:
                break
        assert session.client.status is ClientStatus.CONNECTED
        assert (session.client.seat, session.client.token) == (seat, token)
        prompt = await wait_for_prompt(pilot)
        assert prompt is None or isinstance(prompt, Prompt)
        await _answer(pilot, 2)
        await app.action_quit()
        await asyncio.sleep(0)


async def _until(pilot: Pilot[None], check: Callable[[], bool], rounds: int = 200) -> None:
    for _ in range(rounds):
        if check():
            return
        await pilot.pause(0.05)
    raise AssertionError("timed out")


async def test_host_a_lan_game_lobby_then_table_when_a_friend_joins() -> None:
    app = PigeonApp(GameOptions(), bot_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")  # Host a LAN game
        await _until(pilot, lambda: isinstance(app.screen, HostScreen))
        app.lan.host(seats=2, bots=0, levels=("random",), edition="3.5", port=0, name="Ada", password="pw")
        await _until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        session = app.session
        assert isinstance(session, Session) and session.host is not None
        await _until(pilot, lambda: "pigeon-tui join" in screen_text(app) and "Ada" in screen_text(app))
        friend = Client("127.0.0.1", session.host.port, "Bob", password="pw", table=1)
        await friend.connect()
        await _until(pilot, lambda: isinstance(app.screen, TableScreen))
        await _until(pilot, lambda: "Bob" in screen_text(app))
        await friend.close()
        assert isinstance(session.host, HostProcess)
        process = session.host.process
        await app.action_quit()
        assert process.returncode is not None


async def test_join_with_a_wrong_password_says_the_host_refused() -> None:
    app = PigeonApp(GameOptions(), bot_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.lan.host(seats=3, bots=1, levels=("random",), edition="3.5", port=0, name="Ada", password="secret")
        await _until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        session = app.session
        assert isinstance(session, Session) and session.host is not None
        port = session.host.port
        other = PigeonApp(GameOptions(), join=("127.0.0.1", port, "Eve", "wrong"))
        async with other.run_test(size=(80, 24)) as pilot2:
            await _until(pilot2, lambda: any("wrong password" in str(n.message) for n in other._notifications))
            assert isinstance(other.screen, StartScreen)
        await app.action_quit()


async def test_reaction_counts_down_the_hosts_limit_and_one_key_passes() -> None:
    """Issue 5: a reaction asked by a host started with --reaction-limit 8 shows the seconds
    left, and 0 passes it."""
    from core.decisions import REACTIONS
    from net.spawn import HostSpec, start_host
    from pigeon_tui.remote import connect

    host = await start_host(HostSpec(seats=3, bots=2, seed=3, reaction_limit=8, bot_delay=0))

    async def seat_at_the_host(options: GameOptions) -> Session:
        session = await connect("127.0.0.1", host.port, "You", table=1)
        await session.first_view()
        return session

    app = PigeonApp(GameOptions(players=3), play_now=True, session_factory=seat_at_the_host)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(200):
                prompt = await wait_for_prompt(pilot)
                assert prompt is not None and prompt.decision is not None, "no reaction before the end"
                if prompt.decision.kind in REACTIONS:
                    break
                await pilot.press(next(e.key for e in prompt.entries if e.key not in ("esc", "0", "")))
                await pilot.pause(0.05)
            reaction = prompt.decision
            assert prompt.deadline is not None
            await pilot.pause()
            text = screen_text(app)
            shown = re.search(r"(\d+) s left", text)
            assert shown is not None and "(0 to pass)" in text, text
            assert 1 <= int(shown.group(1)) <= 8
            await pilot.press("0")
            await pilot.pause(0.2)
            assert prompt.decision is None or prompt.decision.id != reaction.id
            session = app.session
            assert isinstance(session, Session)
            assert all(d.id != reaction.id for d in session.client.decisions), "the host took the pass"
            await app.action_quit()
    finally:
        await host.stop()


async def test_lobby_enter_sits_at_the_first_table_and_its_line_says_so() -> None:
    """Issue 5: in the lobby of `pigeon-tui join`, Enter sits at once (the first table is
    highlighted) and the table's line counts the seat taken."""
    from net.spawn import HostSpec, start_host

    host = await start_host(HostSpec(seats=2, bots=0))
    app = PigeonApp(GameOptions(), join=("127.0.0.1", host.port, "Eve", None))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: isinstance(app.screen, LobbyScreen) and "Table 1" in screen_text(app))
            await pilot.press("enter")
            await _until(pilot, lambda: "You sit at" in screen_text(app))
            await _until(pilot, lambda: "1/2 seats" in screen_text(app))
            assert "Eve" in screen_text(app)
            await app.action_quit()
    finally:
        await host.stop()
