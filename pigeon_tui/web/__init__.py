"""`pigeon-tui serve-web`: the game in a browser tab (docs/web.md). Each tab gets the normal app
as a child process speaking Textual's web driver protocol; the page is textual-serve's terminal.

Modules: `config` (options and limits), `access` (the password, login cookies, the rate limit;
sans I/O), `child` (a tab's app process), `page` (the pages and the few files a tab loads),
`server` (the aiohttp server). `__main__` is what a tab's process runs. Only `page` and `server`
import aiohttp (the `web` extra); nothing here imports textual but the tab's process itself.
"""
