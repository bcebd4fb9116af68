"""Comparisons against the source's own figures: "the Plus is lighter than the City 3" where the
page gives the Plus 24 kg and the City 3 21.5 kg.

A comparative claim shares every word with a page that states the opposite order, and the
page rarely says "heavier" itself: it gives each subject its figure. This reads the two sides
of the claim's comparison ("A … lighter than B", "rose in 2025 compared with 2024"), finds
the figure the source attaches to each side (the clause that names that side and not the
other), and reports a comparison the figures turn round. It stays silent unless each side has
exactly one figure of one kind, so a passage it cannot read leaves the claim alone.
"""

from __future__ import annotations

from citemark.scoring.binding import Token, tokenize
from citemark.scoring.quantities import Quantity, comparable, parse_quantities

__all__ = ["COMPARATIVES", "by_time", "misordered", "side_figures", "side_words", "superlative"]

#: comparative → (+1 "more", −1 "less"; the figure kinds it compares, None for any kind).
COMPARATIVES: dict[str, tuple[int, frozenset[str] | None]] = {}
for _words_, _sign, _kinds in (
    ("heavier", 1, {"mass"}), ("lighter", -1, {"mass"}),
    ("longer", 1, {"length", "time"}), ("shorter", -1, {"length", "time"}),
    ("taller", 1, {"length"}), ("deeper", 1, {"length"}), ("shallower", -1, {"length"}),
    ("farther further", 1, {"length"}),
    ("wider", 1, {"length"}), ("narrower", -1, {"length"}),
    ("faster quicker sooner", 1, {"speed", "time"}), ("slower", -1, {"speed", "time"}),
    ("warmer hotter", 1, {"temperature"}), ("cooler colder", -1, {"temperature"}),
    ("cheaper", -1, {"$"}), ("costlier dearer", 1, {"$"}),
    ("louder noisier", 1, {"count:db", "count:decibel"}), ("quieter", -1, {"count:db", "count:decibel"}),
    ("higher larger bigger greater more", 1, None), ("lower smaller less fewer", -1, None),
):
    for _word in _words_.split():
        COMPARATIVES[_word] = (_sign, frozenset(_kinds) if _kinds else None)
#: Comparatives and superlatives of speed that durations turn round: "faster" is fewer seconds.
_BY_TIME = frozenset(["faster", "quicker", "sooner", "slower", "fastest", "quickest", "soonest", "slowest"])
#: Words that make a stated comparison say nothing of its order: "is not lighter", "no heavier".
_DENIALS = frozenset(["not", "no", "never", "neither", "nor", "hardly", "barely", "n't"])
#: Verbs of change over time: "rose in 2025 compared with 2024".
_CHANGES: dict[str, int] = {}
for _words_, _sign in (("rose risen rise rises increased increase increases grew grown grow grows climbed gained", 1),
                       ("fell fallen fall falls decreased decrease decreases declined decline declines dropped drop "
                        "drops shrank shrunk shrink", -1)):
    _CHANGES.update(dict.fromkeys(_words_.split(), _sign))
#: Words that introduce the base of a comparison over time: "compared with 2024", "than in 2024", "from 2024".
_BASE_MARKERS = frozenset(["compared", "than", "from", "since", "versus", "vs"])
#: What a comparison's side may start with and still name the same thing: articles, possessives, "to
#: be" and a few prepositions. Far fewer than ``words.STOP_WORDS``: "more", "most", "than" are the comparison.
_SIDE_STOP = frozenset(["the", "a", "an", "its", "their", "his", "her", "is", "are", "was", "were", "be", "been",
                        "has", "have", "had", "it", "this", "that", "which", "of", "in", "on", "at", "by", "for", "to",
                        "and", "or", "as"])


def superlative(word: str) -> tuple[int, frozenset[str] | None] | None:
    """(+1 for "most", −1 for "least"; the figure kinds it ranks) for a superlative ("lightest",
    "biggest", "cheapest"), read through its comparative; None for any other word."""
    if not word.endswith("est") or len(word) < 6:
        return None
    stem = word[:-3]
    for comparative in (stem + "er", stem[:-1] + "er" if stem[-1:] == stem[-2:-1] else "", stem[:-1] + "ier"
                        if stem.endswith("i") else "", stem + "r"):
        if comparative in COMPARATIVES:
            return COMPARATIVES[comparative]
    return None


def by_time(word: str) -> bool:
    """Whether the comparison ranks speed, which durations rank the other way ("fastest": fewest seconds)."""
    return word in _BY_TIME


