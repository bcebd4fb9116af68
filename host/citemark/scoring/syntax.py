"""A parse as plain values: each token's text, offset, tags, lemma and head, and the tree they make.

The dependency parser runs in a process of its own (``parse.py``, ``parser_process.py``); what it sends
back is built into these two classes, the only parse the relation checks ever see (``frames.py``,
``attachment.py``, ``converses.py``, ``order.py``, ``align.py``), whichever door they run in. They
carry what those checks read of a spaCy ``Doc`` and ``Token``, under spaCy's names and with its
meaning, and nothing more: a token's ``head`` is itself at the root of a sentence, its ``children``
and ``subtree`` come in spaCy's order, and ``sentence_start`` (spaCy: ``token.sent.start``) is the index
of the token that opens its sentence. Each token is one object for the life of its ``Doc``, so
tokens compare by identity, as spaCy's compare by document and index.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

__all__ = ["Doc", "Token"]


class Token:
    """One word (or punctuation, or run of spaces) of a parsed text."""

    __slots__ = ("children", "dep_", "doc", "head", "i", "idx", "lemma_", "lower_", "pos_", "sentence_start", "tag_",
                 "text")

    def __init__(self, doc: Doc, i: int, text: str, idx: int, pos: str, tag: str, dep: str, lemma: str) -> None:
        self.doc, self.i, self.text, self.idx = doc, i, text, idx
        self.pos_, self.tag_, self.dep_, self.lemma_ = pos, tag, dep, lemma
        self.lower_ = text.lower()
        self.head: Token = self
        self.children: tuple[Token, ...] = ()
        self.sentence_start = 0

    @property
    def subtree(self) -> list[Token]:
        """The token and every token under it, in spaCy's order: each left child's subtree, the token,
        each right child's subtree (the index order, except where the parser gave a crossing arc)."""
        found: list[Token] = []
        stack: list[tuple[Token, bool]] = [(self, False)]
        while stack:  # spaCy recurses; a long sentence's tree can be deeper than Python's recursion limit
            token, visited = stack.pop()
            if visited:
                found.append(token)
                continue
            stack += [(c, False) for c in reversed(token.children) if c.i > token.i]
            stack.append((token, True))
            stack += [(c, False) for c in reversed(token.children) if c.i < token.i]
        return found

    @property
    def left_edge(self) -> Token:
        """The leftmost token of the subtree."""
        return self.doc[min(t.i for t in self.subtree)]

    def __repr__(self) -> str:
        return f"Token({self.text!r}, i={self.i}, {self.pos_}, {self.dep_} of {self.head.i})"


class Doc:
    """A parsed text: its tokens, in order, each knowing its head and children."""

    __slots__ = ("text", "tokens")

    def __init__(self, text: str, *, words: Sequence[str], idx: Sequence[int], pos: Sequence[str],
                 tag: Sequence[str], dep: Sequence[str], head: Sequence[int], lemma: Sequence[str],
                 sents: Sequence[int]) -> None:
        """``text`` and the parser's arrays, one entry per token (``head``: the index of its head),
        and ``sents``: the index each sentence starts at."""
        self.text = text
        self.tokens = [Token(self, i, *values) for i, values in enumerate(zip(words, idx, pos, tag, dep, lemma,
                                                                              strict=True))]
        children: list[list[Token]] = [[] for _ in self.tokens]
        for token, at in zip(self.tokens, head, strict=True):
            token.head = self.tokens[at]
            if at != token.i:
                children[at].append(token)
        opening = 0
        starts = set(sents)
        for token, below in zip(self.tokens, children, strict=True):
            token.children = tuple(below)
            opening = token.i if token.i in starts else opening
            token.sentence_start = opening

    def __iter__(self) -> Iterator[Token]:
        return iter(self.tokens)

    def __getitem__(self, i: int) -> Token:
        return self.tokens[i]

    def __len__(self) -> int:
        return len(self.tokens)

    def __repr__(self) -> str:
        return f"Doc({self.text!r}, {len(self.tokens)} tokens)"
