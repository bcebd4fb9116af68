"""Number and name guards: a claim whose figures or names the source does not state cannot be "supported".

Small NLI models are weak exactly where citations go wrong: "grew 12 %" vs "grew
21 %", "in 2019" vs "in 2016", "Oxford" vs "Cambridge". These checks are exact
and cheap. Each number in the claim must appear in the source (values compared
after normalising "1,200" / "1.2 thousand" / "twelve hundred" spellings, with a
small tolerance for rounding); each name must appear in the source, and near the
passage quoted as evidence (how near depends on whether it is the claim's subject).
Presence is not enough: ``binding`` then reads whether the quoted passage
attaches those figures and names, and the claim's words, the way the claim does
(negation scope, opposites, roles, figures of another subject); its findings
travel in ``GuardResult.binding``.

Run ``python -m citemark.scoring.guards`` for a small demonstration.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace

from citemark.scoring import binding, comparisons, tables
from citemark.scoring.binding import Binding
from citemark.scoring.lexical import stem, terms
from citemark.scoring.quantities import parse_quantities, same_quantity, stated_in, worded_as_difference, worked_out
from citemark.scoring.words import MONTH_ABBREVIATIONS

__all__ = ["GuardResult", "check", "entities", "name_forms", "name_spans"]

_ENTITY = re.compile(r"\b(?:[A-Z][\w'’&.-]*[A-Za-z0-9]|[A-Z])(?:\s+(?:of|de|la|von|van|the|&)?\s*[A-Z][\w'’&.-]*)*")
_NEGATION = re.compile(
    r"\b(?:not|no|never|none|nobody|nothing|neither|nor|without|cannot|lacks?|lacked|failed|fails|"
    r"unable|refused|denied|denies)\b|n['’]t\b", re.IGNORECASE)
#: Phrases with a negation word that deny nothing: "not only … but", "doesn't just", "if not treated".
_NOT_DENIALS = re.compile(r"(?:\bnot|n['’]t)\s+(?:only|just|merely|simply)\b|\bif not\b|\bwhether or not\b", re.IGNORECASE)


#: Evidence that states a claim's "not" in other words: "a 20 cm telescope rather than a professional one".
_PRIVATIVES = re.compile(r"\b(?:" + "|".join(cue.replace(" ", r"\s+") for cue in binding.CONTRASTIVE) + r")\b",
                         re.IGNORECASE)


def _negates(text: str) -> bool:
    return bool(_NEGATION.search(_NOT_DENIALS.sub(" ", text)))


_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+|\n)\W*$")


#: "4. Turn it on" / "(2) Mix" / "…the following steps: 1." are list items, not figures.
_LIST_MARKERS = re.compile(r"^\s*\(?\d{1,2}[.)](?=\s)|(?<=:)\s*\d{1,2}\.?\s*$")


def entities(text: str) -> list[str]:
    """Capitalised names in ``text`` (sentence-initial common words left out)."""
    return [name for name, _, _ in _names(text)]


def name_spans(text: str) -> list[tuple[str, bool, int]]:
    """(name, alias, start) of each name in ``text``: the names ``_names`` reads, for the alignment."""
    return _names(text)


def name_forms(word: str) -> frozenset[str]:
    """The spellings a lower-cased name word is matched by (see ``_name_forms``)."""
    return _name_forms(word)


def _names(text: str) -> list[tuple[str, bool, int]]:
    """(name, alias, start) triples. An *alias* is what the claim itself defines in parentheses
    ("the cardiothoracic ratio (CTR)"): the source need not use it. A lone capitalised
    word opening a sentence stays a name: "Omega is the first letter" must not pass
    on a source about Alpha. Unless it reads as a common word: an instruction
    ("Ensure…", "Choose…") or a word with a common-word ending ("Cycling…",
    "Professional…", "Studies…") that AI answers open sentences with all the time."""
    result = []
    for match in _ENTITY.finditer(text):
        name = match.group(0).strip(" .")
        opens_sentence = bool(_SENTENCE_START.search(text[: match.start()]))
        first, _, rest = name.partition(" ")
        if rest and (_bare(first) in _COMMON_STARTERS or (opens_sentence and first.lower() in _INSTRUCTIONS)):
            name = rest  # "The Guardian" → "Guardian"; "Follow Web Content Accessibility Guidelines" → "Web …"
        # "The", "In", "However", "It's" start sentences: a capitalised common word is no name.
        at_start = opens_sentence and " " not in name
        if _bare(name) in _COMMON_STARTERS or (at_start and (len(name) <= 2 or _common_word(name))):
            continue
        alias = text[match.start() - 1 : match.start()] == "(" and text[match.end() : match.end() + 1] == ")"
        result.append((name, alias, match.start()))
    return result


def _bare(word: str) -> str:
    """Lower case, without a contraction's or possessive's "'s" ("What's" → "what")."""
    return re.sub(r"['’]s$", "", word.lower())


#: Words inside names that say nothing about which name it is ("Duke of Sussex", "van Gogh").
_NAME_PARTICLES = frozenset(["of", "de", "la", "von", "van", "the"])
#: How far into the claim its subject may start.
SUBJECT_WORDS = 2


def _is_subject(claim: str, start: int) -> bool:
    """Whether a name at ``start`` is the claim's subject ("Smith died…", "In 2013, White
    recorded…"): at most SUBJECT_WORDS words before it."""
    return len(claim[:start].split()) <= SUBJECT_WORDS