def misordered(claim: str, evidence: str) -> tuple[str, ...]:
    """The claim's comparisons that the evidence's figures turn round, each as a readable phrase."""
    claim_tokens = tokenize(claim)
    quantities = parse_quantities(evidence)
    figures = sum(not q.is_year for q in quantities) >= 2
    evidence_tokens = tokenize(evidence)
    found = []
    for i, token in enumerate(claim_tokens):
        # "lighter than", "more puffs than": the comparative and "than" at most two words apart
        than = next((k for k in range(i + 1, min(i + 4, len(claim_tokens))) if claim_tokens[k].lower == "than"), None)
        bound = than is not None and than + 1 < len(claim_tokens) and (
            claim_tokens[than + 1].lower[0].isdigit() or bool(parse_quantities(claim_tokens[than + 1].text)))
        if token.lower in COMPARATIVES and than is not None and not bound:  # "fewer than 3,000" is a bound
            sign, kinds = COMPARATIVES[token.lower]
            if than == i + 2 and kinds is None:  # "more puffs than": figures that count puffs
                kinds = frozenset([f"count:{claim_tokens[i + 1].lower.removesuffix('s')}"])
            first, second = side_words(claim_tokens, range(i - 1, -1, -1), token), side_words(
                claim_tokens, range(than + 1, len(claim_tokens)), token)
        elif token.lower in _CHANGES:
            sign, kinds = _CHANGES[token.lower], None
            first, second = _years_compared(claim_tokens, i)
        else:
            continue
        if not first or not second:
            continue
        denied = any(t.lower in _DENIALS or t.lower.endswith("n't") for t in claim_tokens[max(0, i - 4) : i]
                     if t.clause == token.clause)  # "the Arc 5 is not lighter than the Arc 7" states no order
        if token.lower in COMPARATIVES and not denied and (
                stated := _stated_reversed(first, second, token, evidence_tokens)):
            found.append(f"{token.text} (the source: “… {stated}”)")
            continue
        if not figures:
            continue
        pair = (_figures_by_year(first, second, evidence_tokens, quantities) if token.lower in _CHANGES
                else _figures(first, second, evidence_tokens, quantities, kinds))
        if pair is None:
            continue
        ours, theirs = pair
        if by_time(token.lower) and ours.kind == "time":
            sign = -sign  # faster takes less time
        if sign * (ours.size - theirs.size) < 0:
            found.append(f"{token.text} (the source gives {ours.text} against {theirs.text})")
    return tuple(found)


def _stated_reversed(first: frozenset[str], second: frozenset[str], comparative: Token,
                     evidence: list[Token]) -> str | None:
    """The other side, when the evidence states the claim's own comparison of it: "the Arc 5 is
    lighter" against "the Arc 7 is lighter than the Arc 5". Only a comparative whose clause names
    the claim's second side before it, and not its first, counts; a negated one says nothing."""
    only_first, only_second = first - second, second - first
    if not only_first or not only_second:
        return None
    for j, token in enumerate(evidence):
        if token.lower != comparative.lower:
            continue
        before = [t for t in evidence[:j] if t.clause == token.clause]
        if any(t.lower in _DENIALS for t in before[-4:]):
            continue
        subject = side_words(evidence, range(j - 1, -1, -1), token)
        than = next((k for k in range(j + 1, min(j + 4, len(evidence))) if evidence[k].lower == "than"
                     and evidence[k].clause == token.clause), None)
        base = side_words(evidence, range(than + 1, len(evidence)), token) if than is not None else frozenset()
        if not subject & only_second or subject & only_first:
            continue
        # Its base is the claim's first side: named after "than", or, with no "than", in the same
        # or the previous sentence ("… the Arc 7 is the better pair. But the Arc 5 is lighter").
        if than is not None and not (base & only_first and not base & only_second):
            continue
        if than is None and not any(t.stem in only_first for t in evidence[:j]
                                    if token.sentence - 1 <= t.sentence <= token.sentence):
            continue
        return " ".join(t.text for t in before[-4:] + [token])
    return None


def side_words(tokens: list[Token], order: range, comparative: Token) -> frozenset[str]:
    """The words of one side of "A … X-er than B": within the comparative's clause, up to a verb-like break."""
    words = set()
    for k in order:
        if tokens[k].clause != comparative.clause:
            break
        if tokens[k].lower not in _SIDE_STOP:
            words.add(tokens[k].stem)
    return frozenset(words)


