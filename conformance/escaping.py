"""Making engine-provided text safe to show.

Card ids, refusal messages and exception text come from the engine under
test, which may be careless or hostile. Before they reach a terminal, a
Markdown or HTML page or an XML file they are cut to a readable length and
escaped for where they go, so they can't run script in a browser, break a
CI's XML parser or repaint a terminal.
"""

from __future__ import annotations

import html
import re

#: Characters of engine-provided text kept in one message.
MESSAGE_LIMIT = 4000

_TERMINAL_ESCAPE = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|.)?")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# XML 1.0: Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# Markdown that could turn text into a link, an image, code or a table cell
# (HTML is escaped apart, and emphasis does no harm).
_MARKDOWN_SPECIAL = re.compile(r"([\\`\[\]|])")


def cut(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """`text`, at most `limit` characters, saying how much was cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [cut: {len(text) - limit} more characters]"


def for_terminal(text: str) -> str:
    """`text` without terminal escape sequences or other control characters
    (newlines and tabs stay)."""
    return _CONTROL.sub("", _TERMINAL_ESCAPE.sub("", text))


def for_xml(text: str) -> str:
    """`text` without the characters XML 1.0 forbids (escaping `<` and `&`
    is the XML writer's job)."""
    return _NOT_XML.sub("", text)


def for_html(text: str) -> str:
    return html.escape(for_xml(text), quote=True)


def for_markdown(text: str) -> str:
    """`text` as literal Markdown: HTML escaped, Markdown syntax backslashed,
    on one line (a newline would end a table row)."""
    flat = " ".join(for_terminal(text).split())
    return _MARKDOWN_SPECIAL.sub(r"\\\1", html.escape(flat, quote=False))


def markdown_code(text: str) -> str:
    """`text` as an inline code span, whatever backticks it holds."""
    flat = " ".join(for_terminal(text).split())
    longest = max((len(run) for run in re.findall("`+", flat)), default=0)
    fence = "`" * (longest + 1)
    return f"{fence} {flat} {fence}" if longest else f"`{flat}`"


def markdown_fence(text: str) -> str:
    """A code fence longer than any run of backticks in `text`."""
    longest = max((len(run) for run in re.findall("`{3,}", text)), default=0)
    return "`" * max(3, longest + 1)
