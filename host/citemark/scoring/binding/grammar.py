"""The reading every binding check shares: tokens with their sentence and clause, the claim's words
aligned with the evidence's, how far a negation reaches, verb forms, and names.

Every check reads the claim and the evidence through these helpers and through nothing of another
check's. Kept here, at the bottom of the package and importing no other module of it, they let each
check be read and changed on its own, with no import circle. The checks call them through the module
(``grammar.stem``, ``grammar.names``): ``grammar.stem`` is not ``lexical.stem`` (it stems twice), and
``aligned`` and ``names`` are also the names of the checks' parameters. ``Token`` and ``tokenize``,
which are in nearly every signature, are imported by name.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from citemark.scoring import lexical
from citemark.scoring.words import MONTHS, WEEKDAYS

# --------------------------------------------------------------------------------------- tokens

def words(text: str) -> list[str]:
    return text.split()


def stem(word: str) -> str:
    """The lexical stem, taken twice, so that "buildings" and "building" meet at "build", and
    without a final "e", so that "include" and "includes" meet at "includ"."""
    stemmed = lexical.stem(lexical.stem(word))
    return stemmed[:-1] if len(stemmed) > 4 and stemmed.endswith("e") else stemmed


def inflections(word: str) -> set[str]:
    """The stems of a word's usual forms: "oppose" → oppose, opposes, opposed, opposing."""
    forms = {word, word + "s", word + "ed", word + "ing", word + "es"}
    if word.endswith("e"):
        forms |= {word + "d", word[:-1] + "ing"}
    return {stem(form) for form in forms}


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    lower: str
    stem: str
    start: int
    end: int
    sentence: int
    clause: int
    capital: bool
    joined: bool = False  # only spaces (or "&") between it and the word before ("Mozilla Research", not "March, JetBlue")


_WORD = re.compile(r"[^\W_]+(?:[.,'’][^\W_]+)*|[;:\u2014]|\s[\u2013-]\s", re.UNICODE)
#: A clause ends at these words when a comma stands before them ("…, with contributions from …").
_COMMA_BREAKS = frozenset(["with", "who", "which", "while", "whereas", "but", "although", "though", "unlike",
                           "compared", "followed", "ahead", "behind", "beating", "defeating", "whose", "where",
                           "when", "after", "before", "as", "making", "leaving", "and"])
_BREAKS = frozenset(["but", "whereas", "while", "although", ";", ":", "—", "–", "-"])
RELATIVES = frozenset(["which", "who", "whose"])
_SENTENCE_END = re.compile(r"[.!?]+[\"'”’)\]]*\s+(?=[\"'“‘(\[]*[A-Z0-9])|\n+")


