"""Give a pack's ONNX graph a second output: the token states of one encoder layer.

The alignment's paraphrase matches (``citemark.scoring.paraphrase``) compare the model's
own contextual token states of a claim word and a passage word (BERTScore). The states
are computed for every reading anyway; naming one layer's output ``token_states`` costs
nothing when only ``logits`` is asked for. ``train.export`` calls ``expose`` on every new
pack; this command adds the output to an existing pack and refreshes its manifest hash:

    python -m train.token_states host/citemark/models/packs/citemark-grounding-minilm [--layer 4]

Layer 4 of 0–5 (the fifth of MiniLM-L6's six) was chosen on training rows by
``train.fit_paraphrase`` (it separates paraphrase matches from changed words best of the
layers tried); the later layers carry the pair's verdict more than the word.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

OUTPUT = "token_states"
LAYER = 4


def layer_output(layer: int) -> str:
    """The tensor name of an exported BERT encoder layer's output (after its last LayerNorm)."""
    return f"/model/encoder/encoder/layer.{layer}/output/LayerNorm/LayerNormalization_output_0"


def expose(model: Path, layer: int = LAYER, names: dict[str, int] | None = None) -> None:
    """Add the layer's output to the graph as ``token_states`` (or each of ``names``: output → layer), in place."""
    import onnx

    graph = onnx.load(str(model))
    tensors = {output for node in graph.graph.node for output in node.output}
    present = {o.name for o in graph.graph.output}
    for name, number in (names or {OUTPUT: layer}).items():
        source = layer_output(number)
        if source not in tensors:
            raise SystemExit(f"{model}: no tensor {source} (not a BERT-style export?)")
        if name in present:
            continue
        graph.graph.node.append(onnx.helper.make_node("Identity", [source], [name], name=f"{name}_identity"))
        graph.graph.output.append(onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, ["batch", "sequence", None]))
    onnx.save(graph, str(model))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", type=Path, help="a pack folder (citemark-model.json, model.onnx)")
    parser.add_argument("--layer", type=int, default=LAYER)
    args = parser.parse_args()
    from citemark.models.pack import MANIFEST, file_sha256

    manifest_path = args.pack / MANIFEST
    manifest = json.loads(manifest_path.read_text())
    model = args.pack / manifest["parts"]["nli"]["onnx"]
    expose(model, args.layer)
    manifest["sha256"][model.name] = file_sha256(model)
    manifest["parts"]["nli"]["token_states_layer"] = args.layer
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"{model}: output {OUTPUT} = layer {args.layer}; sha256 {manifest['sha256'][model.name]}")


if __name__ == "__main__":
    main()
