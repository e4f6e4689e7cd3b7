"""A widget drawn as lines that depend on its width."""

from __future__ import annotations

from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget


class LinesWidget(Widget):
    """Textual asks a widget's height for a width before it renders at that width; both come
    from one `_lines(width)`, so the height asked for is always the height drawn."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._lines(width))

    def render(self) -> Content:
        return Content("\n").join(self._lines(max(1, self.content_region.width or self.size.width)))

    def _lines(self, width: int) -> list[Content]:
        raise NotImplementedError