@functools.lru_cache(maxsize=65536)
def _folded(raw: str) -> str:
    """A word in lower case without its accents, its apostrophe straight ("Zürich" → "zurich", "don’t" →
    "don't": a page's typographic apostrophe must not hide its negation)."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", raw.lower().replace("’", "'"))
                   if not unicodedata.combining(ch))


def tokenize(text: str) -> list[Token]:
    """Words with their sentence and clause numbers (punctuation only marks boundaries)."""
    return list(_tokenized(text))


# The binding checks and the comparisons read the same claim and passages: tokenize each once (a few
# hundred texts: the claims and windows of the requests in flight).
@functools.lru_cache(maxsize=256)
def _tokenized(text: str) -> tuple[Token, ...]:
    sentence_starts = [0] + [m.end() for m in _SENTENCE_END.finditer(text)]
    tokens: list[Token] = []
    sentence = clause = 0
    boundary = 1
    relative = False  # the clause is a relative one opened by ", which" / ", who"
    for match in _WORD.finditer(text):
        raw = match.group().strip()
        while boundary < len(sentence_starts) and match.start() >= sentence_starts[boundary]:
            boundary += 1
            sentence += 1
            clause += 1
            relative = False
        if raw in _BREAKS:
            clause += 1
            relative = False
            continue
        lower = _folded(raw)
        if not lower:
            continue  # a lone combining mark ("ﾞ")
        before = text[max(0, match.start() - 2) : match.start()]
        if "," in before and lower in _COMMA_BREAKS or lower in _BREAKS or (
                lower == "from" and tokens and tokens[-1].lower in ("up", "down")) or (
                lower in ("with", "to") and tokens and tokens[-1].lower == "compared"):
            clause += 1  # "…, down from 4.6 million": the figure compared with is another clause's
            relative = "," in before and lower in RELATIVES
        elif relative and "," in before and past_or_present(lower):
            clause += 1  # "KR-2, which was developed by …, broke down 62%": the main clause goes on
            relative = False
        token_stem = lower.replace(",", "") if lower[0].isdigit() else stem(
            LEMMAS.get(lower, re.sub(r"['’]s$", "", lower)))
        joined = bool(tokens) and text[tokens[-1].end : match.start()].strip() in ("", "&")  # "Holt & Greaves"
        tokens.append(Token(raw, lower, token_stem, match.start(), match.end(), sentence, clause, raw[0].isupper(),
                            joined))
    return tuple(tokens)


# ---------------------------------------------------------------------------------------- words

#: The binding checks' function words: fewer than ``words.STOP_WORDS``, which drops quantifiers,
#: order and comparison words ("more", "only", "first") that decide who did what to whom.
STOP = frozenset(
    words("a an the of to in on at by for from with as is are was were be been being has have had do does did it its "
    "this that these those there their his her he she they we you i and or so than then also which who whom whose "
    "what when where while about into over under after before during between among per via s off him them me us "
    "itself himself herself themselves can could will "
    "would may might must should shall")
)


def content(token: Token) -> bool:
    return token.lower not in STOP and token.lower not in NEGATORS and len(token.lower) > 1


def aligned(claim: list[Token], evidence: list[Token]) -> dict[int, list[int]]:
    """Claim token index → the evidence token indexes with the same stem (content words only)."""
    where: dict[str, list[int]] = {}
    for j, token in enumerate(evidence):
        if content(token):
            where.setdefault(token.stem, []).append(j)
    return {i: where[t.stem] for i, t in enumerate(claim) if content(t) and t.stem in where}


def neighbours(tokens: list[Token], i: int, aligned: dict[int, list[int]], step: int, reach: int = 4) -> list[int]:
    """Aligned content words within ``reach`` words of ``i`` on one side, nearest first, same clause."""
    result, k = [], i + step
    while 0 <= k < len(tokens) and abs(k - i) <= reach and tokens[k].clause == tokens[i].clause:
        if k in aligned:
            result.append(k)
        k += step
    return result


# ------------------------------------------------------------------------------- negation scope

NEGATORS = frozenset(["not", "no", "never", "none", "neither", "nor", "without", "cannot", "lacks", "lack",
                      "lacked", "lacking", "nobody", "nothing", "nowhere", "n't", "absent",
                      # "banned" is "not allowed": a claim that says one agrees with a source that says the other
                      "banned", "prohibited", "forbidden"])
#: Multi-word negators, as lower-case word sequences.
PHRASES = (("no", "longer"), ("rather", "than"), ("instead", "of"), ("far", "from"), ("fails", "to"),
           ("failed", "to"), ("fail", "to"), ("unable", "to"), ("refused", "to"), ("refuses", "to"),
           ("free", "of"), ("absence", "of"), ("ruled", "out"), ("rules", "out"), ("other", "than"),
           ("stops", "short", "of"), ("stopped", "short", "of"), ("stop", "short", "of"), ("decided", "against"),
           ("voted", "against"), ("opted", "against"), ("declined", "to"), ("declines", "to"), ("yet", "to"),
           ("rejected", "calls", "to"), ("rejected", "a", "proposal", "to"), ("rejected", "plans", "to"))
#: The phrases by their first word, in PHRASES' order: a token is compared only with the phrases it can open
#: (each token against every phrase held the interpreter longest of all judging: the batch-speed issue's profile).
_PHRASES_FROM: dict[str, tuple[tuple[str, ...], ...]] = {}
for _phrase in PHRASES:
    _PHRASES_FROM[_phrase[0]] = (*_PHRASES_FROM.get(_phrase[0], ()), _phrase)
#: Words after "not" that make it deny nothing, or deny only a degree ("not only", "no later than").
_NOT_DENYING = frozenset(["only", "just", "merely", "simply", "least", "until", "later", "earlier", "less",
                          "more", "fewer", "doubt", "sooner", "unlike", "unusual", "uncommon", "surprisingly"])
AUXILIARIES = frozenset(words("is are was were has have had can could will would may might must should does did shall"))
PRONOUNS = frozenset(words("i you he she it we they this that there"))
#: How many words a negation reaches.
SCOPE = 8
#: Privatives bind only their object: "without a garbage collector", "instead of oil".
PRIVATIVE_SCOPE = 5


def negation_scopes(tokens: list[Token], reach: int | None = None) -> list[tuple[int, int, str]]:
    """(first, last, cue) token ranges that a negation covers, within one clause (``reach``: how
    many words a plain negation covers at most)."""
    plain_reach = SCOPE if reach is None else reach
    scopes = []
    n = len(tokens)
    i = 0
    while i < n:
        token = tokens[i]
        lower = token.lower
        cue, width, reach = None, 1, plain_reach
        for phrase in _PHRASES_FROM.get(lower, ()):
            if tuple(t.lower for t in tokens[i : i + len(phrase)]) == phrase:
                cue, width = " ".join(phrase), len(phrase)
                reach = PRIVATIVE_SCOPE if phrase in (("rather", "than"), ("instead", "of"), ("free", "of"),
                                                      ("other", "than")) else plain_reach
                break
        if cue is None and (lower in NEGATORS or lower.endswith("n't")):
            cue = lower
            if lower == "without":
                reach = PRIVATIVE_SCOPE
        if cue is None:
            i += 1
            continue
        following = tokens[i + width] if i + width < n else None
        soon = {t.lower for t in tokens[i + width : i + width + 3]}
        if (cue in ("not", "no") or cue.endswith("n't")) and (following is not None and following.lower in _NOT_DENYING
                                                             or soon & {"only", "just", "merely", "solely"}):
            i += width
            continue
        if cue == "not" and i > 0 and tokens[i - 1].lower in ("if", "whether", "or"):
            i += width
            continue
        if following is not None and following.lower in PRONOUNS and cue.endswith("n't"):
            i += width  # "aren't they", "isn't it": a tag question denies nothing
            continue
        last = i + width - 1
        while last + 1 < n and last + 1 - (i + width) < reach and tokens[last + 1].clause == token.clause:
            nxt = tokens[last + 1]
            if not nxt.joined and last + 1 > i + width:
                break  # "but not naive, CD4+ cells …": a comma ends what a negation covers
            if nxt.lower in ("and", "or") and last + 2 < n and (tokens[last + 2].lower in AUXILIARIES | PRONOUNS | {
                    "then", "plus", "also", "so", "yet", "still"} or past_or_present(tokens[last + 2].lower)):
                break  # "refuses to do it and considers leaving": the second verb is its own
            if nxt.lower in ("but", "which", "because", "so", "since"):
                break
            if nxt.lower == "that" and not _reports(tokens[last]):
                break  # "the cells that produce" ends it; "stops short of claiming that …" does not
            last += 1
        if last >= i + width:
            scopes.append((i + width, last, cue))
        # A cue's own scope is also reached backwards for "X is absent", "X was ruled out".
        if cue in ("absent", "ruled out", "rules out") and i > 0:
            scopes.append((max(0, i - 3), i - 1, cue))
        i += width
    return scopes


def _reports(token: Token) -> bool:
    """A verb whose "that" clause it governs: "claiming that", "did not say that"."""
    return token.lower.endswith("ing") or lemma(token.lower) in _REPORTING


_REPORTING = frozenset(["say", "said", "claim", "show", "prove", "suggest", "find", "think", "believ", "expect",
                        "confirm", "stat", "report", "mean", "conclud", "agre"])


# ---------------------------------------------------------------------------------------- verbs

def claim_verb(tokens: list[Token], i: int) -> bool:
    """A verb of the claim, as far as a word's form tells: after an auxiliary or "to", or a past form."""
    token = tokens[i]
    if token.capital or not content(token):
        return False
    if i > 0 and tokens[i - 1].lower in AUXILIARIES | {"to", "will", "would", "can", "could", "may", "might"}:
        return True
    word = token.lower
    return word in IRREGULAR or word.endswith("ed") and (
        len(word) > 4 or len(word) == 4 and not word.endswith("eed") and word not in ("shed", "sled"))  # "sued", "owed"