#: Words that open a sentence capitalised and are never names: its own list, not ``words.STOP_WORDS``,
#: since it holds discourse words and numbers ("Moreover", "Two") and leaves out words that do name
#: ("May", "Will").
_COMMON_STARTERS = frozenset(
    ["the", "a", "an", "in", "on", "at", "as", "it", "its", "this", "that", "these", "those", "there", "he", "she", "they", "we", "i", "you", "his", "her", "their", "our", "however", "but", "and", "or", "so", "then", "also", "after", "before", "during", "when", "while", "although", "though", "because", "if", "since", "according", "today", "yes", "no", "many", "most", "some", "several", "one", "two", "three", "first", "second", "later", "earlier", "overall", "additionally", "furthermore", "moreover", "finally", "meanwhile", "instead", "thus", "therefore",
     # discourse words and function words that open sentences and are never names
     "specifically", "nevertheless", "nonetheless", "such", "another", "other", "others", "each", "every", "both", "all",
     "any", "similarly", "likewise", "consequently", "hence", "accordingly", "notably", "importantly", "generally",
     "typically", "usually", "often", "sometimes", "currently", "recently", "historically", "ultimately", "initially",
     "eventually", "alternatively", "conversely", "indeed", "still", "yet", "even", "only", "here", "now", "what",
     "which", "who", "where", "why", "how", "unlike", "despite", "for", "from", "by", "with", "without", "to", "of",
     "is", "are", "was", "were", "do", "does", "did", "can", "could", "should", "would"]
)


#: Verbs that open instructions ("Ensure she rests", "Choose a location").
_INSTRUCTIONS = frozenset(
    ["add", "apply", "ask", "assess", "avoid", "be", "build", "call", "check", "choose", "click", "collect", "compare",
     "consider", "contact", "create", "define", "determine", "develop", "do", "drink", "eat", "employ", "encourage",
     "engage", "ensure", "establish", "evaluate", "explore", "find", "follow", "focus", "get", "give", "go", "guide",
     "help", "identify", "implement", "include", "install", "invest", "keep", "learn", "let", "limit", "listen",
     "maintain", "make", "measure", "monitor", "note", "offer", "open", "place", "plan", "practice", "practise",
     "prepare", "prioritize", "prioritise", "promote", "provide", "put", "read", "recommend", "reduce", "remember",
     "remind", "remove", "review", "run", "seek", "select", "set", "share", "start", "stay", "stop", "take", "talk",
     "tell", "test", "try", "turn", "understand", "update", "use", "verify", "visit", "wait", "wash", "watch", "wear",
     "write", "once", "unlike"]
)
_COMMON_ENDINGS = ("ing", "ed", "ly", "ive", "al", "ous", "ful", "less", "able", "ible", "ment", "ments", "ness", "ity",
                   "ion", "ions", "ies", "ize", "ise", "ate")


def _common_word(word: str) -> bool:
    """A sentence-opening word that is most likely not a name (no dictionary: a short list and word endings)."""
    lower = word.lower()
    return lower in _INSTRUCTIONS or (len(lower) > 5 and lower.endswith(_COMMON_ENDINGS))


