"""Rebuild a train.py checkpoint from an exported int8 pack, to train on from the shipped weights.

The project commits packs, not float checkpoints, and a lent GPU's checkpoint is gone
when its session ends. Training on from the shipped model is still possible: the int8
graph keeps every weight (per-channel int8 with a scale and zero point, or fp32 for
biases and norms). This reads them back into a ``CrossEncoder`` state dict:

- named initialisers (embeddings, biases, LayerNorms, the head) map by name;
- the encoder's linear weights are anonymous (``onnx::MatMul_N``): they are taken
  in graph order, six per layer (query, key, value, attention output,
  intermediate, output), and transposed back.

It then checks parity against the float model's outputs that ``export.py`` recorded
in the pack's ``parity.json``. Dequantised weights carry int8 rounding (a relative error of
about 1 %); fine-tuning absorbs it.

    python -m train.recover --pack host/citemark/models/packs/citemark-grounding-minilm --out ~/.cache/citemark-train/recovered
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper

from train.train import CrossEncoder, default_base

_LINEAR = ["attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense",
           "intermediate.dense", "output.dense"]


def _dequantised(initialisers: dict[str, np.ndarray], stem: str) -> np.ndarray:
    quantised = initialisers[stem + "_quantized"].astype(np.float32)
    zero = initialisers[stem + "_zero_point"].astype(np.float32)
    return (quantised - zero) * initialisers[stem + "_scale"].astype(np.float32)


def recover(pack: Path) -> dict[str, torch.Tensor]:
    graph = onnx.load(str(pack / "model.onnx")).graph
    initialisers = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    state: dict[str, torch.Tensor] = {}
    for name, value in initialisers.items():
        if name.startswith("model.") and not name.endswith(("_scale", "_zero_point", "_quantized")):
            state[name.removeprefix("model.")] = torch.from_numpy(value.copy())
    for name in {n.removesuffix("_quantized") for n in initialisers if n.endswith("_quantized")}:
        if name.startswith("model."):
            value = _dequantised(initialisers, name)
            if name.endswith("_Transposed"):  # the head's Gemm weight, stored as [in, out]
                name, value = name.removesuffix("_Transposed"), value.T
            state[name.removeprefix("model.")] = torch.from_numpy(value.copy())
    matmuls: list[str] = []
    for node in graph.node:
        for value in node.input:
            stem = value.removesuffix("_quantized")
            if value.endswith("_quantized") and stem.startswith("onnx::MatMul") and stem not in matmuls:
                matmuls.append(stem)
    for i, stem in enumerate(matmuls):
        layer, part = divmod(i, len(_LINEAR))
        state[f"encoder.encoder.layer.{layer}.{_LINEAR[part]}.weight"] = torch.from_numpy(
            _dequantised(initialisers, stem).T.copy())
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    model = CrossEncoder(default_base())
    state = recover(args.pack)
    missing, unexpected = model.load_state_dict(state, strict=False)
    missing = [m for m in missing if not m.endswith("position_ids") and ".pooler." not in m]  # unused: mean pooling
    if missing or unexpected:
        raise SystemExit(f"the pack's graph does not map onto the model: missing {missing}, unexpected {unexpected}")
    model.eval()

    from transformers import AutoTokenizer


    recorded = json.loads((args.pack / "parity.json").read_text())["pairs"]
    tokenizer = AutoTokenizer.from_pretrained(str(default_base()))
    encoded = tokenizer([p["claim"] for p in recorded], [p["evidence"] for p in recorded], return_tensors="pt",
                        padding=True, truncation="only_second", max_length=256)
    with torch.no_grad():
        rebuilt = torch.softmax(model(**encoded), -1).numpy()
    original = np.array([p["torch"] for p in recorded])
    gap = float(np.abs(rebuilt - original).max())
    agree = float((rebuilt.argmax(1) == original.argmax(1)).mean())
    print(f"rebuilt vs the float model's recorded outputs ({len(recorded)} pairs): largest gap {gap:.3f}, "
          f"same label {agree:.0%}")
    if gap > 0.15 or agree < 0.9:
        raise SystemExit("parity failed: the rebuilt weights do not behave like the model the pack was made from")
    args.out.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), args.out / "model.pt")
    print(f"written {args.out / 'model.pt'}")


if __name__ == "__main__":
    main()