LEMMAS = {"wrote": "write", "written": "write", "writes": "write", "led": "lead", "leads": "lead", "won": "win",
          "began": "begin", "begun": "begin", "built": "build", "made": "make", "makes": "make", "gave": "give",
          "given": "give", "took": "take", "taken": "take", "held": "hold", "holds": "hold", "sang": "sing",
          "sung": "sing", "drew": "draw", "drawn": "draw", "ran": "run", "beat": "beat", "beaten": "beat",
          "sold": "sell", "bought": "buy", "taught": "teach", "chose": "choose", "chosen": "choose",
          "oversaw": "oversee", "overseen": "oversee", "found": "find", "spoke": "speak", "broke": "break"}


def lemma(word: str) -> str:
    """One key for a verb's forms: "designed", "designs", "design" → "design"; "wrote", "written" → "write"."""
    if word in LEMMAS:
        return LEMMAS[word]
    return stem(word).removesuffix("e")


IRREGULAR = frozenset(words("""won built wrote led made found beat took gave sold bought lost ran drew began became
held sang taught brought met paid kept left told saw chose struck shot threw drove rode flew grew knew oversaw spoke
broke stole sent set put hit cut read lent"""))


def past_or_present(word: str) -> bool:
    """A verb form a name can be the subject of: "designed", "makes", "won"."""
    return word in IRREGULAR or (len(word) > 3 and word.endswith(("ed", "es", "s")) and not word.endswith("ss"))


