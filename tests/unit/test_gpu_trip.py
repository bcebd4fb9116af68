"""The GPU trip's packing: int8 base weights that round-trip closely, and files split to fit the way back."""

from __future__ import annotations

import numpy as np
import pytest
from train.gpu_trip import (
    average,
    contrast_scores,
    held_out_windows,
    join,
    pack_weights,
    selection_score,
    split,
    stage_file,
    unpack_weights,
    unzip_data,
)


def test_matrices_travel_as_int8_and_come_back_within_half_a_step() -> None:
    rng = np.random.default_rng(3)
    weights = {
        "embeddings.word_embeddings.weight": rng.normal(0, 0.05, (300, 16)).astype(np.float32),
        "encoder.layer.0.output.dense.bias": rng.normal(0, 0.05, 16).astype(np.float32),
        "zero.weight": np.zeros((4, 8), dtype=np.float32),
    }
    packed = pack_weights(weights)
    assert packed["embeddings.word_embeddings.weight.int8"].dtype == np.int8
    assert "encoder.layer.0.output.dense.bias.int8" not in packed
    restored = unpack_weights(packed)
    assert set(restored) == set(weights)
    matrix = weights["embeddings.word_embeddings.weight"]
    step = np.abs(matrix).max(axis=1, keepdims=True) / 127
    assert np.all(np.abs(restored["embeddings.word_embeddings.weight"] - matrix) <= step / 2 + 1e-7)
    assert np.array_equal(restored["encoder.layer.0.output.dense.bias"], weights["encoder.layer.0.output.dense.bias"])
    assert np.array_equal(restored["zero.weight"], weights["zero.weight"])


def test_a_file_split_into_parts_joins_back_byte_for_byte(tmp_path) -> None:
    original = tmp_path / "best.npz"
    payload = np.random.default_rng(5).bytes(10_000)
    original.write_bytes(payload)
    parts = split(original, part_bytes=3_000)
    assert [p.name for p in parts] == [f"best.npz.part{i}" for i in range(4)]
    assert all(p.stat().st_size <= 3_000 for p in parts)
    original.unlink()
    assert join(tmp_path, "best.npz", tmp_path / "joined.npz").read_bytes() == payload


def test_a_missing_part_is_an_error_not_a_short_file(tmp_path) -> None:
    original = tmp_path / "best.npz"
    original.write_bytes(b"x" * 10_000)
    split(original, part_bytes=3_000)
    (tmp_path / "best.npz.part1").unlink()
    with pytest.raises(SystemExit, match="out of sequence"):
        join(tmp_path, "best.npz", tmp_path / "joined.npz")


def test_runs_are_averaged_weight_by_weight_and_unlike_models_refused() -> None:
    first = {"w": np.array([[1.0, 2.0]], dtype=np.float16), "b": np.array([0.0], dtype=np.float16)}
    second = {"w": np.array([[3.0, -2.0]], dtype=np.float16), "b": np.array([1.0], dtype=np.float16)}
    soup = average([first, second])
    assert soup["w"].dtype == np.float32
    assert soup["w"].tolist() == [[2.0, 0.0]] and soup["b"].tolist() == [0.5]
    with pytest.raises(SystemExit, match="differ in their layers"):
        average([first, {"w": second["w"]}])
    with pytest.raises(SystemExit, match="differ in their layers"):
        average([first, {"w": np.zeros((2, 2), dtype=np.float16), "b": second["b"]}])


def test_the_binding_variant_trains_stage_2_with_the_binding_rows_and_stage_1_never_does() -> None:
    assert stage_file({"binding": True}, stage2=True) == "stage2-binding.jsonl"
    assert stage_file({}, stage2=True) == "stage2.jsonl"
    assert stage_file({"binding": True}, stage2=False) == "stage1.jsonl"


def test_a_trip_with_binding_rows_gives_stage_2_and_them_in_one_file(tmp_path) -> None:
    import gzip

    (tmp_path / "trip" / "data").mkdir(parents=True)
    contents = {"stage1.jsonl": "a\n", "stage2.jsonl": "b\nc\n", "heldout.jsonl": "h\n", "mix.json": "{}",
                "binding.jsonl": "x\ny\nz\n"}
    for name, text in contents.items():
        with gzip.open(tmp_path / "trip" / "data" / f"{name}.gz", "wt") as handle:
            handle.write(text)
    data = unzip_data(tmp_path / "trip", tmp_path / "data", limit=2)
    assert (data / "stage2-binding.jsonl").read_text() == "b\nc\nx\ny\n"  # --limit cuts each file first
    assert (data / "stage1.jsonl").read_text() == "a\n"


def test_the_run_that_comes_back_is_picked_without_the_dev_sets() -> None:
    strong_on_dev = {"dev_auc": {"mean": 0.9}, "heldout_auc": 0.70, "contrast": {"auc": 0.60}}
    strong_elsewhere = {"dev_auc": {"mean": 0.6}, "heldout_auc": 0.75, "contrast": {"auc": 0.70}}
    assert selection_score(strong_elsewhere) > selection_score(strong_on_dev)
    assert selection_score({"heldout_auc": 0.7, "contrast": {"auc": float("nan")}}) == 0.7


def test_contrast_scores_count_only_the_kinds_the_model_must_turn_down() -> None:
    windows = [{"kind": "verbatim", "supported": True}, {"kind": "polarity", "supported": False},
               {"kind": "antonym", "supported": False}, {"kind": "date_shift", "supported": False}]
    scores = contrast_scores([0.9, 0.2, 0.8, 0.1], windows)
    assert scores["binding_below_half"] == 0.5  # polarity below, antonym not; date_shift is not counted
    assert scores["auc"] == 1.0
    assert contrast_scores([0.9], windows[:1]) == {"auc": None, "binding_below_half": None}  # one class: no AUC


def test_held_out_rows_are_drawn_from_every_set_not_the_first_of_the_file(tmp_path) -> None:
    import json

    rows = [{"hypothesis": f"claim {i}", "premise": f"premise {i}", "label": "entailment" if i % 2 else "neutral",
             "dataset": "snli" if i < 500 else "wice"} for i in range(1000)]
    (tmp_path / "heldout.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    held = held_out_windows(tmp_path / "heldout.jsonl", 100)
    assert len(held) == 100 and any(int(h["claim"].split()[1]) >= 500 for h in held)
    assert held == held_out_windows(tmp_path / "heldout.jsonl", 100)  # the same draw every time
