"""Content-Encoding decoding with a byte cap on every layer, fed from the raw stream.

httpx decodes each network chunk whole before the caller sees it, so a 2 kB body
sent as ``Content-Encoding: gzip, gzip`` inflates to gigabytes inside one
``decompress`` call, long before a cap on the decoded size can act. The fetcher
therefore reads the raw stream and decodes it here: each layer's output is
bounded with ``max_length`` and checked against the cap as it grows, so memory
stays within a few times the cap whatever the encoding.

Only the encodings the fetcher asks for (``ACCEPT_ENCODING``) are decoded; an
unknown one is an error, never passed through as if it were text.
"""

from __future__ import annotations

import zlib

import httpx

from citemark.errors import SourceTooLarge, SourceUnreachable

__all__ = ["ACCEPT_ENCODING", "BoundedDecoder", "read_capped"]

ACCEPT_ENCODING = "gzip, deflate"
#: More layers than this is no real server's doing.
MAX_LAYERS = 2


class _Layer:
    """One gzip / deflate layer; ``feed`` returns at most ``limit`` bytes or raises."""

    def __init__(self, coding: str) -> None:
        self.coding = coding
        self._zlib = zlib.decompressobj(16 + zlib.MAX_WBITS if coding in ("gzip", "x-gzip") else zlib.MAX_WBITS)
        self._raw_deflate_checked = coding in ("gzip", "x-gzip")

    def feed(self, data: bytes, limit: int) -> bytes:
        try:
            out = self._zlib.decompress(data, limit + 1)
        except zlib.error:
            if self._raw_deflate_checked:
                raise SourceUnreachable(f"the server sent a corrupt {self.coding} body") from None
            # "deflate" is sometimes sent without its zlib header (raw deflate), as browsers accept.
            self._raw_deflate_checked = True
            self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)
            return self.feed(data, limit)
        self._raw_deflate_checked = True
        if len(out) > limit or self._zlib.unconsumed_tail:
            raise SourceTooLarge(f"body is over the {limit:,}-byte limit once decoded")
        return out


class BoundedDecoder:
    """Decodes a response's raw bytes in the order of its Content-Encoding header."""

    def __init__(self, content_encoding: str, cap: int) -> None:
        codings = [c.strip().lower() for c in content_encoding.split(",") if c.strip()]
        codings = [c for c in codings if c != "identity"]
        unknown = [c for c in codings if c not in ("gzip", "x-gzip", "deflate")]
        if unknown:
            raise SourceUnreachable(f"the server used an encoding citemark does not read ({unknown[0]})")
        if len(codings) > MAX_LAYERS:
            raise SourceUnreachable(f"the server stacked {len(codings)} content encodings")
        # The header lists encodings in the order they were applied: undo the last first.
        self._layers = [_Layer(c) for c in reversed(codings)]
        self.cap = cap
        self.size = 0

    def feed(self, raw: bytes) -> bytes:
        data = raw
        for layer in self._layers:
            data = layer.feed(data, self.cap - self.size)
        self.size += len(data)
        if self.size > self.cap:
            raise SourceTooLarge(f"body is over the {self.cap:,}-byte limit")
        return data


async def read_capped(response: httpx.Response, cap: int) -> bytes:
    """The body of a streamed response, decoded, at most ``cap`` bytes raw and at every layer (SourceTooLarge)."""
    if response.is_stream_consumed:  # built in memory (a transport that is not the network): the body is here
        if len(response.content) > cap:
            raise SourceTooLarge(f"body is over the {cap:,}-byte limit")
        return response.content
    decoder = BoundedDecoder(response.headers.get("content-encoding", ""), cap)
    chunks: list[bytes] = []
    raw_size = 0
    async for raw in response.aiter_raw():
        raw_size += len(raw)
        if raw_size > cap:
            raise SourceTooLarge(f"body is over the {cap:,}-byte limit")
        chunks.append(decoder.feed(raw))
    return b"".join(chunks)