BE = frozenset(words("is are was were be been being get got gets"))


# ---------------------------------------------------------------------------------------- names

#: Small words inside names ("Karl von Frisch", "Duke of Sussex").
PARTICLES = frozenset(["von", "van", "de", "la", "of", "der"])


def _model_number(tokens: list[Token], i: int) -> bool:
    """"Arc 5 weighs", "Brevantil 200 is", "City 3 Plus": a plain number after a name, before a verb,
    a name or the end, is the name's; "Kellenburg 120,000 thalers" is a figure."""
    if not tokens[i].lower.isdigit():
        return False
    following = tokens[i + 1] if i + 1 < len(tokens) and tokens[i + 1].sentence == tokens[i].sentence else None
    return following is None or following.capital or following.lower in BE or past_or_present(following.lower)


def series(tokens: list[Token]) -> frozenset[str]:
    """Capitalised words the text writes with two or more numbers after them, a product line's
    name: "Brevantil 100 … Brevantil 200", "the City 3 … the City 5"."""
    numbers: dict[str, set[str]] = {}
    for i, token in enumerate(tokens):
        if i and token.joined and token.lower.isdigit() and tokens[i - 1].capital:
            numbers.setdefault(tokens[i - 1].stem, set()).add(token.lower)
    return frozenset(word for word, seen in numbers.items() if len(seen) > 1)


