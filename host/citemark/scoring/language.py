"""Which claims the alignment can read (English in Latin letters), and what a word is to it.

A claim in any other language is reported as "alignment unavailable" (strict never falls
back to word overlap silently); ``judge.aligned`` asks here before aligning.
"""

from __future__ import annotations

import re

__all__ = ["WORD", "readable"]

#: A word as citemark's checks read it: letters and digits, an inner apostrophe, "C++", "C#", "n't".
WORD = re.compile(r"[^\W_]+(?:['’](?!s\b)[^\W_]+)*(?:\+\+|#)?|n['’]t\b", re.UNICODE)
_POSSESSIVE = re.compile(r"[a-z]['’]s\b")
#: Scripts the alignment reads: words spelled in Latin letters.
_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
_ENGLISH_FUNCTION_WORDS = frozenset(
    ["the", "a", "an", "of", "in", "on", "at", "to", "is", "are", "was", "were", "be", "been", "and", "or", "but", "by", "for", "with", "from", "has", "have", "had", "that", "this", "it", "its", "he", "she", "they", "his", "her", "their", "not", "no", "never", "will", "would", "can", "could", "did", "does", "do", "as", "than"])


def readable(claim: str) -> bool:
    """Whether the alignment can read the claim: English in Latin letters. Any other language is
    reported as "alignment unavailable", never judged by word overlap alone."""
    letters = [ch for ch in claim if ch.isalpha()]
    if not letters or sum(bool(_LATIN.match(ch)) for ch in letters) < 0.9 * len(letters):
        return False
    words = [w.lower() for w in WORD.findall(claim)]
    # "Dr Vos supervised Dr Amara Lind's doctoral thesis": no function word, but an English possessive
    return len(words) < 6 or any(w in _ENGLISH_FUNCTION_WORDS for w in words) or bool(_POSSESSIVE.search(claim))
