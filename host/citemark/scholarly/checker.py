"""One status per reference, and a grade for the whole list.

Resolution, most certain first: by DOI (Crossref, then OpenAlex for DOIs Crossref
does not register), by arXiv id (the arXiv API), else by title + first author +
year (Crossref's bibliographic search, then arXiv, then OpenAlex). Statuses:

- ``exists`` — a record has the cited title, first author and year;
- ``mismatch`` — the DOI / id exists but its record differs (the differences are
  listed), or the closest paper by title is a near miss, not the cited one;
- ``not_found`` — no record: the DOI is not registered, the arXiv id is unknown, or
  no paper has a title near the cited one;
- ``retracted`` — the record carries a retraction, withdrawal or expression of
  concern (with its date and the notice's link);
- ``unverifiable`` — a service could not be reached or answered nonsense; nothing
  is concluded from silence.
"""

from __future__ import annotations

import asyncio
import enum
from dataclasses import dataclass, field, replace
from typing import Any

import httpx

from citemark.errors import AnswerTooLargeError, InputError, LookupUnavailable
from citemark.scholarly.matching import NEAR_MISS, Difference, compare, same_title, title_similarity
from citemark.scholarly.records import Work
from citemark.scholarly.references import Reference, doi_problem, parse_references
from citemark.scholarly.services import Services
from citemark.settings import Settings

__all__ = ["ListReport", "ReferenceResult", "Status", "check_bibliography", "check_references", "grade"]


class Status(enum.StrEnum):
    EXISTS = "exists"
    MISMATCH = "mismatch"
    NOT_FOUND = "not_found"
    RETRACTED = "retracted"
    UNVERIFIABLE = "unverifiable"


@dataclass(frozen=True, slots=True)
class ReferenceResult:
    reference: Reference
    status: Status
    explanation: str
    work: Work | None = None  # the canonical metadata of the record that was compared
    differences: tuple[Difference, ...] = ()
    fix: str | None = None  # what the entry needs, in words
    resolved_by: str | None = None  # doi | arxiv | title

    def to_dict(self) -> dict[str, Any]:
        return {
            "reference": self.reference.to_dict(), "status": self.status.value, "explanation": self.explanation,
            "record": self.work.to_dict() if self.work else None,
            "differences": [d.to_dict() for d in self.differences], "fix": self.fix, "resolved_by": self.resolved_by,
            "notice": self.work.retraction_notice() if self.work else None,
        }


@dataclass(slots=True)
class ListReport:
    results: list[ReferenceResult] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        counts = {status.value: 0 for status in Status}
        for result in self.results:
            counts[result.status.value] += 1
        letter, score = grade(counts)
        return {"references": len(self.results), "counts": counts, "grade": letter, "score": score,
                "text": _summary_text(counts, len(self.results), letter)}

    def to_dict(self) -> dict[str, Any]:
        return {"references": [r.to_dict() for r in self.results], "summary": self.summary()}


def grade(counts: dict[str, int]) -> tuple[str, float | None]:
    """A–F from the share of checked references that exist as cited; unverifiable ones are not counted.

    A retracted or fabricated (not found) reference is worse than a typo, so any one of
    them caps the grade at C, whatever the share.
    """
    checked = sum(n for status, n in counts.items() if status != Status.UNVERIFIABLE)
    if not checked:
        return "?", None
    score = counts.get(Status.EXISTS, 0) / checked
    letter = "A" if score >= 0.95 else "B" if score >= 0.85 else "C" if score >= 0.7 else "D" if score >= 0.5 else "F"
    if (counts.get(Status.NOT_FOUND, 0) or counts.get(Status.RETRACTED, 0)) and letter in "AB":
        letter = "C"
    return letter, round(score, 4)


def _summary_text(counts: dict[str, int], total: int, letter: str) -> str:
    parts = [f"{counts.get('exists', 0)} of {total} reference{'s' if total != 1 else ''} exist as cited"]
    parts += [f"{n} {status.replace('_', ' ')}" for status, n in counts.items() if status != "exists" and n]
    return ", ".join(parts) + f" (grade {letter})"


