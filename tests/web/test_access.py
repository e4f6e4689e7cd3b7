"""Who may open a tab (pigeon_tui/web/access.py), sans I/O: the password, the rate limit, logins."""

from __future__ import annotations

import os

from net.places import SHARED_ACCOUNT_ENV
from net.ssh.child import TermSize
from pigeon_tui.joining import NO_STORE_ENV
from pigeon_tui.web.access import Logins, Password, RateLimit
from pigeon_tui.web.child import PARENT_ENV, tab_env


def test_the_password_matches_only_itself() -> None:
    password = Password("pigeons at dawn")
    assert password.matches("pigeons at dawn")
    for wrong in ("", "pigeons at dusk", "pigeons at dawn ", "PIGEONS AT DAWN", "pigeons at dawn" * 100):
        assert not password.matches(wrong)


def test_wrong_passwords_wait_once_there_are_too_many_in_the_window() -> None:
    limit = RateLimit(failures=3, window=60.0)
    for t in (0.0, 10.0, 20.0):
        assert limit.wait("10.0.0.5", t) == 0.0
        limit.failed("10.0.0.5", t)
    assert limit.wait("10.0.0.5", 30.0) == 30.0  # until the first of the three is 60 s old
    assert limit.wait("10.0.0.6", 30.0) == 0.0  # per address
    assert limit.wait("10.0.0.5", 60.0) == 0.0  # the first one left the window
    limit.failed("10.0.0.5", 61.0)
    assert limit.wait("10.0.0.5", 62.0) == 8.0  # 10, 20 and 61 in the window: wait until 70


def test_a_right_password_clears_the_count() -> None:
    limit = RateLimit(failures=2, window=60.0)
    limit.failed("10.0.0.5", 0.0)
    limit.succeeded("10.0.0.5")
    limit.failed("10.0.0.5", 1.0)
    assert limit.wait("10.0.0.5", 2.0) == 0.0


def test_the_rate_limit_forgets_the_oldest_addresses_beyond_its_cap() -> None:
    limit = RateLimit(failures=1, window=60.0, max_addresses=2)
    for i, address in enumerate(("a", "b", "c")):
        limit.failed(address, float(i))
    assert limit.wait("a", 3.0) == 0.0
    assert limit.wait("b", 3.0) > 0 and limit.wait("c", 3.0) > 0


def test_a_login_is_a_random_token_valid_for_its_lifetime() -> None:
    logins = Logins(lifetime=100.0)
    a, b = logins.new(0.0), logins.new(0.0)
    assert a != b and len(a) >= 40
    assert logins.valid(a, 99.0)
    assert not logins.valid(a, 100.0)
    assert not logins.valid(None, 0.0) and not logins.valid("", 0.0) and not logins.valid("forged", 0.0)


def test_logins_beyond_the_cap_forget_the_oldest() -> None:
    logins = Logins(lifetime=100.0, max_logins=2)
    first, second, third = logins.new(0.0), logins.new(1.0), logins.new(2.0)
    assert not logins.valid(first, 3.0)
    assert logins.valid(second, 3.0) and logins.valid(third, 3.0)
    assert len(logins) == 2


def test_a_tab_app_gets_none_of_the_servers_environment_but_what_runs_python() -> None:
    server = {"PATH": "/usr/bin", "HOME": "/home/ada", "AWS_SECRET_ACCESS_KEY": "x", "PIGEON_TUI_PASSWORD": "y"}
    env = tab_env(server, TermSize(132, 40), os.getpid())
    assert env["PATH"] == "/usr/bin" and env["HOME"] == "/home/ada"
    assert "AWS_SECRET_ACCESS_KEY" not in env and "PIGEON_TUI_PASSWORD" not in env
    assert env["TEXTUAL_DRIVER"] == "textual.drivers.web_driver:WebDriver"
    assert (env["COLUMNS"], env["ROWS"]) == ("132", "40")
    assert env[PARENT_ENV] == str(os.getpid())
    assert env[NO_STORE_ENV], "tabs share the server's account: no seat token store"
    assert env[SHARED_ACCOUNT_ENV], "nor its games database"
    assert set(env) == {"PATH", "HOME", "LANG", "TEXTUAL_DRIVER", "TEXTUAL_FPS", "TEXTUAL_COLOR_SYSTEM"} | {
        "TERM_PROGRAM",
        "COLUMNS",
        "ROWS",
        PARENT_ENV,
        NO_STORE_ENV,
        SHARED_ACCOUNT_ENV,
    }
