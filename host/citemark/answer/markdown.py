"""Markdown answers (ChatGPT / Claude "copy", Perplexity, hand-written) → claims with citations.

Understands numeric markers ``[1]``, ``[1, 2]``, ``[1-3]``, ``[1][3]``, ``[^1]``
and ``【1†source】`` resolved through a trailing Sources / References /
Citations list (numbered, bulleted or ``[1]: url "title"`` reference
definitions); inline links ``[label](url)`` — a label that is only a source
name in parentheses, a domain or a number is a citation "pill" and leaves the
claim; other labels stay in it — and bare URLs. Code is never read for claims.
"""

from __future__ import annotations

import re

from citemark.answer.claims import Mark, assemble
from citemark.types import Citation, ParsedAnswer

__all__ = ["parse_markdown"]

_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
_SOURCES_HEADING = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*|__)?\s*(?:sources|references|citations|bibliography|works cited|"
    r"footnotes|notes|links|further reading)\s*(?:\*\*|__)?\s*:?\s*(?:\*\*|__)?\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_FOOTNOTE = re.compile(r"^\s{0,3}\[\^([^\]]+)\]:\s*(.+)$", re.MULTILINE)
_DEFINITION = re.compile(
    r"""^\s{0,3}\[(\^?[^\]]+)\]:\s*<?(\S+?)>?(?:\s+["'(](.*?)["')])?\s*$""", re.MULTILINE
)
# Parentheses inside a URL are kept when balanced (DOIs such as 10.1016/S0140-6736(97)11096-0,
# Wikipedia's Mercury_(planet)); a closing one without its opening one ends the URL.
_URL = r"""https?://(?:[^\s<>\[\]()"'`]|\([^\s<>()"'`]*\))*(?:[^\s<>\[\]()"'`.,;:!?]|\([^\s<>()"'`]*\))"""
_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*<?(" + r"[^)\s>]+" + r")>?(?:\s+\"[^\"]*\")?\s*\)")
_PILL_GROUP = re.compile(r"\s*\(\s*(?:\[[^\]]*\]\([^)\s]+\)\s*[,;]?\s*)+\)")
_MARKERS = re.compile(
    r"(?:\s*(?:\[\s*\^?\d+(?:\s*[,–-]\s*\d+)*\s*\]|\[\^[\w-]+\]|【\d+(?:†[^】]*)?】))+"
)
_REFERENCE_LINK = re.compile(r"\[([^\]]+)\]\[([^\]]*)\]")
_LOCAL_PATH = re.compile(r"(?:^|(?<=\s))((?:file://|~/|\.{0,2}/)[^\s<>\"']+)")  # CLI answers may cite files
_BARE_URL = re.compile(r"<?(" + _URL + r")>?")
_ENTRY = re.compile(
    r"^\s*(?:[-*+•]\s*)?(?:\[(\^?\d+)\]|(\d+)[.)]|\^(\d+))?\s*[:.\-–]?\s*(.*)$"
)
_TOKEN = re.compile(
    r"(?P<pills>\s*\(\s*(?:\[[^\]]*\]\([^)\s]+\)\s*[,;]?\s*)+\))"
    r"|(?P<link>!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?[^)\s>]+>?(?:\s+\"[^\"]*\")?\s*\))"
    r"|(?P<markers>" + _MARKERS.pattern + r")"
    r"|(?P<refl>\[[^\]]+\]\[[^\]]*\])"
    r"|(?P<url><?" + _URL + r">?)"
    r"|(?P<code>`[^`\n]*`)"
)


def parse_markdown(markdown: str) -> ParsedAnswer:
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
    body, sources = _split_sources(text)
    definitions.update({k: v for k, v in _source_list(sources).items() if k not in definitions})
    plain, marks = _flatten(body, definitions)
    return assemble(plain, marks, definitions, "markdown")


def _split_sources(text: str) -> tuple[str, str]:
    """The answer body and its trailing source list (the last matching heading wins)."""
    headings = list(_SOURCES_HEADING.finditer(text))
    if not headings:
        return text, ""
    last = headings[-1]
    return text[: last.start()], text[last.end() :]


