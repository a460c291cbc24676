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

# Jira and Confluence wiki markup no markdown writes, only in its whole forms (a lone {code} or [Save] is a
# tester's text, a parameter or a button's name): {{monospace}}; {code}...{code}, {noformat}, {quote}, {panel} and
# {color:red}...{color} pairs, or a macro with options ({code:sql}); [text|link] with a link; h1. headings, bq.
# quotes; || table headers; !image.png! embeds.
_MACROS = r"code|noformat|quote|panel|color"
_PAIRED_MACRO = re.compile(r"\{(%s)(?::[^}\n]*)?\}([\s\S]*?)\{\1\}" % _MACROS, re.I)
_MACRO_WITH_OPTIONS = re.compile(r"\{(?:%s):[^}\n]*\}" % _MACROS, re.I)
_LINK = re.compile(r"\[([^\]|\n]+)\|(?:https?://|mailto:|/|#|\^|~)[^\]\n]*\]")
_IMAGE = re.compile(r"![^!\s|]+\.(?:png|jpe?g|gif|svg|bmp|webp)(?:\|[^!\n]*)?!", re.I)
_LOOKS_LIKE_WIKI = re.compile(
    r"(?<!\$)\{\{[^{}\n]+\}\}|%s|%s|%s|%s|^\s*(?:h[1-6]|bq)\.\s|^\s*\|\|"
    % (_PAIRED_MACRO.pattern, _MACRO_WITH_OPTIONS.pattern, _LINK.pattern, _IMAGE.pattern), re.M | re.I)
# A phrase in bold (*bold*), italics (_it_), inserted (+ins+) or cited (??cite??): no word character just outside,
# no space just inside, no mark of its kind within ("5 * 3 * 2" and "a_b_c" are text). Struck (-x-), superscript
# and subscript marks are left as they are: "-10 to -20-" and "~/a" read as written.
_WIKI_PHRASE = re.compile(r"(?<![\w*_+?])([*_+]|\?\?)(?=\S)((?:(?!\1)[^\n])+?)(?<=\S)\1(?![\w*_+?])")

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
    """Jira/Confluence wiki markup as the text a person reads: the markup's words kept, its marks dropped; what
    only looks like markup (a lone {code}, [Save], a|b, \\\\server) stays as written."""
    text = value
    while _PAIRED_MACRO.search(text):  # nested: {quote}{code}x{code}{quote}
        text = _PAIRED_MACRO.sub(r"\2", text)
    text = _MACRO_WITH_OPTIONS.sub("", text)
    text = re.sub(r"(?<!\$)\{\{([^{}\n]+)\}\}", r"\1", text)
    text = _LINK.sub(r"\1", text)
    text = _IMAGE.sub("", text)
    text = re.sub(r"(?<=[^\s\\])\\\\(?!\\)", "\n", text)  # a line break right after text: "one\\\\two"
    text = re.sub(r"^\s*(?:h[1-6]|bq)\.\s+", "", text, flags=re.M | re.I)
    text = re.sub(r"^\s*(?:[*#-]+)\s+", "", text, flags=re.M)  # list items
    text = re.sub(r"^\s*-{4,}\s*$", "", text, flags=re.M)  # a rule
    text = re.sub(r"^\s*\|\|?(.*?)\|*\s*$", lambda m: re.sub(r"\|\|?", " ", m.group(1)), text, flags=re.M)  # a row
    for _ in range(3):  # nested phrases: *_both_*
        text = _WIKI_PHRASE.sub(r"\2", text)
    return _tidy(html.unescape(text) if "&" in text else text)


def plain_text(value: str | None, keep: re.Pattern[str] | None = None) -> str:
    """The text a person reads in the cell, lines kept: HTML, wiki markup or markdown made plain, entities
    decoded. What `keep` matches (a case's parameters, "{code}" or "${color}") is left exactly as written."""
    if not value:
        return ""
    if keep is not None and keep.search(value):
        kept: list[str] = []

        def hold(match: re.Match[str]) -> str:
            kept.append(match.group(0))
            return f"\ue000{len(kept) - 1}\ue001"  # private-use characters no markup reads

        text = plain_text(keep.sub(hold, value))
        return re.sub("\ue000(\\d+)\ue001", lambda m: kept[int(m.group(1))], text)
    value = value.replace("\r\n", "\n").replace("\r", "\n")
    if _LOOKS_LIKE_HTML.search(value):
        return html_text(value)
    if _LOOKS_LIKE_WIKI.search(value):
        return wiki_text(value)
    if _LOOKS_LIKE_MARKDOWN.search(value):
        return html_text(_markdown.render(value))
    return _tidy(html.unescape(value) if "&" in value else value)