async def check_bibliography(text: str, settings: Settings, *, fmt: str | None = None, cache: bool = True,
                             transport: httpx.AsyncBaseTransport | None = None) -> ListReport:
    """Parse a bibliography and check every entry: what ``citemark refs`` and ``check_references`` run."""
    if not settings.scholarly_lookups:
        raise InputError("scholarly lookups are turned off (scholarly_lookups = false): nothing to check against")
    if len(text) > settings.max_answer_chars:
        raise AnswerTooLargeError(f"bibliography of {len(text):,} characters is over the limit")
    references = await asyncio.to_thread(parse_references, text, fmt)  # off the loop: an MCP server keeps serving
    async with Services(settings, transport=transport, cache=cache) as services:
        return await check_references(references, services)


async def check_references(references: list[Reference], services: Services, *, concurrency: int = 4) -> ListReport:
    """Check every reference (the services' pacers keep the request rate polite)."""
    slots = asyncio.Semaphore(concurrency)

    async def one(reference: Reference) -> ReferenceResult:
        async with slots:
            return await check_reference(reference, services)

    return ListReport(results=list(await asyncio.gather(*(one(r) for r in references))))


#: Longer than any one reference: such an "entry" is running text (a paper's body, a pasted page), and
#: its words are not sent anywhere. The longest real titles and entries are far below these.
MAX_ENTRY_CHARS = 3_000
MAX_TITLE_CHARS = 400
MAX_AUTHOR_CHARS = 100


async def check_reference(reference: Reference, services: Services) -> ReferenceResult:
    refused = _not_a_reference(reference)
    if refused:
        return ReferenceResult(reference, Status.UNVERIFIABLE, f"{refused}: nothing was sent.",
                               fix="Correct the entry: one reference, with a DOI as the publisher gives it.")
    try:
        if reference.doi:
            return await _by_doi(reference, services)
        if reference.arxiv_id:
            return await _by_arxiv(reference, services)
        if reference.title:
            return await _by_title(reference, services)
    except LookupUnavailable as error:
        return ReferenceResult(reference, Status.UNVERIFIABLE, f"Could not be checked: {error.message}.",
                               fix="Check it again later (a scholarly service did not answer usably).")
    return ReferenceResult(reference, Status.UNVERIFIABLE, "No DOI, arXiv id or title could be read from this entry.",
                           fix="Write the entry with at least its title, first author and year.")


def _not_a_reference(reference: Reference) -> str | None:
    """Why this entry's text must not go to a service, if it must not."""
    problem = doi_problem(reference.doi) if reference.doi else None
    if problem:
        return f"Its DOI {reference.doi!r} is not a DOI ({problem})"
    if len(reference.raw) > MAX_ENTRY_CHARS:
        return f"The entry is {len(reference.raw):,} characters long: not one reference"
    if reference.title and len(reference.title) > MAX_TITLE_CHARS:
        return f"Its title would be {len(reference.title):,} characters long: not one reference"
    if reference.authors and len(reference.authors[0]) > MAX_AUTHOR_CHARS:
        return "Its first author's name would be over 100 characters long: not one reference"
    return None


async def _by_doi(reference: Reference, services: Services) -> ReferenceResult:
    doi = reference.doi or ""
    failure: LookupUnavailable | None = None
    work = None
    try:
        work = await services.crossref.work(doi)
    except LookupUnavailable as error:
        failure = error
    if work is None:
        try:
            work = await services.openalex.work(doi)
        except LookupUnavailable as error:
            failure = failure or error
    if work is not None:
        result = _judged(reference, work, "doi")
        if result.status == Status.MISMATCH and any(d.field == "title" for d in result.differences):
            meant = await _meant(reference, services)
            if meant is not None and meant.doi and meant.doi != work.doi:
                result = replace(result, fix=f"The DOI is another paper's: '{reference.title}' is doi:{meant.doi}"
                                             f" ({_describe(meant)}).")
        return result
    if failure is not None:
        raise failure
    fix = f"The DOI {doi} is not registered: correct it or remove the reference."
    meant = await _meant(reference, services) if reference.title else None
    if meant is not None and meant.doi:
        fix = f"The DOI {doi} is not registered; the paper with this title has DOI {meant.doi}."
    return ReferenceResult(reference, Status.NOT_FOUND, f"No record of DOI {doi} at Crossref or OpenAlex.",
                           fix=fix, resolved_by="doi")


