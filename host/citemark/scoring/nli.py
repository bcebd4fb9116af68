"""The one small interface every NLI model sits behind, and the batcher that feeds it.

A ``Scorer`` turns (evidence, claim) pairs into entailment / neutral /
contradiction probabilities. The engine never knows which model it is: a 3-way
cross-encoder, the combined aegis pair, or citemark's own model all implement
``score``. ``BatchingScorer`` collects the pairs that claims of all in-flight
requests submit while the model is busy and runs them as one batch in a worker
thread, so the event loop keeps serving and the CPU sees full batches.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from citemark.scoring.paraphrase import Paraphraser

__all__ = ["BatchingScorer", "NLIScores", "Scorer"]


@dataclass(frozen=True, slots=True)
class NLIScores:
    entailment: float
    neutral: float
    contradiction: float


class Scorer(Protocol):
    """Anything that judges (evidence, claim) pairs."""

    name: str

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[NLIScores]:
        """One NLIScores per (evidence, claim) pair, in order."""
        ...


class BatchingScorer:
    """Async front of a Scorer: concurrent callers share batches of up to ``max_batch`` pairs."""

    def __init__(self, scorer: Scorer, max_batch: int = 64) -> None:
        self.scorer = scorer
        self.name = scorer.name
        self.max_batch = max_batch
        self._pending: list[tuple[list[tuple[str, str]], asyncio.Future[list[NLIScores]]]] = []
        self._worker: asyncio.Task[None] | None = None
        self.pairs_scored = 0

    def paraphraser(self) -> Paraphraser | None:
        """The scorer's token-state reader, for the alignment's paraphrase matches; None when the
        scorer has none (another model, or a pack exported without token states)."""
        read = getattr(self.scorer, "token_states", None)
        return read if callable(read) else None

    async def score(self, pairs: Sequence[tuple[str, str]]) -> list[NLIScores]:
        if not pairs:
            return []
        future: asyncio.Future[list[NLIScores]] = asyncio.get_running_loop().create_future()
        self._pending.append((list(pairs), future))
        if self._worker is None or self._worker.done():
            self._worker = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        while self._pending:
            batch: list[tuple[list[tuple[str, str]], asyncio.Future[list[NLIScores]]]] = []
            size = 0
            while self._pending and (not batch or size + len(self._pending[0][0]) <= self.max_batch):
                item = self._pending.pop(0)
                if item[1].cancelled():
                    continue
                batch.append(item)
                size += len(item[0])
            if not batch:
                continue
            flat = [pair for pairs, _ in batch for pair in pairs]
            try:
                results = await asyncio.to_thread(self.scorer.score, flat)
            except Exception as error:  # a model failure fails these callers, not the worker
                for _, future in batch:
                    if not future.done():
                        future.set_exception(error)
                continue
            self.pairs_scored += len(flat)
            offset = 0
            for pairs, future in batch:
                if not future.done():
                    future.set_result(results[offset : offset + len(pairs)])
                offset += len(pairs)
