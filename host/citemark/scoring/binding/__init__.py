"""Binding checks: does the evidence attach the claim's words the way the claim does?

The presence guards (``guards.py``) ask whether a claim's figures and names are
*in* the source. That is not enough: "Rust uses a garbage collector" shares every
word with "Rust enforces memory safety without a garbage collector", "Everest is
8,611 m tall" finds 8,611 m in the sentence about K2, and "designed by Brendan
Eich" finds Brendan Eich among the contributors. A small model rewards the
overlap. These checks read the evidence's structure instead, with rules a reader
can follow, and each names what it found:

- **negation scope**: a negation or privative word in the evidence ("not",
  "without", "no longer", "rather than", "instead of", "fails to", "far from")
  whose scope holds the words of the clause that states the claim, while the
  claim asserts them;
- **opposites**: a claim word the aligned evidence replaces by its opposite
  ("absorbs" / "reflects"), unless a comparison is merely turned round ("A is
  heavier than B" and "B is lighter than A" say the same);
- **figure binding**: a figure of the claim that the evidence gives for another
  subject or another year;
- **role binding**: a name of the claim that the evidence puts in another role
  (the clause holding the claim's relation word names someone else);
- **role reversal**: the two parties of the claim's relation swapped ("A beat B"
  against "B beat A"), with passive voice read as such;
- **quantifiers**: the claim says "all", "always", "will" or "proves" where the
  evidence says "most", "often", "may" or "suggests";
- **dates**: a year of the claim that the source gives to another event, while the
  clause with the claim's event word gives another year ("completed in 2019").

Precision is the point: a check that cannot tell stays silent, so that what it
reports can be trusted to keep a false claim from being badged supported.

Run ``python -m citemark.scoring.binding`` for a small demonstration.

The checks live in one module each: ``negation``, ``opposites``, ``figures`` (figures and dates),
``roles``, ``reversal`` and ``quantifiers``. What they all read with (tokens, alignment, how far a
negation reaches, verb forms, names) is in ``grammar``, which imports no other module of the package;
each check imports only ``grammar``, never another check, so there is no import circle, and each
rule can be read and changed beside only the grammar it uses. This module brings them together in
``check`` and keeps the package's names as they were when it was one file (``NAME as NAME`` marks a
name imported only to keep it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from citemark.scoring.binding import grammar
from citemark.scoring.binding.figures import DATE_REACH as DATE_REACH
from citemark.scoring.binding.figures import FIGURE_REACH as FIGURE_REACH
from citemark.scoring.binding.figures import MAX_FIGURES as MAX_FIGURES
from citemark.scoring.binding.figures import PHRASE_AFTER as PHRASE_AFTER
from citemark.scoring.binding.figures import date_conflicts, figure_conflicts
from citemark.scoring.binding.grammar import PRIVATIVE_SCOPE as PRIVATIVE_SCOPE
from citemark.scoring.binding.grammar import SCOPE as SCOPE
from citemark.scoring.binding.grammar import Token, tokenize
from citemark.scoring.binding.negation import CONTRASTIVE as CONTRASTIVE
from citemark.scoring.binding.negation import negation_conflicts
from citemark.scoring.binding.opposites import OPPOSITE_REACH as OPPOSITE_REACH
from citemark.scoring.binding.opposites import opposite_conflicts, opposite_pairs
from citemark.scoring.binding.quantifiers import ceilings, overstated
from citemark.scoring.binding.reversal import reversals, rewritten_reversals
from citemark.scoring.binding.roles import role_conflicts
from citemark.scoring.quantities import Quantity

__all__ = ["Binding", "Token", "check", "opposite_pairs", "tokenize"]


@dataclass(frozen=True, slots=True)
class Binding:
    """What the evidence attaches differently from the claim (each item a short, readable phrase)."""

    negated: tuple[str, ...] = ()  # claim words the evidence states under a negation (or the reverse)
    opposites: tuple[str, ...] = ()  # "absorbs ≠ reflects"
    unbound_figures: tuple[str, ...] = ()  # "8,611 m (the source gives it for K2)"
    other_roles: tuple[str, ...] = ()  # "Brendan Eich (designed: the source names Graydon Hoare)"
    reversed_roles: tuple[str, ...] = ()  # "tenant / landlord (pay)"
    overstated: tuple[str, ...] = ()  # "all ≠ most"
    redated: tuple[str, ...] = ()  # "2015 (the source dates it 2019)"

    @property
    def conflicts(self) -> bool:
        return bool(self.negated or self.opposites or self.unbound_figures or self.other_roles
                    or self.reversed_roles or self.redated)


def check(claim: str, evidence: str, neighbourhood: str | None = None, retrieved: str | None = None,
          wider: str | None = None, document_figures: Iterable[Quantity] = ()) -> Binding:
    """Read how ``evidence`` (the quoted passage) attaches the claim's words. Figures are read in
    ``neighbourhood`` (the passage with sentences either side), since the sentence that gives
    the claim's subject its own figure is often the next one; negation in ``retrieved`` (every
    passage retrieval found for the claim), since the sentence that denies a claim shares fewer
    of its words than the one that merely mentions them; and when those show none, in ``wider``
    (more passages), which may add a negation but never takes one away. ``document_figures`` (every
    figure of the page) lets a claim figure that the page states elsewhere be weighed against the one
    the clause with the claim's words gives."""
    claim_tokens = tokenize(claim)
    evidence_tokens = tokenize(evidence)
    aligned = grammar.aligned(claim_tokens, evidence_tokens)
    if not aligned:
        return Binding()
    around = neighbourhood if neighbourhood is not None else evidence
    around_tokens = tokenize(around) if neighbourhood is not None else evidence_tokens
    read_tokens = tokenize(retrieved) if retrieved is not None else evidence_tokens
    common = _lower_case_words(claim_tokens, evidence_tokens, around_tokens, read_tokens)
    negated = negation_conflicts(claim_tokens, read_tokens, grammar.aligned(claim_tokens, read_tokens))
    if not negated and wider is not None and wider != retrieved:
        wider_tokens = tokenize(wider)
        negated = negation_conflicts(claim_tokens, wider_tokens, grammar.aligned(claim_tokens, wider_tokens))
    return Binding(
        negated=tuple(negated),
        opposites=tuple(opposite_conflicts(claim_tokens, evidence_tokens, aligned, common)),
        unbound_figures=tuple(figure_conflicts(claim, claim_tokens, around, around_tokens, common,
                                               tuple(document_figures))),
        other_roles=tuple(role_conflicts(claim_tokens, evidence_tokens, aligned, common)),
        reversed_roles=tuple(reversals(claim_tokens, evidence_tokens, aligned, common)
                             + rewritten_reversals(claim, evidence, evidence_tokens, common)),
        overstated=tuple(overstated(claim_tokens, evidence_tokens, aligned) + ceilings(claim, evidence)),
        redated=tuple(date_conflicts(claim, claim_tokens, evidence, evidence_tokens)),
    )


def _lower_case_words(*texts: list[Token]) -> frozenset[str]:
    """Every word the texts write in lower case: a capitalised sentence opener outside it is a name."""
    return frozenset(t.lower for tokens in texts for t in tokens if not t.capital) | grammar.NO_PARTY


def describe(binding: Binding) -> Iterable[str]:
    """One readable line per finding."""
    for label, items in (("negated", binding.negated), ("opposite", binding.opposites),
                         ("figure", binding.unbound_figures), ("role", binding.other_roles),
                         ("reversed", binding.reversed_roles), ("overstated", binding.overstated),
                         ("date", binding.redated)):
        for item in items:
            yield f"{label}: {item}"
