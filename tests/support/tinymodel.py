"""A tiny but real model pack (ONNX graph + tokenizer.json) built in the test, for pack and pull tests.

Its 3-way logits are sums of per-token embeddings: "yes" pushes towards
entailment, "no" towards contradiction, everything else towards neutral.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from tokenizers import Tokenizer, models, pre_tokenizers, processors

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "yes", "no", "sky", "blue", "is", "the", "grass", "green"]
LABELS = ["entailment", "neutral", "contradiction"]


def tokenizer_json() -> str:
    vocab = {token: index for index, token in enumerate(VOCAB)}
    tokenizer = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", 2), ("[SEP]", 3)]
    )
    return tokenizer.to_str()


def onnx_bytes() -> bytes:
    table = np.full((len(VOCAB), 3), [0.0, 0.1, 0.0], dtype=np.float32)
    table[VOCAB.index("yes")] = [2.0, 0.0, 0.0]
    table[VOCAB.index("no")] = [0.0, 0.0, 2.0]
    table[0] = 0.0
    nodes = [
        helper.make_node("Gather", ["table", "input_ids"], ["embedded"]),
        helper.make_node("Cast", ["attention_mask"], ["mask_f"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["mask_f", "axis2"], ["mask3"]),
        helper.make_node("Mul", ["embedded", "mask3"], ["masked"]),
        helper.make_node("ReduceSum", ["masked", "axis1"], ["logits"], keepdims=0),
    ]
    graph = helper.make_graph(
        nodes, "tiny-nli",
        [helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"])
         for name in ("input_ids", "attention_mask", "token_type_ids")],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 3])],
        [numpy_helper.from_array(table, "table"), numpy_helper.from_array(np.array([2], dtype=np.int64), "axis2"),
         numpy_helper.from_array(np.array([1], dtype=np.int64), "axis1"),
         # unused ballast: a multi-megabyte file, so an interrupted download leaves a partial file to resume
         numpy_helper.from_array(np.random.default_rng(0).random(600_000, dtype=np.float32), "ballast")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model.SerializeToString()


def write_pack(folder: Path, name: str = "tiny-nli") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "model.onnx").write_bytes(onnx_bytes())
    (folder / "tokenizer.json").write_text(tokenizer_json())
    manifest = {
        "format": "citemark-model/1", "name": name, "version": "1", "licence": "CC0-1.0", "origin": "built by the tests",
        "task": "nli3",
        "parts": {"nli": {"onnx": "model.onnx", "tokenizer": "tokenizer.json", "input_order": "claim_evidence",
                          "token_type_ids": True, "max_length": 64, "labels": LABELS}},
    }
    (folder / "citemark-model.json").write_text(json.dumps(manifest))
    return folder
