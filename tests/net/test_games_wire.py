"""Issue 15: the protocol carries any game of core.games by its id (table info, create, views,
events, records), and names none of their rules. Frames read with net.messages alone."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any, TypeVar

import msgpack
import pytest

from core.games import CUBIRDS, PIGEONS
from net.errors import NetError
from net.messages import Create, Over, Snapshot, TableInfo, Update, parse_client, parse_host, read_event

T = TypeVar("T")


def _host(frame: dict[str, Any], kind: type[T]) -> T:
    """`frame` read as the host frame it must be."""
    msg = parse_host(frame)
    assert isinstance(msg, kind)
    return msg


def _cubirds_update() -> tuple[dict[str, Any], Any]:
    state = CUBIRDS.new_game(3, 9, {})
    rng = random.Random(9)
    events: list[Any] = []
    for _ in range(12):
        d = CUBIRDS.pending(state)[0]
        events += CUBIRDS.apply(state, d.player, d.id, rng.choice(d.options).value)
    seat = CUBIRDS.pending(state)[0].player
    view = CUBIRDS.view(state, seat)
    frame = {
        "t": "update",
        "table": 1,
        "seq": 3,
        "events": [CUBIRDS.redact(e, seat).to_dict() for e in events],
        "view": view.to_dict(),
        "decisions": [d.to_dict() for d in view.decisions],
        "window": None,
        "limit": None,
    }
    # through msgpack, as the wire carries it (tuples become lists)
    return msgpack.unpackb(msgpack.packb(frame)), view


def test_a_cubirds_update_reads_back_as_its_view_and_event_maps() -> None:
    frame, view = _cubirds_update()
    msg = _host(frame, Update)
    assert msg.view == view  # the CuBirds view, rebuilt by its game
    events = [CUBIRDS.event_from_dict(e) for e in msg.events]
    assert [e.to_dict() for e in events] == frame["events"]


def test_a_pigeons_view_without_a_game_field_is_read_as_pigeons() -> None:
    state = PIGEONS.new_game(2, 3, {})
    view = PIGEONS.view(state, 0)
    assert "game" not in view.to_dict()
    frame = {"t": "snapshot", "table": 1, "seat": 0, "seq": 0, "events": [], "view": view.to_dict()}
    frame |= {"decisions": [d.to_dict() for d in view.decisions], "window": None, "limit": None, "complete": True}
    msg = _host(msgpack.unpackb(msgpack.packb(frame)), Snapshot)
    assert msg.view == view


@pytest.mark.parametrize(
    "bad",
    [
        {},
        {"player": 1},
        {"kind": 3},
        {"kind": "laid", "cards": ["x" * 17]},
        {"kind": "laid", "cards": ["OW01"] * 129},
        {"kind": "laid", "nested": {"a": 1}},
        {f"k{i}": 1 for i in range(17)} | {"kind": "x"},
        ["kind", "laid"],
    ],
)
def test_an_event_map_out_of_bounds_is_refused(bad: Any) -> None:
    with pytest.raises(ValueError):
        read_event(bad)


def test_table_info_names_its_game_pigeons_by_default() -> None:
    base = {"t": "table", "id": 1, "name": "t", "phase": "waiting", "game": 0, "edition": "3.5"}
    base |= {"seats": [None, None], "watchers": 0}
    assert _host(base, TableInfo).game_id == "pigeons"
    assert _host(base | {"game_id": "cubirds"}, TableInfo).game_id == "cubirds"
    with pytest.raises(NetError, match="game_id"):
        parse_host(base | {"game_id": "chess"})


def test_create_takes_a_game_id() -> None:
    for frame, game_id in (({"t": "create", "game_id": "cubirds"}, "cubirds"), ({"t": "create"}, None)):
        create = parse_client(frame)
        assert isinstance(create, Create) and create.game_id == game_id
    with pytest.raises(NetError, match="game_id"):
        parse_client({"t": "create", "game_id": "chess"})


def test_over_carries_any_games_record_and_old_pigeons_records() -> None:
    rec = CUBIRDS.new_record(2, 4, {}).to_dict()
    over = {"t": "over", "table": 1, "game": 1, "winners": [0], "scores": [], "names": ["a", "b"], "record": rec}
    assert _host(over, Over).record["game"] == "cubirds"
    old = PIGEONS.new_record(2, 4, {}).to_dict()
    old.pop("game", None)  # a record made before games had ids
    assert _host(over | {"record": old}, Over).record == old


def test_no_module_of_net_names_a_games_rules() -> None:
    """Issue 15 Bar: net runs every game through core.games; importing all of net loads no
    game's rules module by name (only core.games does, and the shared decision vocabulary, and
    core.structs, which owns no game: the cheap NamedTuple the frame types are)."""
    code = (
        "import ast, pathlib\n"
        "bad = []\n"
        "for p in sorted(pathlib.Path('net').rglob('*.py')):\n"
        "    for node in ast.walk(ast.parse(p.read_text())):\n"
        "        names = []\n"
        "        if isinstance(node, ast.ImportFrom) and node.module: names = [node.module]\n"
        "        elif isinstance(node, ast.Import): names = [a.name for a in node.names]\n"
        "        for n in names:\n"
        "            if n.startswith('core') and n not in ('core.games', 'core.decisions', 'core.structs'):\n"
        "                bad.append(f'{p}: {n}')\n"
        "print('\\n'.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", out.stdout
