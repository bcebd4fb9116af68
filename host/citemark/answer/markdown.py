"""Markdown answers (ChatGPT / Claude "copy", Perplexity, hand-written) → claims with citations.

Understands numeric markers ``[1]``, ``[1, 2]``, ``[1-3]``, ``[1][3]``, ``[^1]``,
``【1†source】`` and ``[id:x]``, resolved through a trailing Sources / References /
Citations list (numbered, bulleted, ``[1]: url "title"`` reference definitions,
or — Perplexity — a bare numbered list of URLs with no heading), or through a
sources map given with the answer; inline links ``[label](url)`` and ChatGPT's
reference-style pills ``([DevDocs Weekly][1])`` — a label that only names a
source is a citation "pill" and leaves the claim; other labels stay in it — and
bare URLs. A source entry may be a URL, DOI, arXiv id, a path (``sources/a.html``,
``./a.pdf``; what it is is decided by ``sources.classify``) or, for ``[id:x]``
entries, the source text itself. Lines of one paragraph are one text: a
sentence hard-wrapped across lines stays whole. Code is never read for claims.
Every step is one pass over the text, so hostile input (12,000 markers on one
line) costs milliseconds.
"""

from __future__ import annotations

import re

from citemark.answer.claims import Mark, assemble
from citemark.sources.classify import SourceKind, citation_for, classify
from citemark.types import Citation, ParsedAnswer

__all__ = ["parse_markdown"]

