"""A screen's own styles (its CSS_PATH, a .tcss file beside its module), added to the app's
stylesheet when the screen is made, so that the app parses at start only app.tcss (issue 9:
`pigeon-tui play` reaches the table without parsing the start, lobby, help, results, replay or
CuBirds styles: 32 M instructions fewer to the table, of about 1400 M).

Textual would load them itself when the screen is first pushed, with `Stylesheet.reparse()`
(Textual 8.2), which parses every source of the stylesheet again (app.tcss and every widget's
DEFAULT_CSS: all the parsing of the app's start, at each screen's first showing) and then
restyles every widget of every screen. Added here first, the file is parsed alone (the stylesheet
keeps the rules it parsed before), Textual finds it already loaded and skips the reparse, and
the screen is styled once, with its rules, as it is registered. A screen's rules match only its
own widgets, so no widget already styled needs them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.screen import Screen


def own_styles(screen: Screen[Any]) -> None:
    """Add `screen`'s CSS_PATH files to its app's stylesheet (each once). Without a running
    app (a screen made before its app runs, in a test) Textual loads them when it is pushed."""
    try:
        stylesheet = screen.app.stylesheet
    except Exception:  # no active app: NoActiveAppError, which textual.app does not export
        return
    for path in screen.css_path:
        if not stylesheet.has_source(str(path)):
            stylesheet.add_source(Path(path).read_text(encoding="utf-8"), read_from=(str(path), ""))
