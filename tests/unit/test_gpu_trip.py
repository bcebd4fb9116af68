"""The GPU trip's packing: int8 base weights that round-trip closely, and files split to fit the way back."""

from __future__ import annotations

import numpy as np
import pytest
from train.gpu_trip import average, join, pack_weights, split, unpack_weights


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