def names(tokens: list[Token], common: frozenset[str] = frozenset(), series: frozenset[str] = frozenset()
          ) -> list[list[int]]:
    """Runs of capitalised words. A lone sentence opener is a name when the text also capitalises it
    mid-sentence, or when ``common`` (the words the texts write in lower case) is given and lacks it:
    "Pelby had a population of …" names Pelby where no text writes "pelby". A number after a word
    of a ``series`` is part of the name ("Brevantil 200 inhaler")."""
    runs: list[list[int]] = []
    run: list[int] = []
    for i, token in enumerate(tokens):
        particle = token.lower in PARTICLES and run and token.joined
        # "GR-2", "Kessler-42", "F-16": a number joined to a name by one character is part of it.
        numbered = bool(run) and token.lower[0].isdigit() and (
            token.start - tokens[i - 1].end == 1 and not token.joined or token.joined and (
                _model_number(tokens, i) or token.lower.isdigit() and tokens[i - 1].stem in series))
        # "Kessler-42 c", "Gliese 581 b": a lone letter after a numbered name is its last part.
        lettered = bool(run) and len(token.lower) == 1 and token.lower.isalpha() and not token.capital \
            and tokens[i - 1].lower[0].isdigit() and token.joined
        if numbered or lettered:
            run.append(i)
            continue
        if run and not token.joined:
            runs.append(run)
            run = []
        bare = re.sub(r"['’]s$", "", token.lower)
        if token.text.isupper() and len(token.text) == 3 and i + 1 < len(tokens) and tokens[i + 1].lower[0].isdigit():
            bare = "usd"  # "NOK 11.2 billion": a currency, not a party
        if (token.capital and not token.lower[0].isdigit() and bare not in STOP and bare not in _CALENDAR) or particle:
            run.append(i)
            continue
        if run:
            runs.append(run)
        run = []
    if run:
        runs.append(run)
    cleaned = []
    midsentence = {tokens[r[0]].lower for r in runs if r[0] > 0 and tokens[r[0] - 1].sentence == tokens[r[0]].sentence}
    for r in runs:
        while r and tokens[r[-1]].lower in PARTICLES:
            r = r[:-1]
        opens = r and (r[0] == 0 or tokens[r[0] - 1].sentence != tokens[r[0]].sentence)
        if opens and len(r) == 1 and tokens[r[0]].lower not in midsentence and (
                not common or re.sub(r"['’]s$", "", tokens[r[0]].lower) in common):
            continue  # "Calder sued" counts where the text also writes "paid Calder"
        if r:
            cleaned.append(r)
    return cleaned


#: Days and months are capitalised but name no party: "overnight Monday about 2 miles". Not "may",
#: far more often the verb than the month.
_CALENDAR = frozenset({"usd", *WEEKDAYS, *MONTHS} - {"may"})


def name_key(tokens: list[Token], run: list[int]) -> frozenset[str]:
    return frozenset(tokens[i].stem for i in run if tokens[i].lower not in PARTICLES)


def name_key_of(tokens: list[Token], runs: list[list[int]]) -> frozenset[str]:
    """The word stems of all the names in ``runs``."""
    return frozenset().union(*(name_key(tokens, run) for run in runs))


DETERMINERS = frozenset(words("the a an its their his her our this that these those whose"))
_DEMONYMS = frozenset(words("""dutch french greek thai swiss irish welsh scottish british english danish swedish
finnish polish turkish spanish czech scots"""))


def demonym(word: str) -> bool:
    return word in _DEMONYMS or (len(word) > 4 and word.endswith(("ian", "ean", "ese", "ish")))


#: Words that open sentences without naming anyone: "Some participants …", "However, …".
_OPENERS = frozenset(words("""some all most many much few several each every both either neither no none any
another other such only even just yet but nor not however although though because since if unless once until
after before here today now then thus hence instead later earlier meanwhile overall together currently recently"""))


#: Capitalised words that are no party of a relation.
NO_PARTY = STOP | _OPENERS
