"""The real path: a private host child process on 127.0.0.1, joined over TCP by the app."""

from __future__ import annotations

import asyncio

from textual.pilot import Pilot

from net.client import Status as ClientStatus
from pigeon_tui.app import PigeonApp
from pigeon_tui.remote import NetSession
from pigeon_tui.session import GameOptions
from pigeon_tui.widgets.prompt import Prompt
from pigeon_tui.widgets.scores import TableStatus
from tests.tui.conftest import screen_text, wait_for_prompt


async def _answer(pilot: Pilot[None], times: int) -> None:
    for _ in range(times):
        prompt = await wait_for_prompt(pilot, rounds=1000)
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
        assert isinstance(session, NetSession)
        assert session.host is not None
        process = session.host.process
        assert process.returncode is None
        assert "connected" in str(app.screen.query_one(TableStatus).render())
        assert "You" in screen_text(app)
        await app.action_quit()
        assert process.returncode is not None, "the private host ends with the app"


async def test_reconnects_with_its_seat_token_after_a_drop() -> None:
    app = PigeonApp(GameOptions(players=3, bots=("random",), seed=6), play_now=True, bot_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _answer(pilot, 2)
        session = app.session
        assert isinstance(session, NetSession)
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
        prompt = await wait_for_prompt(pilot, rounds=1000)
        assert prompt is None or isinstance(prompt, Prompt)
        await _answer(pilot, 2)
        await app.action_quit()
        await asyncio.sleep(0)
