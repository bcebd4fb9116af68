"""Reading a bibliography: BibTeX, LaTeX ``\\bibitem``s, or a Markdown / plain References list.

Each entry becomes a ``Reference``: the DOI, arXiv id, title, authors' family
names and year it states (whatever it states; the checker resolves by DOI, then
arXiv id, then title + first author + year). Free-text entries are read with the
conventions of the common styles: APA ("Family, A. (2019). Title. Venue."),
IEEE / ACL ("A. Family, B. Other. Title. Venue, 2019."), Vancouver ("Family A,
Other B. Title. Venue. 2019;"), quoted titles, and natbib's ``\\newblock``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any

from citemark import identifiers
from citemark.errors import InputError

__all__ = ["Reference", "detect_format", "doi_problem", "parse_references", "reference_from_text", "reference_section"]

MAX_REFERENCES = 500

#: A DOI inside a bibliography's text: it ends at a quote, a brace or an angle bracket as well as at a space.
_DOI = re.compile(rf"{identifiers.DOI}[^\s\"<>{{}}]+", re.IGNORECASE)
#: An arXiv id inside a bibliography's text, after the words or the link that announce it.
_ARXIV = re.compile(rf"(?:arxiv(?:\s*preprint)?\s*:?\s*(?:abs/)?|arxiv\.org/(?:abs|pdf)/)({identifiers.ARXIV_ID})",
                    re.IGNORECASE)
_YEAR_PAREN = re.compile(r"\((\d{4})[a-z]?(?:,[^)]*)?\)")
_YEAR = re.compile(r"(?<![\d./])((?:19|20)\d{2})[a-z]?(?![\d/])")
_HEADING = re.compile(r"^[ \t]*(?:#{1,6}[ \t]*|\*\*)?(references|bibliography|works cited|literature cited|sources)\b[*: \t]*$",
                      re.IGNORECASE | re.MULTILINE)
_ITEM = re.compile(r"^\s*(?:\[\d+\]|\d+[.)]|[-*+•])\s+")


@dataclass(frozen=True, slots=True)
class Reference:
    """One entry of a bibliography, as cited."""

    index: int  # 1-based position in the list
    raw: str
    key: str | None = None  # the BibTeX / \\bibitem key
    title: str | None = None
    authors: tuple[str, ...] = ()  # family names, in order
    year: int | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    url: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "key": self.key, "raw": self.raw[:500], "title": self.title,
                "authors": list(self.authors), "year": self.year, "doi": self.doi, "arxiv_id": self.arxiv_id}


def detect_format(text: str) -> str:
    """``bibtex`` | ``latex`` | ``list``."""
    if re.search(r"^[ \t]*@\w+\s*\{", text, re.MULTILINE):
        return "bibtex"
    if "\\bibitem" in text:
        return "latex"
    return "list"


def parse_references(text: str, fmt: str | None = None) -> list[Reference]:
    """Every entry of ``text``; InputError when none can be found."""
    fmt = fmt or detect_format(text)
    if fmt == "bibtex":
        references = _bibtex(text)
    elif fmt == "latex":
        references = [_free_text(i, raw, key) for i, (key, raw) in enumerate(_bibitems(text), 1)]
    elif fmt == "list":
        references = [_free_text(i, raw) for i, raw in enumerate(_list_entries(text), 1)]
    else:
        raise InputError(f"unknown bibliography format {fmt!r} (bibtex, latex or list)")
    if not references:
        raise InputError("no references found: give BibTeX entries, \\bibitem entries, or a References list")
    if len(references) > MAX_REFERENCES:
        raise InputError(f"{len(references)} references is over the limit of {MAX_REFERENCES}")
    return references


# ---------------------------------------------------------------- BibTeX


_ENTRY_START = re.compile(r"@(\w+)[ \t\r\n]*\{")


def _bibtex(text: str) -> list[Reference]:
    """Entries one after another: the next is looked for after this one's closing brace, so each
    character is read once ("@a{" × 300,000 included). An entry left open is an input error: its
    braces swallow every entry after it, and guessing where it ends would cost a pass per guess."""
    references: list[Reference] = []
    position = 0
    while match := _ENTRY_START.search(text, position):
        kind = match.group(1).lower()
        body, position = _balanced(text, match.end() - 1)
        if body is None:
            line = text.count("\n", 0, match.start()) + 1
            raise InputError(f"the BibTeX entry at line {line} is never closed: its braces do not balance")
        if kind in {"comment", "string", "preamble"}:
            continue
        key, _, rest = body.partition(",")
        fields = _bibtex_fields(rest)
        raw = text[match.start() : position]
        authors = tuple(_family(name) for name in re.split(r"\s+and\s+", _delatex(fields.get("author", ""))) if name.strip())
        doi = _clean_doi(fields.get("doi", "")) or _find_doi(fields.get("url", ""))
        arxiv_id = None
        if fields.get("eprint") and (fields.get("archiveprefix", "").lower() == "arxiv" or _is_arxiv_id(fields["eprint"])):
            arxiv_id = fields["eprint"].strip()
        for name in ("journal", "url", "note", "howpublished", "booktitle"):
            found = _ARXIV.search(fields.get(name, ""))
            arxiv_id = arxiv_id or (found.group(1) if found else None)
        year = re.search(r"\d{4}", fields.get("year", "") or fields.get("date", ""))
        references.append(_with_arxiv_doi(Reference(
            index=len(references) + 1, raw=raw, key=key.strip() or None,
            title=_delatex(fields.get("title", "")) or None, authors=tuple(a for a in authors if a),
            year=int(year.group()) if year else None, doi=doi, arxiv_id=arxiv_id, url=fields.get("url"),
        )))
    return references


def _balanced(text: str, start: int) -> tuple[str | None, int]:
    """The text inside the brace at ``start`` and the index after its closing brace."""
    depth = 0
    for position in range(start, len(text)):
        char = text[position]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1 : position], position + 1
    return None, len(text)


def _bibtex_fields(body: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    position = 0
    pattern = re.compile(r"\s*([A-Za-z][\w-]*)\s*=\s*")
    while position < len(body):
        match = pattern.match(body, position)
        if not match:
            position = body.find(",", position) + 1 or len(body)
            continue
        name, position = match.group(1).lower(), match.end()
        if position < len(body) and body[position] == "{":
            value, position = _balanced(body, position)
        elif position < len(body) and body[position] == '"':
            close = body.find('"', position + 1)
            close = close if close != -1 else len(body)
            value, position = body[position + 1 : close], close + 1
        else:
            bare = re.match(r"[^,]*", body[position:])
            value = bare.group().strip() if bare else ""
            position += len(bare.group()) if bare else 0
        fields[name] = " ".join((value or "").split())
        comma = body.find(",", position)
        position = comma + 1 if comma != -1 else len(body)
    return fields


# ---------------------------------------------------------------- LaTeX and lists


def _bibitems(text: str) -> list[tuple[str | None, str]]:
    text = text.split("\\end{thebibliography}", 1)[0]
    items = []
    for chunk in re.split(r"\\bibitem", text)[1:]:
        match = re.match(r"\s*(?:\[[^\]]*\]\s*)?\{([^}]*)\}", chunk)
        key = match.group(1).strip() if match else None
        items.append((key, chunk[match.end() if match else 0 :].strip()))
    return items


def reference_section(text: str) -> str | None:
    """The text after the last References (Bibliography, Works cited…) heading; None when there is none."""
    heading = _last(_HEADING.finditer(text))
    return text[heading.end() :] if heading else None


def _list_entries(text: str) -> list[str]:
    """The entries after a References heading (or of the whole text when it has none)."""
    body = reference_section(text)
    body = text if body is None else body
    body = re.split(r"^[ \t]*#{1,6}[ \t]", body, maxsplit=1, flags=re.MULTILINE)[0]  # up to the next heading
    entries: list[str] = []
    current: list[str] = []
    itemised = any(_ITEM.match(line) for line in body.splitlines())
    for line in body.splitlines():
        if not line.strip():
            if current and not itemised:
                entries.append(" ".join(current))
                current = []
            continue
        if itemised and _ITEM.match(line):
            if current:
                entries.append(" ".join(current))
            current = [_ITEM.sub("", line, count=1).strip()]
        elif itemised and not current:
            continue  # prose before the first item
        else:
            current.append(line.strip())
    if current:
        entries.append(" ".join(current))
    return [e for e in entries if len(e) >= 15]


def reference_from_text(index: int, raw: str, key: str | None = None) -> Reference:
    """One reference written as text (a Crossref ``unstructured`` entry), read as a list entry is."""
    return _free_text(index, raw, key)


def _free_text(index: int, raw: str, key: str | None = None) -> Reference:
    """A reference written as text, in any of the common styles."""
    newblocks = [b.strip() for b in re.split(r"\\newblock", raw)] if "\\newblock" in raw else None
    text = _delatex(_demarkdown(raw))
    doi = _find_doi(text)
    arxiv = _ARXIV.search(text)
    urls = re.findall(r"https?://\S+", text)
    scrubbed = _DOI.sub(" ", re.sub(r"https?://\S+", " ", text))
    scrubbed = _ARXIV.sub(" ", scrubbed)
    year_match = _YEAR_PAREN.search(scrubbed) or _last(_YEAR.finditer(scrubbed))
    year = int(year_match.group(1)) if year_match else None
    title, author_part = None, ""
    quoted = re.search(r"[\"“”]([^\"“”]{10,}?)[,.]?[\"“”]", scrubbed)
    if newblocks and len(newblocks) >= 2:
        author_part, title = _delatex(newblocks[0]), _delatex(newblocks[1]).rstrip(". ")
    elif quoted:
        title, author_part = quoted.group(1).strip(" ,."), scrubbed[: quoted.start()]
    elif isinstance(year_match, re.Match) and year_match.re is _YEAR_PAREN:
        author_part = scrubbed[: year_match.start()]
        after = scrubbed[year_match.end() :].lstrip(" .,:")
        title = _sentences(after)[0] if after else None
    else:
        parts = _sentences(scrubbed)
        if len(parts) >= 2:
            author_part, title = parts[0], parts[1]
        elif parts:
            title = parts[0]
    if title:
        title = re.sub(r"\s*\[[^\[\]]*\]$", "", title).strip(" .,;:") or None
    return _with_arxiv_doi(Reference(
        index=index, raw=raw, key=key, title=title, authors=_authors(author_part), year=year, doi=doi,
        arxiv_id=arxiv.group(1) if arxiv else None, url=urls[0].rstrip(".,;)") if urls else None,
    ))


def _sentences(text: str) -> list[str]:
    """Split at full stops that end a word ("et al." ends the authors), not at an initial ("A. Family")."""
    parts = re.split(r"(?<=[^\s.]{2})[.?!]\s+", text.strip())
    return [p.strip(" .") for p in parts if p.strip(" .")]


def _authors(text: str) -> tuple[str, ...]:
    text = re.sub(r"\bet al\.?", "", text)
    families = []
    for piece in re.split(r",|;|\band\b|&", text):
        words = [w for w in re.split(r"\s+", piece.strip()) if w and not re.fullmatch(r"(?:[A-Z]\.?-?)+|[A-Z]{1,3}", w)]
        if words:
            families.append(words[-1].strip(".,"))
    return tuple(f for f in families if f and f[0].isalpha())


def _family(name: str) -> str:
    """"Family, Given" or "Given Family" → Family."""
    name = name.strip()
    if "," in name:
        return name.split(",", 1)[0].strip()
    words = name.split()
    return words[-1] if words else ""


# ---------------------------------------------------------------- clean-up


def _with_arxiv_doi(reference: Reference) -> Reference:
    """arXiv's own DOIs (10.48550/arXiv.ID) are arXiv ids: Crossref does not hold them."""
    if reference.doi:
        arxiv_id = identifiers.arxiv_of_doi(reference.doi)
        if arxiv_id:
            return replace(reference, doi=None, arxiv_id=reference.arxiv_id or arxiv_id)
    return reference