async def _meant(reference: Reference, services: Services) -> Work | None:
    """The paper the cited title names, when a search finds it exactly (a hint for the fix; failures are quiet)."""
    try:
        found = await _search(reference, services)
    except LookupUnavailable:
        return None
    return found if found is not None and same_title(reference.title or "", found.title) else None


async def _by_arxiv(reference: Reference, services: Services) -> ReferenceResult:
    work = await services.arxiv.paper(reference.arxiv_id or "")
    if work is None:
        return ReferenceResult(reference, Status.NOT_FOUND, f"arXiv has no paper {reference.arxiv_id}.",
                               fix=f"The arXiv id {reference.arxiv_id} does not exist: correct it or remove the reference.",
                               resolved_by="arxiv")
    return _judged(reference, work, "arxiv")


async def _by_title(reference: Reference, services: Services) -> ReferenceResult:
    best = await _search(reference, services)
    title = reference.title or ""
    if best is None or title_similarity(title, best.title) < NEAR_MISS:
        return ReferenceResult(reference, Status.NOT_FOUND,
                               "No paper with this title was found at Crossref, arXiv or OpenAlex.",
                               fix="The paper may not exist: find the source of this claim or remove the reference.",
                               resolved_by="title")
    return _judged(reference, best, "title")


async def _search(reference: Reference, services: Services) -> Work | None:
    """The best candidate across the services: an exact title first, else the nearest one."""
    title, author = reference.title or "", (reference.authors[0] if reference.authors else None)
    candidates: list[Work] = []
    failures: list[LookupUnavailable] = []
    searches = (
        lambda: services.crossref.search(title, author),
        lambda: services.arxiv.search(title, author),
        lambda: services.openalex.search(title),
    )
    for search in searches:
        try:
            found = await search()
        except LookupUnavailable as error:
            failures.append(error)
            continue
        candidates += found
        exact = [w for w in found if same_title(title, w.title)]
        if exact:
            return min(exact, key=lambda w: len(compare(reference, w)))
    best = max(candidates, key=lambda w: title_similarity(title, w.title), default=None)
    if failures and (best is None or title_similarity(title, best.title) < NEAR_MISS):
        raise failures[0]  # a service that did not answer might have held the paper: no "not found" from silence
    return best


def _judged(reference: Reference, work: Work, how: str) -> ReferenceResult:
    differences = tuple(compare(reference, work))
    record = _describe(work)
    if work.retracted:
        notice = work.retraction_notice()
        return ReferenceResult(reference, Status.RETRACTED, f"{record} is retracted: {notice}.", work, differences,
                               fix="Do not cite it as support; if it must be cited, cite the notice with it.",
                               resolved_by=how)
    if differences:
        fields = ", ".join(d.field.replace("_", " ") for d in differences)
        return ReferenceResult(
            reference, Status.MISMATCH, "; ".join(d.describe() for d in differences) + ".", work, differences,
            fix=f"Correct the {fields} to match {record}" + (" — or cite the paper you meant." if how != "title" else "."),
            resolved_by=how,
        )
    others = [u.describe() for u in work.updates if not u.retracting]  # corrections, errata: the work stands
    note = f" It has been updated: {'; '.join(others)}." if others else ""
    return ReferenceResult(reference, Status.EXISTS, f"Found: {record}.{note}", work, resolved_by=how,
                           fix="Check the cited details against the correction." if others else None)


def _describe(work: Work) -> str:
    who = f"{work.authors[0]}{' et al.' if len(work.authors) > 1 else ''}, " if work.authors else ""
    ident = f"doi:{work.doi}" if work.doi else f"arXiv:{work.arxiv_id}" if work.arxiv_id else work.service
    return f"{who}'{work.title}' ({work.year or 'n.d.'}, {ident})"
