"""The plain text of a test-management cell: TestRail keeps step text as markdown or as HTML (its two editors), Xray
and Zephyr as Jira wiki text (Confluence's markup) or HTML; a scenario step is one plain sentence or a few lines.

HTML is read with the standard library's parser; only the tags an editor writes are markup, so a step's own
placeholder ("Search for <lastName>") stays text. Markdown is read by markdown-it (CommonMark, raw HTML off), whose
HTML then goes through the same reader."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

from markdown_it import MarkdownIt

# The tags the editors of these systems write. Any other <word> is the tester's text (a placeholder, "<enter>").
_MARKUP = {
    "a", "abbr", "b", "big", "blockquote", "br", "caption", "center", "code", "col", "colgroup", "dd", "del", "div",
    "dl", "dt", "em", "figcaption", "figure", "font", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins",
    "kbd", "li", "mark", "ol", "p", "pre", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "table",
    "tbody", "td", "tfoot", "th", "thead", "tr", "tt", "u", "ul",
}
# Tags that end a line of text.
_BLOCKS = {"blockquote", "br", "caption", "dd", "div", "dl", "dt", "figcaption", "figure", "h1", "h2", "h3", "h4",
           "h5", "h6", "hr", "li", "ol", "p", "pre", "table", "tr", "ul"}
_CELLS = {"td", "th"}
_LOOKS_LIKE_HTML = re.compile(r"</?(?:%s)\b[^>]*>|&(?:[a-z]+|#\d+|#x[0-9a-f]+);" % "|".join(sorted(_MARKUP)), re.I)
# What markdown would change: emphasis, code, links and images, headings, lists, quotes, escapes, breaks, rules.
_LOOKS_LIKE_MARKDOWN = re.compile(r"[*_`\[\]\\]|^\s{0,3}(?:#|>|[-+*]\s|\d+[.)]\s|-{3,}|={3,})", re.M)

# Jira and Confluence wiki markup no markdown writes: {{monospace}}, {code}/{noformat}/{quote}/{color}/{panel}
# blocks, [text|link] links, h1. headings, bq. quotes, || table headers, \\\\ line breaks, !image.png! embeds.
_LOOKS_LIKE_WIKI = re.compile(
    r"\{\{.+?\}\}|\{(?:code|noformat|quote|color|panel)(?::[^}]*)?\}|\[[^\]|\n]+\|[^\]\n]+\]|^\s*(?:h[1-6]|bq)\.\s"
    r"|^\s*\|\||\\\\|![^!\s|]+\.(?:png|jpe?g|gif|svg|bmp|webp)(?:\|[^!\n]*)?!", re.M | re.I)
# A phrase marked up: *bold*, _italic_, -deleted-, +inserted+, ^sup^, ~sub~, ??citation?? (no word character
# just outside, no space just inside: "e-mail" and "5 - 3" are text).
_WIKI_PHRASE = re.compile(r"(?<![\w*_\-+^~?])([*_\-+^~]|\?\?)(?=\S)(.+?)(?<=\S)\1(?![\w*_\-+^~?])")

_markdown = MarkdownIt("commonmark", {"html": False, "typographer": False})


class _TextOf(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0  # inside <script> or <style>

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        elif tag in _CELLS:
            self.parts.append(" ")
        elif tag == "img":
            alt = dict(attrs).get("alt")
            if alt:
                self.parts.append(alt)
        elif tag in _BLOCKS:
            self.parts.append("\n")
        elif tag not in _MARKUP:
            self.parts.append(self.get_starttag_text() or "")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip = max(0, self._skip - 1)
        elif tag in _BLOCKS:
            self.parts.append("\n")
        elif tag not in _MARKUP and tag not in _CELLS:
            self.parts.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def html_text(value: str) -> str:
    reader = _TextOf()
    reader.feed(value)
    reader.close()
    return _tidy("".join(reader.parts))


def _tidy(text: str) -> str:
    """Spaces within a line made one, blank lines and the spaces around lines dropped."""
    lines = (" ".join(line.replace("\xa0", " ").split()) for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


def wiki_text(value: str) -> str:
    """Jira/Confluence wiki markup as the text a person reads: the markup's words kept, its marks dropped."""
    text = re.sub(r"\{(?:code|noformat|quote|panel|color)(?::[^}]*)?\}", "", value, flags=re.I)
    text = re.sub(r"\{\{(.+?)\}\}", r"\1", text)
    text = re.sub(r"\[([^\]|\n]+)\|[^\]\n]+\]", r"\1", text)  # [text|link]
    text = re.sub(r"\[(~?[^\]\n]+)\]", lambda m: m.group(1).lstrip("~"), text)  # [link], [~user]
    text = re.sub(r"![^!\s|]+\.(?:png|jpe?g|gif|svg|bmp|webp)(?:\|[^!\n]*)?!", "", text, flags=re.I)
    text = text.replace("\\\\", "\n")
    text = re.sub(r"^\s*(?:h[1-6]|bq)\.\s+", "", text, flags=re.M | re.I)
    text = re.sub(r"^\s*(?:[*#-]+)\s+", "", text, flags=re.M)  # list items
    text = re.sub(r"^\s*-{4,}\s*$", "", text, flags=re.M)  # a rule
    text = re.sub(r"\|\|?", " ", text)  # table cells
    for _ in range(3):  # nested phrases: *_both_*
        text = _WIKI_PHRASE.sub(r"\2", text)
    return _tidy(html.unescape(text) if "&" in text else text)


def plain_text(value: str | None) -> str:
    """The text a person reads in the cell, lines kept: HTML, wiki markup or markdown made plain, entities
    decoded."""
    if not value:
        return ""
    value = value.replace("\r\n", "\n").replace("\r", "\n")
    if _LOOKS_LIKE_HTML.search(value):
        return html_text(value)
    if _LOOKS_LIKE_WIKI.search(value):
        return wiki_text(value)
    if _LOOKS_LIKE_MARKDOWN.search(value):
        return html_text(_markdown.render(value))
    return _tidy(html.unescape(value) if "&" in value else value)
