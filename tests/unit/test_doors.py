"""The gate behind ``citemark verify``'s exit code, row by row, and the shared one-claim builder."""

from __future__ import annotations

import pytest

from citemark.doors import check_answer_size, one_claim, verification_passed
from citemark.errors import AnswerTooLargeError, InputError
from citemark.settings import Settings
from citemark.types import Citation, Label, Report, Unresolved, Verdict

S, P, C, R, U, X = (Label.SUPPORTED, Label.PARTIAL, Label.CONTRADICTED, Label.RETRACTED, Label.UNREACHABLE,
                    Label.UNSUPPORTED)


def report(*labels: Label, unresolved: int = 0, policy: str = "balanced") -> Report:
    verdicts = [Verdict(claim=f"c{i}", citation=Citation(url="https://a.example"), label=label, reason="r",
                        explanation="e") for i, label in enumerate(labels)]
    return Report(verdicts=verdicts, unresolved=[Unresolved("9", "x")] * unresolved, policy=policy)


@pytest.mark.parametrize(
    ("labels", "threshold", "strict", "unresolved", "passed", "why"),
    [
        ((), 0.8, False, 0, False, "no citations found"),
        ((U, U), 0.0, False, 0, False, "no cited source could be read"),
        ((S, S, C), 0.0, False, 0, False, "contradicted or retracted"),
        ((S, R), 0.0, False, 0, False, "contradicted or retracted"),
        ((S, S, S, P), 0.8, False, 0, False, "pass rate 0.75 is below"),
        ((S, S, S, S, U), 0.8, False, 0, True, "passed"),
        ((S, X), 0.5, False, 0, True, "passed"),
        ((S, X), 0.5, True, 0, False, "--strict"),
        ((S,), 0.8, True, 1, False, "--strict"),
        ((S,), 0.8, True, 0, True, "passed"),
    ],
)
def test_the_verification_gate(labels, threshold, strict, unresolved, passed, why):
    ok, reason = verification_passed(report(*labels, unresolved=unresolved), threshold=threshold, strict=strict)
    assert ok is passed and why in reason


def test_the_gate_counts_supported_citations_under_either_policy():
    """strict's partial may be a paraphrase or a swapped name alike: the gate does not count it."""
    for policy in ("strict", "balanced"):
        assert not verification_passed(report(S, S, S, P, policy=policy), threshold=0.8)[0]
        assert verification_passed(report(S, S, S, S, P, policy=policy), threshold=0.8) == (True, "passed")


def test_the_summary_carries_total_supported_and_pass_rate():
    summary = report(S, S, P, U).summary()
    assert (summary["total"], summary["supported"], summary["pass_rate"]) == (4, 2, 0.5)
    assert report().summary()["pass_rate"] == 0.0


def test_one_claim_classifies_its_source_and_rejects_empty_input(tmp_path):
    assert one_claim("The sky is blue [1].", "2607.22693").citations[0].url == "https://arxiv.org/pdf/2607.22693"
    assert one_claim("X is y.", "./s.txt", base=tmp_path).citations[0].path == str(tmp_path / "s.txt")
    assert one_claim("X is y.", "X is y, says the atlas.").citations[0].text == "X is y, says the atlas."
    with pytest.raises(InputError):
        one_claim(" ", "https://a.example")
    with pytest.raises(InputError):
        one_claim("X is y.", "")


def test_answer_size_is_checked_against_the_settings():
    settings = Settings(max_answer_chars=10)
    check_answer_size("short", settings)
    with pytest.raises(AnswerTooLargeError, match="over the 10 limit"):
        check_answer_size("x" * 11, settings)


async def test_the_engines_own_api_takes_the_doors_path(settings):
    """``Engine.report`` and ``Engine.verify_claim`` are delegates of ``collect`` and ``one_claim``: the same
    claim gives the same verdict and the same report by either way in."""
    from citemark.doors import collect
    from citemark.engine import Engine
    from citemark.types import ParsedAnswer

    claim, source = "  The museum opened in 1902.", "The museum opened in 1902 and holds 260,000 volumes."
    parsed = ParsedAnswer(claims=(one_claim(claim, source),), format="claim")
    async with Engine(settings, scorer=None, cache=None) as engine:
        by_door = await collect(engine, parsed)
        by_engine = await engine.report(parsed)
        verdict = await engine.verify_claim(claim, source)
        with pytest.raises(InputError):
            await engine.verify_claim(" ", source)
    assert by_engine.to_dict() == by_door.to_dict()
    assert verdict == by_door.verdicts[0] and verdict.claim == "The museum opened in 1902."


async def test_the_slot_resolves_the_model_pack_once_for_hello_and_the_engine(settings, monkeypatch):
    from citemark.doors import EngineSlot
    from citemark.models import registry

    calls = []
    monkeypatch.setattr(registry, "resolve", lambda settings: calls.append(settings) or None)
    async with EngineSlot(settings, requester=None, cache=None) as slot:
        assert slot.pack() is None and slot.pack() is None  # hello, twice, before the engine exists
        engine = await slot.get()
        assert engine.pack is None and engine.model_name.startswith("none") and slot.pack() is None
    assert len(calls) == 1