@dataclass(frozen=True, slots=True)
class GuardResult:
    """What the claim states that the source does not."""

    missing_numbers: tuple[str, ...] = ()  # claim figures found nowhere in the source
    conflicting_numbers: tuple[str, ...] = ()  # ... while the evidence states other figures of the kind
    missing_names: tuple[str, ...] = ()  # claim names found nowhere in the source
    unstated_names: tuple[str, ...] = ()  # claim names in the source, but not near the evidence window
    negation_mismatch: bool = False  # the claim negates, the evidence does not
    worked_out: tuple[str, ...] = ()  # claim figures the source does not state but two of its figures give
    binding: Binding = Binding()  # what the evidence attaches differently (negation scope, opposites, roles, figures)

    @property
    def number_mismatch(self) -> bool:
        return bool(self.missing_numbers)

    @property
    def entity_mismatch(self) -> bool:
        return bool(self.missing_names)


def check(
    claim: str, evidence: str, document: str, nearby: str | None = None, around: str | None = None,
    neighbourhood: str | None = None, retrieved: str | None = None, wider: str | None = None,
) -> GuardResult:
    """Compare the claim's figures and names with the evidence window and the whole source.

    A name must appear close to the evidence to count as stated by it. How close depends
    on its role: pages name their subject once (in the opening, or a few sentences up)
    and then say "he" or "the company", so the claim's *subject* may appear anywhere
    ``nearby`` (the evidence with its neighbouring sentences and the page's opening);
    every other name must be ``around`` the evidence (it and a sentence or two either
    side). A name swapped for another one from the same page is mostly caught here.
    """
    claim_numbers = parse_quantities(_LIST_MARKERS.sub(" ", claim))
    document_numbers = stated_in(document) if claim_numbers else ()
    evidence_numbers = parse_quantities(evidence) if claim_numbers else []
    unstated = [q for q in claim_numbers if not any(same_quantity(q, other) for other in document_numbers)]
    missing = [q.text for q in unstated]
    conflicting = [q.text for q in unstated if any(other.is_year == q.is_year for other in evidence_numbers)]
    derived = []  # a figure the claim words as a difference, worked out from two figures of the passage
    differences = [q for q in unstated if worded_as_difference(claim, q)]
    if differences and not _negates(claim):  # (the quoted window and two sentences either side)
        passage = parse_quantities(neighbourhood) if neighbourhood is not None else evidence_numbers
        for quantity in differences:
            if pair := worked_out(quantity, passage):
                derived.append(f"{quantity.text} (from {pair[0].text} and {pair[1].text})")
    names = _names(claim)
    if names:  # a source's name words are read only for claims that name something
        document_terms = _document_name_words(document)
        subject_terms = _name_words(nearby if nearby is not None else evidence)
        other_terms = _name_words(around if around is not None else evidence)
    missing_names, unstated_names = [], []
    for name, alias, start in names:
        words = [_name_forms(w) for w in terms(name) if len(w) > 1 and w not in _NAME_PARTICLES]
        if alias or not words:
            continue
        if sum(bool(w & document_terms) for w in words) / len(words) < 0.5:
            missing_names.append(name)
            continue
        if _is_subject(claim, start):
            stated = sum(bool(w & subject_terms) for w in words) / len(words) >= 0.5
        else:  # every word: "Marina of Sussex" is not stated by "Duke of Sussex"
            stated = all(w & other_terms for w in words)
        if not stated:
            unstated_names.append(name)
    negated = _negates(claim) and not (_negates(evidence) or _PRIVATIVES.search(evidence))
    bound = binding.check(claim, evidence, neighbourhood, retrieved, wider, document_numbers)
    # Comparisons are read around the quoted passage, and in the further passages retrieval found
    # (the sentence with both subjects' figures need not be the one that best matches the claim).
    misordered = tuple(dict.fromkeys(found for text in (neighbourhood if neighbourhood is not None else evidence, wider)
                                     if text for found in comparisons.misordered(claim, text)))
    if misordered:  # a comparison the source's figures turn round is the opposite of what it states
        bound = replace(bound, opposites=bound.opposites + misordered)
    if tabled := tables.misplaced(claim, document):  # a figure the source's table gives another column
        bound = replace(bound, unbound_figures=bound.unbound_figures + tabled)
    if ranked := tables.misranked(claim, document):  # "the lightest", where the table says otherwise
        bound = replace(bound, opposites=bound.opposites + ranked)
    return GuardResult(
        missing_numbers=tuple(missing), conflicting_numbers=tuple(conflicting), missing_names=tuple(missing_names),
        unstated_names=tuple(unstated_names),
        negation_mismatch=negated, worked_out=tuple(derived), binding=bound,
    )