_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
# Linear on hostile lines, so every pattern here keeps to these rules: one line ([ \t] and
# [^\]\n], never \s or [^\]], which run across lines); no two runs of the same characters
# side by side ([ \t]*x?[ \t]* backtracks quadratically over a line of spaces); and a
# bracketed label stops at the next "[" or "]", so a line of a million "[" costs one pass.
_SOURCES_HEADING = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t]*)?(?:(?:\*\*|__)[ \t]*)?(?:(?:sources|references|citations|bibliography|works cited|"
    r"footnotes|notes|links|further reading|learn more|sources and related content|参考文献|参考资料|参考|出典|出处|来源|引用)"
    r"(?:[ \t]*(?:\*\*|__|[:：]))*|sources?:[ \t]*conversation with (?:copilot|bing)\b.*)[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
_FOOTNOTE = re.compile(r"^[ \t]{0,3}\[\^([^\]\n]+)\]:[ \t]*(.+)$", re.MULTILINE)
_DEFINITION = re.compile(
    r"""^[ \t]{0,3}\[(\^?[^\[\]\n]+)\]:[ \t]*<?(\S+?)>?(?:[ \t]+["'(](.*?)["')])?[ \t]*$""", re.MULTILINE
)
# Parentheses inside a URL are kept when balanced (DOIs such as 10.1016/S0140-6736(97)11096-0,
# Wikipedia's Mercury_(planet)); a closing one without its opening one ends the URL.
_URL = r"""https?://(?:[^\s<>\[\]()"'`]|\([^\s<>()"'`]*\))*(?:[^\s<>\[\]()"'`.,;:!?]|\([^\s<>()"'`]*\))"""
_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*<?(" + r"[^)\s>]+" + r")>?(?:\s+\"[^\"]*\")?\s*\)")
# A match that may start with spaces starts only at the first of them ((?<!\s)): tried from
# every space of a long run, \s* would scan the rest of the run each time.
_PILL_GROUP = re.compile(r"(?<!\s)\s*\(\s*(?:\[[^\]]*\]\([^)\s]+\)\s*[,;]?\s*)+\)")
_MARKERS = re.compile(
    r"(?<!\s)(?:\s*(?:\[\s*\^?\d+(?:\s*[,–-]\s*\d+)*\s*\]|\[\^[\w-]+\]|【\d+(?:†[^】]*)?】"
    r"|\[\s*id:[\w.:-]+(?:\s*[,;]\s*(?:id:)?[\w.:-]+)*\s*\]|\[\^\d+\^\]))+"
)
_REFERENCE_LINK = re.compile(r"\[([^\[\]\n]+)\]\[([^\[\]\n]*)\]")
_BARE_URL = re.compile(r"<?(" + _URL + r")>?")
# The separator after an entry's number is not eaten when it begins a path ("1. ./a.html").
_ENTRY = re.compile(
    r"^\s*(?:[-*+•]\s*)?(?:\[(\^?\d+|id:[\w.:-]+)\]|\(?(\d+)[.)]|\^(\d+))?\s*(?:[:.\-–](?![./\\]))?\s*(.*)$"
)
_NUMBERED_URL = re.compile(r"^\s*(?:\[\d+\]|\d+[.)])\s*[:.\-–]?\s*<?https?://\S+\s*$")
_BLOCK_START = re.compile(r"^\s{0,3}(?:#{1,6}\s|>|[-*+•]\s|\d+[.)]\s|\||(?:[-*_]\s*){3,}$)")
_TOKEN = re.compile(
    r"(?P<pills>(?<!\s)\s*\(\s*(?:\[[^\]]*\]\([^)\s]+\)\s*[,;]?\s*)+\))"
    r"|(?P<refpills>(?<!\s)\s*\(\s*(?:\[[^\[\]]+\]\[[^\[\]]*\]\s*[,;]?\s*)+\))"
    r"|(?P<link>!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?[^)\s>]+>?(?:\s+\"[^\"]*\")?\s*\))"
    r"|(?P<markers>" + _MARKERS.pattern + r")"
    r"|(?P<refl>\[[^\[\]\n]+\]\[[^\[\]\n]*\])"
    r"|(?P<url><?" + _URL + r">?)"
    r"|(?P<code>`[^`\n]*`)"
)


def parse_markdown(markdown: str, sources: dict[str, Citation] | None = None) -> ParsedAnswer:
    """Claims of a Markdown answer; ``sources`` (marker → citation) resolves markers the answer leaves undefined."""
    text = markdown.replace("\r\n", "\n").replace("\r", "\n")
    text = _FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    definitions: dict[str, Citation] = {}
    for match in _FOOTNOTE.finditer(text):
        note = _source_list(match.group(2))
        if note:
            definitions["^" + match.group(1).lower()] = next(iter(note.values()))
    text = _FOOTNOTE.sub("", text)
    for match in _DEFINITION.finditer(text):
        key, target, title = match.group(1), match.group(2), match.group(3)
        definitions[key.lstrip("^").lower()] = _citation(key, target, title)
    text = _DEFINITION.sub("", text)
    body, section = _split_sources(text)
    definitions.update({k: v for k, v in _source_list(section).items() if k not in definitions})
    for key, citation in (sources or {}).items():
        definitions.setdefault(key.lower(), citation)
    plain, marks = _flatten(body, definitions)
    return assemble(plain, marks, definitions, "markdown")


def _split_sources(text: str) -> tuple[str, str]:
    """The answer body and its trailing source list.

    The last Sources heading wins; without one, a trailing run of numbered
    lines that are only URLs (how Perplexity copies its citations) is the list.
    """
    headings = list(_SOURCES_HEADING.finditer(text))
    if headings:
        last = headings[-1]
        return text[: last.start()], text[last.end() :]
    end = len(text.rstrip())
    start = end
    while start > 0:
        line_start = text.rfind("\n", 0, start - 1) + 1 if start > 1 else 0
        line = text[line_start:start].rstrip("\n")
        if line.strip() and not _NUMBERED_URL.match(line):
            break
        start = line_start
        if line_start == 0:
            break
    if start < end and text[:start].strip():
        return text[:start], text[start:]
    return text, ""


def _source_list(section: str) -> dict[str, Citation]:
    """Entries of a Sources list, by their number or id (or their position when unnumbered)."""
    result: dict[str, Citation] = {}
    position = 0
    for line in section.splitlines():
        if not line.strip():
            continue
        entry = _ENTRY.match(line)
        if not entry:
            continue
        number = entry.group(1) or entry.group(2) or entry.group(3)
        rest = entry.group(4)
        link = _LINK.search(rest)
        url_match = _BARE_URL.search(rest)
        if link:
            target, title = link.group(2), link.group(1).strip() or None
            if title and title == target:
                title = None
            citation = _citation(number, target, title)
        elif url_match:
            title = rest[: url_match.start()].strip(" -–—:,.*\"'") or None
            citation = _citation(number, url_match.group(1), title)
        else:
            citation = _reference_token(number, rest)
            if citation is None and number and number.lower().startswith("id:") and rest.strip():
                citation = Citation(marker=number, text=rest.strip().strip("\"“”"))  # the source, given inline
            if citation is None:
                continue
        position += 1
        key = (number or str(position)).lstrip("^")
        result.setdefault(key.lower(), citation)
    return result


def _reference_token(marker: str | None, rest: str) -> Citation | None:
    """A path, ``file:`` URL, DOI or arXiv id in a Sources entry ("1. sources/page.html — Title")."""
    for raw in rest.split():
        token = raw.strip("<>()[]\"'`*,;")
        if not token:
            continue
        kind = classify(token, inline_text=False)
        if kind in (SourceKind.DOI, SourceKind.ARXIV, SourceKind.FILE_URL) or (
            kind is SourceKind.PATH and (_FILE_LIKE.search(token) or token.startswith(("./", "../", "/", "~/")))
        ):
            title = rest.replace(raw, "", 1).strip(" -–—:,.*\"'") or None
            return citation_for(token, marker=marker, title=title, inline_text=False)
    return None


_FILE_LIKE = re.compile(r"\.[A-Za-z0-9]{1,6}$")


def _flatten(body: str, definitions: dict[str, Citation]) -> tuple[str, list[Mark]]:
    """Plain text of the body and the citation marks in it.

    Blocks (headings, list items, table rows, paragraphs) are one line each;
    the lines of one paragraph are joined with a space, because a sentence
    hard-wrapped across lines is one sentence. Offsets are running sums, so
    the cost is linear in the body however many marks a line holds.
    """
    out: list[str] = []
    marks: list[Mark] = []
    length = 0
    previous_joins = False  # may the next line continue the previous one?
    for raw_line in body.split("\n"):
        line = _strip_block_syntax(raw_line)
        continues = previous_joins and bool(raw_line.strip()) and not _BLOCK_START.match(raw_line)
        if out:
            separator = " " if continues else "\n"
            out.append(separator)
            length += 1
        previous_joins = bool(raw_line.strip()) and not re.match(r"^\s{0,3}(?:#{1,6}\s|\||(?:[-*_]\s*){3,}$)", raw_line)
        built = _Line(length)
        add, trim_last = built.add, built.trim_last
        cursor = 0
        for token in _TOKEN.finditer(line):
            add(_strip_inline(line[cursor : token.start()]))
            kind = token.lastgroup
            value = token.group(0)
            if kind == "pills":
                trim_last()
                for link in _LINK.finditer(value):
                    marks.append(Mark(built.here, citation=_citation(link.group(1), link.group(2), link.group(1))))
            elif kind == "refpills":
                trim_last()
                for ref in _REFERENCE_LINK.finditer(value):
                    marks.append(Mark(built.here, marker=(ref.group(2) or ref.group(1)).lower()))
            elif kind == "link":
                link = _LINK.match(value)
                assert link is not None
                label, url = link.group(1), link.group(2)
                if value.startswith("!"):
                    pass  # an image is not a citation
                elif url.startswith("#"):
                    marks.append(Mark(built.here, marker=url.lstrip("#").removeprefix("fn").removeprefix("cite-note-")))
                elif _is_pill(label, url):
                    trim_last()
                    marks.append(Mark(built.here, citation=_citation(label, url, None)))
                else:
                    label_text = _strip_inline(label)
                    add(label_text)
                    marks.append(Mark(built.here, citation=_citation(label, url, label_text)))
            elif kind == "refl":
                ref = _REFERENCE_LINK.match(value)
                assert ref is not None
                label, key = ref.group(1), (ref.group(2) or ref.group(1))
                if not _is_pill(label, ""):
                    add(_strip_inline(label))
                else:
                    trim_last()
                marks.append(Mark(built.here, marker=key.lower()))
            elif kind == "markers":
                trim_last()
                for marker in _marker_numbers(value):
                    marks.append(Mark(built.here, marker=marker))
            elif kind == "url":
                trim_last()
                marks.append(Mark(built.here, citation=_citation(None, value.strip("<>"), None)))
            elif kind == "code":
                add(value.strip("`"))
            cursor = token.end()
        add(_strip_inline(line[cursor:]))
        out.append("".join(built.pieces))
        length = built.here
    return "".join(out), marks


class _Line:
    """One line of plain text being built, with the offset of its end in the whole text."""

    def __init__(self, start: int) -> None:
        self.pieces: list[str] = []
        self.here = start

    def add(self, piece: str) -> None:
        self.pieces.append(piece)
        self.here += len(piece)

    def trim_last(self) -> None:
        """Drop the space before a citation that is removed from the text."""
        if self.pieces:
            trimmed = self.pieces[-1].rstrip()
            self.here -= len(self.pieces[-1]) - len(trimmed)
            self.pieces[-1] = trimmed


def _marker_numbers(group: str) -> list[str]:
    numbers: list[str] = []
    for part in re.findall(r"\[([^\]]+)\]|【(\d+)", group):
        content = next(p for p in part if p)
        if re.fullmatch(r"\^\d+\^", content):  # Copilot's [^1^]
            numbers.append(content.strip("^"))
            continue
        if content.startswith("^"):
            numbers.append(content.lower())
            continue
        if content.strip().lower().startswith("id:"):
            for piece in re.split(r"\s*[,;]\s*", content.strip()):
                numbers.append("id:" + piece.lower().removeprefix("id:"))
            continue
        for piece in re.split(r"\s*,\s*", content.lstrip("^")):
            bounds = re.split(r"\s*[–-]\s*", piece)
            if len(bounds) == 2 and bounds[0].isdigit() and bounds[1].isdigit():
                low, high = int(bounds[0]), int(bounds[1])
                if 0 < high - low < 50:
                    numbers.extend(str(n) for n in range(low, high + 1))
                    continue
            if piece.isdigit():
                numbers.append(piece)
    return numbers


def _is_pill(label: str, url: str) -> bool:
    """A link label that names a source instead of saying something: the claim drops it."""
    label = label.strip().strip("*_`")
    if not label or label == url or re.fullmatch(r"\[?\^?\d+\]?|[ivx]+", label, re.IGNORECASE):
        return True
    if re.fullmatch(r"(?:www\.)?[\w-]+(?:\.[\w-]+)+(?:/\S*)?", label):
        return True
    return label.lower() in {"source", "sources", "link", "here", "ref", "citation", "pdf"}


def _strip_block_syntax(line: str) -> str:
    line = re.sub(r"^\s{0,3}#{1,6}\s+", "", line)
    line = re.sub(r"^\s*>\s?", "", line)
    line = re.sub(r"^\s*(?:[-*+•]|\d+[.)])\s+(?:\[[ xX]\]\s+)?", "", line)
    if re.fullmatch(r"\s*(?:\|\s*)?:?-{2,}.*", line):  # a table separator row
        return ""
    if line.strip().startswith("|"):
        line = " ; ".join(cell.strip() for cell in line.strip().strip("|").split("|"))
    if re.fullmatch(r"\s*(?:[-*_]\s*){3,}", line):  # a thematic break
        return ""
    return line


def _strip_inline(text: str) -> str:
    if "*" not in text and "_" not in text and "~" not in text:
        return text  # most pieces: no emphasis to strip, and four regex passes saved per piece
    text = re.sub(r"(\*\*|__)(.+?)\1", r"\2", text)
    # Emphasis ends at the next "*" (or "_"): a run of " _x" costs one pass, not one per "_".
    text = re.sub(r"(?<![\w*])\*(?!\s)([^*]+?)(?<!\s)\*(?![\w*])", r"\1", text)
    text = re.sub(r"(?<![\w*])_(?!\s)([^_]+?)(?<!\s)_(?![\w*])", r"\1", text)
    text = re.sub(r"~~(.+?)~~", r"\1", text)
    return text.replace("**", "").replace("__", "")


def _citation(marker: str | None, target: str, title: str | None) -> Citation:
    """A link target as a Citation, read by ``sources.classify`` (a relative target is a path)."""
    target = target.strip()
    if target.startswith("//"):  # protocol-relative
        target = "https:" + target
    return citation_for(target, marker=marker, title=title, inline_text=False)
