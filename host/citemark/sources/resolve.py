"""Turn what an answer cites into the URL to fetch: tracking stripped, DOIs and arXiv ids resolved
(to their one URL each, ``citemark.identifiers``).

``normalise_url`` is also the cache key, so two spellings of one page
(``?utm_source=chatgpt.com``, a trailing ``#section``, upper-case host) share one
cache entry and one fetch.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from citemark import identifiers

__all__ = ["normalise_url", "resolve_reference", "text_fragment_link"]

_TRACKING_PREFIXES = ("utm_", "mc_", "pk_", "hsa_", "_hs")
_TRACKING_NAMES = frozenset(
    {"fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "yclid", "igshid", "mkt_tok",
     "ref_src", "ref_url", "_ga", "_gl", "oly_enc_id", "oly_anon_id", "vero_id", "spm", "si"}
)


def resolve_reference(reference: str) -> str:
    """A URL for ``reference``: a URL, ``doi:10.x/y``, a bare DOI, or ``arXiv:2101.00001`` (an arxiv.org
    link is a URL like any other, and stays the one cited)."""
    reference = reference.strip().strip("<>").rstrip(".,;")
    doi = identifiers.doi(reference)
    if doi:
        return identifiers.doi_url(doi)
    arxiv = identifiers.arxiv_id(reference) if reference.lower().startswith("arxiv:") else None
    if arxiv:
        return identifiers.arxiv_url(arxiv)
    return normalise_url(reference)


def normalise_url(url: str) -> str:
    """Canonical form: lower-case scheme/host, no default port, no fragment, no tracking."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower().rstrip(".")
    if ":" in host:  # an IPv6 literal
        host = f"[{host}]"
    port = parts.port  # ValueError for a port that is not a number
    if port and (scheme, port) not in {("http", 80), ("https", 443)}:
        host = f"{host}:{port}"
    query = [
        (key, value)
        for key, value in parse_qsl(parts.query, keep_blank_values=True)
        if not key.lower().startswith(_TRACKING_PREFIXES) and key.lower() not in _TRACKING_NAMES
    ]
    path = parts.path or ("/" if host else "")
    return urlunsplit((scheme, host, path, urlencode(query, doseq=True), ""))


def text_fragment_link(url: str, quote_text: str, max_words: int = 8) -> str:
    """``url#:~:text=start,end``: a link that opens the page scrolled to the quote.

    Long quotes use the ``start,end`` form (first and last words) so the link stays
    short and survives small differences in the middle of the text.
    """
    words = quote_text.split()
    if not words:
        return url
    if len(words) <= 2 * max_words:
        fragment = _encode(" ".join(words))
    else:
        fragment = _encode(" ".join(words[:max_words])) + "," + _encode(" ".join(words[-max_words:]))
    return f"{url.split('#', 1)[0]}#:~:text={fragment}"


def _encode(text: str) -> str:
    # '-', ',' and '&' have meaning inside a text directive and must be escaped.
    return quote(text, safe="").replace("-", "%2D")