_DOTTED_ACRONYM = re.compile(r"\b(?:[A-Za-z]\.){2,}")


# Every claim citing a source is checked against the whole source: read its name words
# once per source, not once per claim (a long page is cited many times; a batch returns to hundreds of sources).
@functools.lru_cache(maxsize=512)
def _document_name_words(document: str) -> frozenset[str]:
    return frozenset(_name_words(document))


def _name_words(text: str) -> set[str]:
    """The words a name may be matched against, spelled as a name's words are compared
    (``_name_forms``), with "U.S." as "us"."""
    words = {form for w in terms(text) for form in _name_forms(w)}
    words |= {m.group().replace(".", "").lower() for m in _DOTTED_ACRONYM.finditer(text)}
    words |= _acronyms(text)
    return words


_CAPITALISED_RUN = re.compile(r"\b[A-Z][a-z]+(?:\s+(?:(?:of|and|for|the|on|in|&)\s+)?[A-Z][a-z]+)+")


def _acronyms(text: str) -> set[str]:
    """What a run of capitalised words abbreviates to: "National Basketball Association"
    states "NBA", "Securities and Exchange Commission" "SEC"."""
    found = set()
    for match in _CAPITALISED_RUN.finditer(text):
        words = match.group().split()
        if words[0].lower() in _COMMON_STARTERS:  # "The Securities and Exchange Commission"
            words = words[1:]
        initials = "".join(word[0] for word in words if word[0].isupper()).lower()
        if 3 <= len(initials) <= 6:  # two letters match too many pairs of names by chance
            found.add(initials)
    return found


#: Demonyms whose country no ending rule gives ("Scottish" / "Scotland"), each way.
_COUNTRY_OF = {
    "scottish": "scotland", "british": "britain", "irish": "ireland", "danish": "denmark", "spanish": "spain",
    "polish": "poland", "swedish": "sweden", "finnish": "finland", "turkish": "turkey", "english": "england",
    "welsh": "wales", "french": "france", "dutch": "netherlands", "swiss": "switzerland", "greek": "greece",
    "thai": "thailand", "norwegian": "norway", "icelandic": "iceland", "portuguese": "portugal",
}
_DEMONYM_OF = {stem(country): demonym for demonym, country in _COUNTRY_OF.items()}


@functools.lru_cache(maxsize=65536)
def _name_forms(word: str) -> frozenset[str]:
    """The spellings a name word is matched by: stemmed ("Presidents'" finds "President's",
    "Olympics" "Olympic"); a month's abbreviation as the month ("Nov." is "November");
    and for the common demonym endings the country's stem too, so that "South African"
    and "South Africa", "Chinese" and "China" match whichever of the two the claim and
    the source use."""
    if word in MONTH_ABBREVIATIONS:
        return frozenset({word, stem(MONTH_ABBREVIATIONS[word])})
    if word in _COUNTRY_OF:
        return frozenset({stem(word), stem(_COUNTRY_OF[word])})
    form = stem(word)
    if form in _DEMONYM_OF:
        return frozenset({form, stem(_DEMONYM_OF[form])})
    if len(form) >= 5 and form.endswith("an"):  # African, American, Korean, Indian, Russian
        return frozenset({form, form[:-1]})
    if len(form) >= 7 and form.endswith("ese"):  # Chinese, Japanese, Vietnamese
        return frozenset({form, form[:-3], form[:-3] + "a"})
    return frozenset({form})


if __name__ == "__main__":
    source = "Revenue grew 21% in 2019 to $3,512,000. The company is based in Oxford."
    for claim in (
        "Revenue grew 21 percent in 2019 to about 3.5 million dollars.",
        "Revenue grew 12% in 2016.",
        "The Cambridge company saw revenue grow.",
    ):
        print(claim, "->", check(claim, source, source))
