"""The dependency parser's own process: spaCy's pipeline loaded here, each parse sent back as plain arrays.

``parse.py`` starts it as ``python -P -m citemark.scoring.parser_process`` (``-P``: the folder it is
started in is not put on ``sys.path``) and speaks JSON lines with it over its stdin and stdout:

- the child loads the pipeline and writes ``{"ready": true}``, or ``{"error": why}`` and exits;
- then, for each line it reads (a JSON string: the text to parse), it writes one line: the parse as
  ``syntax.Doc``'s arrays, ``{"words", "idx", "pos", "tag", "dep", "head", "lemma", "sents"}``
  (``head``: each token's head's index; ``sents``: the index each sentence starts at), or
  ``{"error": why}``.

JSON written with ASCII escapes carries any text, a lone surrogate included (the parent replaces
those before sending, since spaCy cannot hash them). The child stops when its stdin closes, so it
never outlives its parent; Ctrl-C in a terminal is its parent's to handle, not its own. Nothing but
the protocol goes to its stdout: whatever a library prints goes to stderr, which the parent
discards (a failure comes back as ``{"error": why}``).
"""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import IO, Any

from citemark.scoring.parse import PIPELINE, PIPELINE_VERSION

__all__ = ["arrays", "load", "main"]


def load() -> Any:
    """The pinned pipeline, without its named-entity recogniser (nothing reads entities)."""
    import spacy

    nlp = spacy.load(PIPELINE, exclude=["ner"])
    version = nlp.meta.get("version")
    if version != PIPELINE_VERSION:
        raise RuntimeError(f"{PIPELINE} is version {version}, not {PIPELINE_VERSION}")
    return nlp


def arrays(doc: Any) -> dict[str, list]:
    """A spaCy ``Doc`` as the arrays ``syntax.Doc`` is built from."""
    return {
        "words": [t.text for t in doc],
        "idx": [t.idx for t in doc],
        "pos": [t.pos_ for t in doc],
        "tag": [t.tag_ for t in doc],
        "dep": [t.dep_ for t in doc],
        "head": [t.head.i for t in doc],
        "lemma": [t.lemma_ for t in doc],
        "sents": [sentence.start for sentence in doc.sents],
    }


def main() -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a library's print must not break the protocol
    sys.stdout = sys.stderr
    try:
        nlp = load()
    except Exception as error:  # whatever spaCy raises: the parent gets a reason, not a traceback
        _reply(replies, {"error": f"could not load {PIPELINE}: {error}"})
        return 1
    _reply(replies, {"ready": True})
    for line in sys.stdin.buffer:
        try:
            reply = arrays(nlp(json.loads(line)))
        except Exception as error:  # a text spaCy cannot parse: the parent gives the parser up
            reply = {"error": f"could not parse a text: {error!r}"}
        _reply(replies, reply)
    return 0


def _reply(replies: IO[bytes], message: dict) -> None:
    replies.write(json.dumps(message).encode("ascii") + b"\n")
    replies.flush()


if __name__ == "__main__":
    sys.exit(main())
