"""The public API is pinned: adding a name is fine, removing or renaming one is a breaking change."""

import subprocess
import sys

import citemark

PINNED = {"__version__", "Engine", "Settings", "parse_answer", "Citation", "Claim", "Document", "Evidence", "Label",
          "ParsedAnswer", "Report", "Scores", "Verdict", "CitemarkError", "snap_quote"}


def test_all_is_pinned_and_every_name_resolves():
    assert set(citemark.__all__) == PINNED
    for name in citemark.__all__:
        assert getattr(citemark, name) is not None


def test_the_verdict_vocabulary_is_stable():
    assert [label.value for label in citemark.Label] == [
        "supported", "partial", "contradicted", "unsupported", "unreachable", "paywalled", "retracted", "unverifiable"]


def test_importing_citemark_stays_cheap():
    code = "import sys, citemark; print(sorted(m for m in ('httpx', 'onnxruntime', 'trafilatura') if m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "[]"