def _source_list(section: str) -> dict[str, Citation]:
    """Entries of a Sources list, by their number (or their position when unnumbered)."""
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
        url_match = _BARE_URL.search(rest) or _LOCAL_PATH.search(rest)
        if link:
            url, title = link.group(2), link.group(1).strip() or None
            if title and title == url:
                title = None
        elif url_match:
            url = url_match.group(1)
            title = rest[: url_match.start()].strip(" -–—:,.*\"'") or None
        else:
            continue
        position += 1
        key = (number or str(position)).lstrip("^")
        result.setdefault(key.lower(), _citation(key, url, title))
    return result


def _flatten(body: str, definitions: dict[str, Citation]) -> tuple[str, list[Mark]]:
    """Plain text of the body (one block per line) and the citation marks in it."""
    out: list[str] = []
    marks: list[Mark] = []
    length = 0
    for raw_line in body.split("\n"):
        line = _strip_block_syntax(raw_line)
        pieces: list[str] = []
        cursor = 0
        line_start = length
        for token in _TOKEN.finditer(line):
            before = _strip_inline(line[cursor : token.start()])
            pieces.append(before)
            here = line_start + sum(len(p) for p in pieces)
            kind = token.lastgroup
            value = token.group(0)
            if kind == "pills":
                for link in _LINK.finditer(value):
                    marks.append(Mark(here, citation=_citation(link.group(1), link.group(2), link.group(1))))
                pieces[-1] = pieces[-1].rstrip()
            elif kind == "link":
                link = _LINK.match(value)
                assert link is not None
                label, url = link.group(1), link.group(2)
                if value.startswith("!"):
                    pass  # an image is not a citation
                elif url.startswith("#"):
                    marks.append(Mark(here, marker=url.lstrip("#").removeprefix("fn").removeprefix("cite-note-")))
                elif _is_pill(label, url):
                    pieces[-1] = pieces[-1].rstrip()
                    here = line_start + sum(len(p) for p in pieces)
                    marks.append(Mark(here, citation=_citation(label, url, None)))
                else:
                    label_text = _strip_inline(label)
                    pieces.append(label_text)
                    marks.append(Mark(here + len(label_text), citation=_citation(label, url, label_text)))
            elif kind == "refl":
                ref = _REFERENCE_LINK.match(value)
                assert ref is not None
                label, key = ref.group(1), (ref.group(2) or ref.group(1))
                if not _is_pill(label, ""):
                    pieces.append(_strip_inline(label))
                else:
                    pieces[-1] = pieces[-1].rstrip()
                here = line_start + sum(len(p) for p in pieces)
                marks.append(Mark(here, marker=key.lower()))
            elif kind == "markers":
                pieces[-1] = pieces[-1].rstrip()
                here = line_start + sum(len(p) for p in pieces)
                for marker in _marker_numbers(value):
                    marks.append(Mark(here, marker=marker))
            elif kind == "url":
                pieces[-1] = pieces[-1].rstrip()
                here = line_start + sum(len(p) for p in pieces)
                marks.append(Mark(here, citation=_citation(None, value.strip("<>"), None)))
            elif kind == "code":
                pieces.append(value.strip("`"))
            cursor = token.end()
        pieces.append(_strip_inline(line[cursor:]))
        flat = "".join(pieces)
        out.append(flat)
        length += len(flat) + 1
    return "\n".join(out), marks


def _marker_numbers(group: str) -> list[str]:
    numbers: list[str] = []
    for part in re.findall(r"\[([^\]]+)\]|【(\d+)", group):
        content = next(p for p in part if p)
        if content.startswith("^"):
            numbers.append(content.lower())
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
    if re.fullmatch(r"\s*\|?\s*:?-{2,}.*", line):  # a table separator row
        return ""
    if line.strip().startswith("|"):
        line = " ; ".join(cell.strip() for cell in line.strip().strip("|").split("|"))
    if re.fullmatch(r"\s*(?:[-*_]\s*){3,}", line):  # a thematic break
        return ""
    return line


def _strip_inline(text: str) -> str:
    text = re.sub(r"(\*\*|__)(.+?)\1", r"\2", text)
    text = re.sub(r"(?<![\w*])([*_])(?!\s)(.+?)(?<!\s)\1(?![\w*])", r"\2", text)
    text = re.sub(r"~~(.+?)~~", r"\1", text)
    return text.replace("**", "").replace("__", "")


def _citation(marker: str | None, target: str, title: str | None) -> Citation:
    target = target.strip()
    if target.startswith("//"):  # protocol-relative
        target = "https:" + target
    return Citation(marker=marker, url=target, title=title)
