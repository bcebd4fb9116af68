"""Every failure citemark reports, with the stable code each door (CLI, native host, MCP) shows.

The tree::

    CitemarkError                       code
    ├── InputError                      E100  the request itself is wrong
    │   ├── AnswerFormatError           E101  answer cannot be parsed in the given format
    │   ├── AnswerTooLargeError         E102  answer exceeds the size limit
    │   ├── LocalFileRefused            E103  a local path was given where none is allowed
    │   ├── OutputRefused               E104  an output file citemark did not write, or cannot resume
    │   └── RegistrationError           E190  a host registration cannot be written (rights, flags)
    ├── SourceError                     E200  a cited source could not be used
    │   ├── SourceBlocked               E201  URL refused by policy (scheme, private address)
    │   ├── SourceUnreachable           E202  DNS, connection, timeout, HTTP error status
    │   ├── RobotsDisallowed            E203  robots.txt forbids fetching it
    │   ├── SourceTooLarge              E204  body over the size cap
    │   ├── ExtractionError             E205  fetched, but no text could be read from it
    │   ├── MalformedURL                E206  the cited address is not a URL anything can fetch
    │   └── LookupUnavailable           E207  Crossref / arXiv / OpenAlex did not answer usably
    ├── ModelError                      E300  the NLI model cannot be used
    │   ├── ModelNotFound               E301  no pack of that name or path
    │   ├── ModelPackInvalid            E302  manifest, tokenizer or ONNX file is wrong
    │   └── ModelDownloadError          E303  ``model pull`` failed (network, checksum)
    └── ProtocolError                   E400  a native message could not be served
        ├── FrameError                  E401  truncated frame, bad length, invalid UTF-8
        ├── MessageError                E402  not a JSON object, unknown type, bad fields
        ├── RequestCancelled            E403  the browser cancelled the request
        └── OriginRefused               E404  the host was started by an extension it does not serve

Source errors never become "unsupported" or "contradicted": the verdict policy
maps them to ``unreachable`` / ``paywalled`` / ``unverifiable``.
"""

from __future__ import annotations

__all__ = [
    "AnswerFormatError",
    "AnswerTooLargeError",
    "CitemarkError",
    "ExtractionError",
    "FrameError",
    "InputError",
    "LocalFileRefused",
    "LookupUnavailable",
    "MalformedURL",
    "MessageError",
    "OriginRefused",
    "OutputRefused",
    "ModelDownloadError",
    "ModelError",
    "ModelNotFound",
    "ModelPackInvalid",
    "ProtocolError",
    "RegistrationError",
    "RequestCancelled",
    "RobotsDisallowed",
    "SourceBlocked",
    "SourceError",
    "SourceTooLarge",
    "SourceUnreachable",
]


class CitemarkError(Exception):
    """Base of all citemark errors; ``code`` is stable across versions."""

    code = "E000"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "error": type(self).__name__, "message": self.message}


class InputError(CitemarkError):
    code = "E100"


class AnswerFormatError(InputError):
    code = "E101"


class AnswerTooLargeError(InputError):
    code = "E102"


class LocalFileRefused(InputError):
    code = "E103"


class OutputRefused(InputError):
    """``batch --out`` names a file citemark may not append to (not its own, a link, the input): nothing changed."""

    code = "E104"


class RegistrationError(InputError):
    """``citemark install`` cannot write where asked (a folder only root may write, a bad flag); nothing changed."""

    code = "E190"


class SourceError(CitemarkError):
    code = "E200"


class SourceBlocked(SourceError):
    code = "E201"


class SourceUnreachable(SourceError):
    code = "E202"

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class RobotsDisallowed(SourceError):
    code = "E203"


class SourceTooLarge(SourceError):
    code = "E204"


class ExtractionError(SourceError):
    code = "E205"


class MalformedURL(SourceError):
    code = "E206"


class LookupUnavailable(SourceError):
    """A scholarly service was unreachable, rate-limited past our patience, or answered a malformed record."""

    code = "E207"


class ModelError(CitemarkError):
    code = "E300"


class ModelNotFound(ModelError):
    code = "E301"


class ModelPackInvalid(ModelError):
    code = "E302"


class ModelDownloadError(ModelError):
    code = "E303"


class ProtocolError(CitemarkError):
    code = "E400"


class FrameError(ProtocolError):
    code = "E401"


class MessageError(ProtocolError):
    code = "E402"


class RequestCancelled(ProtocolError):
    code = "E403"


class OriginRefused(ProtocolError):
    code = "E404"