def _find_doi(text: str) -> str | None:
    match = _DOI.search(text or "")
    return _clean_doi(match.group()) if match else None


def _clean_doi(doi: str) -> str | None:
    found = identifiers.doi(doi.strip().rstrip(".,;)]}"))
    return found.lower() if found else None


def doi_problem(doi: str) -> str | None:
    """Why ``doi`` cannot be sent to a service as a DOI, if it cannot.

    A DOI's suffix may hold almost any printable character, but never a control
    character (ESC, NUL), and a path segment "." or ".." would take the request
    out of the service's ``/works/`` path.
    """
    if any(unicodedata.category(char).startswith("C") for char in doi):
        return "it holds a control character"
    if any(segment in (".", "..") for segment in doi.split("/")):
        return "it holds a '.' or '..' path segment"
    return None


def _is_arxiv_id(text: str) -> bool:
    return bool(re.fullmatch(identifiers.ARXIV_ID, text.strip()))


_ACCENTS = {'"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303", "c": "\u0327", "v": "\u030c"}


def _delatex(text: str) -> str:
    """LaTeX markup out: accents composed, braces, \\emph{…}, ~ and -- read as text."""
    text = re.sub(r"\\([\"'`^~cv])\s*(?:\{\s*)?([A-Za-z])\}?",
                  lambda m: unicodedata.normalize("NFC", m.group(2) + _ACCENTS[m.group(1)]), text)
    text = re.sub(r"\\(?:emph|textit|textbf|textsc|mbox|url|href)\s*", "", text)
    text = re.sub(r"\\(?:em|it|bf|sc|newblock|relax)\b\s*", "", text)
    text = text.replace("~", " ").replace("---", "—").replace("--", "–").replace("\\&", "&")
    text = re.sub(r"\\[a-zA-Z]+\s*", "", text)
    return " ".join(text.replace("{", "").replace("}", "").split())


def _demarkdown(text: str) -> str:
    text = re.sub(r"\[([^\[\]]*)\]\((https?://[^)]+)\)", r"\1 \2", text)
    text = re.sub(r"(?<!\w)[*_]{1,2}([^*_]+)[*_]{1,2}(?!\w)", r"\1", text)
    return text.replace("`", "")


def _last(matches: Any) -> re.Match[str] | None:
    found = None
    for found in matches:  # noqa: B007 - the last one is wanted
        pass
    return found


if __name__ == "__main__":  # python -m citemark.scholarly.references FILE: what citemark reads from each entry
    import json
    import sys
    from pathlib import Path

    source = Path(sys.argv[1]).read_text(encoding="utf-8") if len(sys.argv) > 1 else (
        "References\n1. Vaswani, A., & Shazeer, N. (2017). Attention is all you need. arXiv:1706.03762\n"
        "2. K. He and J. Sun. Deep residual learning for image recognition. In CVPR, 2016. doi:10.1109/CVPR.2016.90\n")
    for parsed in parse_references(source):
        print(json.dumps(parsed.to_dict(), ensure_ascii=False))
