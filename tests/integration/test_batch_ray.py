"""The Ray path on a local 2-CPU cluster started in the test: the same records as the local run.

Skipped where Ray is not installed, except in CI (``CI=1``), which installs the ``ray``
extra and must run it.
"""

from __future__ import annotations

import json
import os

import pytest

from citemark import batch_ray
from citemark.batch import run_batch
from tests.support.batch import PAGES, answers, write_jsonl

if os.environ.get("CI"):
    import ray  # CI installs the ray extra: a missing Ray fails here instead of skipping
else:
    ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_cluster():
    """One cluster for the module: Ray does not start a second one reliably in the same process."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def records(path):
    return {json.dumps(record["id"]): record for record in map(json.loads, path.read_text().splitlines())}


@pytest.mark.parametrize("model", ["none", pytest.param("citemark-grounding-minilm", marks=pytest.mark.model)])
def test_a_ray_run_gives_the_records_of_the_local_run(server, settings, tmp_path, local_cluster, model):
    settings = settings.with_(model=model)
    server.routes.update(PAGES)
    items = answers(server)
    items += [{"id": f"x{i}", "claims": [{"claim": "The Rhine rises in the Swiss Alps.", "url": server.url("/rhine")}]}
              for i in range(20)]
    items.append({"id": "bad", "answer": 42})
    source = write_jsonl(tmp_path / "in.jsonl", [*items, "{broken"])
    local = run_batch(source, tmp_path / "local.jsonl", settings=settings, cache=None)
    on_ray = run_batch(source, tmp_path / "ray.jsonl", settings=settings, cache=None, remote=batch_ray.on_ray("local", actors=2))
    assert records(tmp_path / "ray.jsonl") == records(tmp_path / "local.jsonl")
    assert (on_ray.answers, on_ray.errors) == (local.answers, local.errors) == (24, 2)
    assert on_ray.verdicts == local.verdicts