def _years_compared(tokens: list[Token], verb: int) -> tuple[frozenset[str], frozenset[str]]:
    """("2025", "2024") for "rose in 2025 compared with 2024": the year after a base marker is the base."""
    years = [t for t in tokens[verb + 1 :] if t.sentence == tokens[verb].sentence and len(t.lower) == 4
             and t.lower.isdigit() and 1000 <= int(t.lower) <= 2100]
    if len(years) != 2:
        return frozenset(), frozenset()
    base = [y for y in years if any(t.lower in _BASE_MARKERS for t in tokens if 0 < y.start - t.end < 12)]
    if len(base) != 1:
        return frozenset(), frozenset()
    other = next(y for y in years if y is not base[0])
    return frozenset([other.stem]), frozenset([base[0].stem])


def _figures(first: frozenset[str], second: frozenset[str], evidence: list[Token], quantities: list[Quantity],
             kinds: frozenset[str] | None) -> tuple[Quantity, Quantity] | None:
    """The one figure the evidence attaches to each side, of one kind, or None. Each kind of figure
    is read on its own ("Brevantil 100 … 200 puffs": the model numbers are no puffs)."""
    by_kind: dict[str, list[Quantity]] = {}
    for quantity in quantities:
        if not quantity.is_year and (kinds is None or quantity.kind in kinds):
            by_kind.setdefault(quantity.kind, []).append(quantity)
    pairs = [pair for group in by_kind.values() if len(group) >= 2
             and (pair := _pair_of(first, second, evidence, group)) is not None]
    return pairs[0] if len(pairs) == 1 else None


def side_figures(first: frozenset[str], second: frozenset[str], evidence: list[Token], quantities: list[Quantity],
                 kind: str | None, markers: tuple[frozenset[str], frozenset[str]]) -> tuple[Quantity, Quantity] | None:
    """The one figure the evidence gives each side of a comparison, of ``kind`` (any kind: None), or
    None: by the clause that names one side and not the other, or, where one clause names both, by
    the order of the sides' ``markers`` (their names, versions and years) and their figures. A figure
    inside a side's own name ("4.1.6", "Arc 7") names it; a count whose noun the passage leaves out
    ("1.8 million copies …, and its sequel about 900,000") is read with the counts of a noun."""
    named = first | second
    # a count of the kind, or a bare count whose noun the passage leaves out ("… compared with 17,900 for Fellcross")
    figures = [q for q in quantities if not q.is_year and q.dimension != "rank" and (
                   kind is None or q.kind == kind or kind.startswith("count:") and q.kind == "count:")
               and not any(t.stem in named and t.start <= q.start < t.end for t in evidence)]
    groups: dict[str, list[Quantity]] = {}
    for quantity in figures:
        groups.setdefault(quantity.kind, []).append(quantity)
    bare = groups.pop("count:", [])

    sentence = {id(q): next((t.sentence for t in evidence if t.end > q.start), -1) for q in figures}
    merged: set[int] = set()
    for counted in [k for k in groups if k.startswith("count:")]:
        # a bare count reads with the counts of a noun in its own sentence ("42 goals … and Thornbury only 28")
        near = [q for q in bare if any(sentence[id(q)] == sentence[id(c)] for c in groups[counted])]
        merged |= {id(q) for q in near}
        groups[counted] = sorted(groups[counted] + near, key=lambda q: q.start)
    if rest := [q for q in bare if id(q) not in merged]:  # and the others with each other ("rated 2641 … 2587")
        groups["count:"] = rest
    pairs = {pair for group in groups.values() if len(group) >= 2
             and (pair := _pair_of(first, second, evidence, group) or _alternating(markers, evidence, group))}
    return pairs.pop() if len(pairs) == 1 else None


def _alternating(markers: tuple[frozenset[str], frozenset[str]], evidence: list[Token],
                 group: list[Quantity]) -> tuple[Quantity, Quantity] | None:
    """The figures of one sentence that names each side once beside one figure, all in one clause:
    "4.1.6 took 2.6 seconds and 4.2.0 takes 1.6 seconds" (each name before its figure), "took 94
    seconds with 1.x and 21 seconds with 2.0" (each after). Any other order, or two such sentences,
    say nothing."""
    first, second = markers[0] - markers[1], markers[1] - markers[0]
    if not first or not second:
        return None
    found = []
    for sentence in sorted({t.sentence for t in evidence}):
        events: list[tuple[str, Quantity | None]] = []
        for token in (t for t in evidence if t.sentence == sentence):
            figure = next((q for q in group if q.start <= token.start < q.end), None)
            side = "first" if token.stem in first else "second" if token.stem in second else None
            if figure is not None and (not events or events[-1][1] is not figure):
                events.append(("figure", figure))
            elif side is not None and figure is None and (not events or events[-1][0] != side):
                events.append((side, None))
        # what the sentence says after its figures is not read ("…, yet Thornbury have conceded fewer")
        last = max((k for k, (kind, _) in enumerate(events) if kind == "figure"), default=-1)
        shape = [kind for kind, _ in events[: last + 2]]  # to the name after the last figure, if any
        if shape[: last + 1] in (["first", "figure", "second", "figure"], ["second", "figure", "first", "figure"]):
            sides = {shape[0]: events[1][1], shape[2]: events[3][1]}
        elif shape in (["figure", "first", "figure", "second"], ["figure", "second", "figure", "first"]):
            sides = {shape[1]: events[0][1], shape[3]: events[2][1]}
        else:
            continue
        found.append((sides["first"], sides["second"]))
    return found[0] if len(found) == 1 and comparable(*found[0]) else None


def _pair_of(first: frozenset[str], second: frozenset[str], evidence: list[Token],
             group: list[Quantity]) -> tuple[Quantity, Quantity] | None:
    candidates = [(q, at) for q in group
                  if (at := next((t for t in evidence if t.start <= q.start < t.end or t.start >= q.start), None))]
    stems_of: dict[int, set[str]] = {}
    sentence_stems: dict[int, set[str]] = {}
    clause_sentence = {token.clause: token.sentence for token in evidence}
    others: set[int] = set()  # clauses that name someone of their own, neither side
    for token in evidence:
        if any(q.start <= token.start < q.end for q, _ in candidates):
            continue  # a figure's own words ("200 puffs") say nothing of whose it is
        stems_of.setdefault(token.clause, set()).add(token.stem)
        sentence_stems.setdefault(token.sentence, set()).add(token.stem)
        if token.capital and token.stem not in first | second and any(
                t.sentence == token.sentence and t.end <= token.start for t in evidence):
            others.add(token.clause)
    # Words every candidate's clause has cannot tell the sides apart ("Each … inhaler provides").
    shared = set.intersection(*(stems_of.get(at.clause, set()) for _, at in candidates)) if candidates else set()
    only_first, only_second = first - second - shared, second - first - shared
    if not only_first:
        return None
    sides: dict[str, list[Quantity]] = {"first": [], "second": []}
    for quantity, at in candidates:
        clause = stems_of.get(at.clause, set())
        if not clause & (only_first | only_second) and at.clause not in others:
            # "The North Basin is smaller, …, but much deeper, reaching 212 metres": a clause naming
            # neither side has the subject of the clause before it in its sentence (not one that names
            # its own: "…, and the third-highest is Sarkhan, at 4,690 m").
            before = [c for c in range(at.clause - 1, -1, -1) if c in clause_sentence
                      and clause_sentence[c] == at.sentence and stems_of.get(c, set()) & (only_first | only_second)]
            if before:
                clause = stems_of[before[0]]
        if clause & only_first and not clause & only_second:
            sides["first"].append(quantity)
        elif clause & only_second and not clause & only_first:
            sides["second"].append(quantity)
        elif not only_second & sentence_stems.get(at.sentence, set()) and not clause & only_first \
                and first & second <= clause:
            sides["second"].append(quantity)  # "the City 3 weighs 21.5 kg" for "the standard City 3"
    if len(sides["first"]) != 1 or len(sides["second"]) != 1:
        return None
    ours, theirs = sides["first"][0], sides["second"][0]
    if not comparable(ours, theirs):
        return None
    return ours, theirs


def _figures_by_year(first: frozenset[str], second: frozenset[str], evidence: list[Token],
                     quantities: list[Quantity]) -> tuple[Quantity, Quantity] | None:
    """The one figure the evidence gives each of the two years: a figure belongs to the nearest year
    in its sentence ("In 2025 … 61,000 tonnes, slightly less than the 63,500 tonnes made in 2024")."""
    (year_a,), (year_b,) = first, second
    years = [(t, q) for q in quantities if q.is_year for t in evidence if t.start == q.start]
    sides: dict[tuple[str, str], list[Quantity]] = {}
    for quantity in quantities:
        if quantity.is_year:
            continue
        at = next((t for t in evidence if t.start >= quantity.start), None)
        same = [(t, q) for t, q in years if at is not None and t.sentence == at.sentence]
        if not same:
            continue
        nearest = min(same, key=lambda pair: abs(pair[0].start - quantity.start))
        sides.setdefault((quantity.kind, nearest[0].lower), []).append(quantity)
    pairs = [(sides[kind, year_a][0], sides[kind, year_b][0]) for kind in {kind for kind, _ in sides}
             if len(sides.get((kind, year_a), ())) == 1 and len(sides.get((kind, year_b), ())) == 1]
    if len(pairs) != 1 or not comparable(*pairs[0]):
        return None
    return pairs[0]
