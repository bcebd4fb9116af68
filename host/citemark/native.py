"""The native-messaging host: the browser extension's door to the engine (docs/protocol.md).

Framing: a 32-bit native-order length of the UTF-8 bytes, then the JSON. The
host reads frames on a thread (stdin is blocking on every OS), dispatches each
message on the asyncio loop, and writes frames under one lock so concurrent
requests never interleave. Nothing but frames ever reaches stdout: ``sys.stdout``
is pointed at stderr before anything else runs, logs go to a rotating file
under the user state dir and to stderr.

Every message is hostile until validated: a bad frame, invalid UTF-8, JSON that
is not an object, an unknown type or a missing field gets an ``error`` reply
(when there is an id to reply to, or with ``id: null``) and the host keeps
serving. A length beyond ``MAX_INCOMING`` is skipped, JSON nested too deeply is
an error like any other, and a truncated frame or EOF on stdin ends the host
cleanly — at once, even while a thread is still working on a hostile source.
Parsing an answer runs off the event loop, so one huge answer never delays a
``ping``. Ids are strings (≤ 128 characters) or integers, and ``1`` and ``"1"``
are different requests. A host started by an extension its manifests do not
name (``origins``) answers every message with E404. The adapter holds no
verdict logic: ``verify`` streams the engine's verdicts, one message each.
"""

from __future__ import annotations

import asyncio
import json
import logging
import logging.handlers
import struct
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, BinaryIO

from citemark import __version__
from citemark.browsers import HOST_NAME
from citemark.errors import AnswerTooLargeError, CitemarkError, FrameError, MessageError, OriginRefused, ProtocolError
from citemark.origins import allowed_origin
from citemark.settings import POLICIES, Settings

__all__ = ["MAX_INCOMING", "MAX_OUTGOING", "NativeHost", "encode_frame", "run"]

PROTOCOL = 1
#: Browser → host: Chrome allows 64 MiB; an answer is far smaller.
MAX_INCOMING = 8 * 1024 * 1024
#: Host → browser: Chrome rejects frames over 1 MB.
MAX_OUTGOING = 1024 * 1024 - 1024
CAPABILITIES = ["verify", "verify_selection", "cancel", "status", "ping", "stream"]
_HEADER = struct.Struct("=I")
_EOF = object()
MAX_ID_CHARS = 128

log = logging.getLogger("citemark.host")


def encode_frame(message: dict[str, Any]) -> bytes:
    """One frame; messages over the browser's limit are trimmed, never sent whole."""
    data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if len(data) > MAX_OUTGOING:
        data = json.dumps(_trimmed(message), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if len(data) > MAX_OUTGOING:
        # ids are at most MAX_ID_CHARS long (dispatch refuses longer ones), so this frame always fits
        data = json.dumps({"v": PROTOCOL, "id": message.get("id"), "type": "error",
                           **ProtocolError("reply too large for native messaging").to_dict()}).encode("utf-8")
    return _HEADER.pack(len(data)) + data


def _trimmed(message: dict[str, Any], limit: int = 4000) -> Any:
    """The message with every long string cut (quotes, claims), marking what was cut."""
    if isinstance(message, dict):
        return {key: _trimmed(value, limit) for key, value in message.items()}
    if isinstance(message, list):
        return [_trimmed(item, limit) for item in message[:500]]
    if isinstance(message, str) and len(message) > limit:
        return message[:limit] + "…"
    return message


class FrameReader:
    """Reads frames from a binary stream; yields dicts, FrameError/MessageError, or _EOF."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream

    def read(self) -> dict[str, Any] | CitemarkError | object:
        header = self._exactly(_HEADER.size)
        if header is None:
            return _EOF
        (length,) = _HEADER.unpack(header)
        if length > MAX_INCOMING:
            if not self._skip(length):
                return _EOF
            return FrameError(f"message of {length:,} bytes is over the {MAX_INCOMING:,}-byte limit")
        body = self._exactly(length)
        if body is None:
            return _EOF  # truncated: the stream cannot be resynchronised
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as error:
            return FrameError(f"message is not valid UTF-8 ({error.reason} at byte {error.start})")
        try:
            message = json.loads(text)
        except ValueError as error:
            return MessageError(f"message is not JSON: {error}")
        except RecursionError:
            return MessageError("message is nested too deeply")
        if not isinstance(message, dict):
            return MessageError("message must be a JSON object")
        return message

    def _exactly(self, size: int) -> bytes | None:
        chunks, remaining = [], size
        while remaining:
            chunk = self.stream.read(remaining)
            if not chunk:
                return None
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks)

    def _skip(self, size: int) -> bool:
        while size:
            chunk = self.stream.read(min(size, 1 << 20))
            if not chunk:
                return False
            size -= len(chunk)
        return True


class NativeHost:
    """Dispatches messages; one long-lived instance per browser port."""

    def __init__(self, settings: Settings, write: Callable[[dict[str, Any]], None], origin: str | None = None,
                 *, origin_allowed: bool = True) -> None:
        self.settings = settings
        self._write = write
        self.origin = origin
        self.origin_allowed = origin_allowed
        from citemark.doors import EngineSlot

        self._engines = EngineSlot(settings, requester="page")
        self._requests: dict[str, asyncio.Task[None]] = {}
        self.started = time.monotonic()

    # ------------------------------------------------------------- plumbing

    def send(self, message_id: Any, kind: str, **fields: Any) -> None:
        self._write({"v": PROTOCOL, "id": message_id, "type": kind, **fields})

    def error(self, message_id: Any, error: CitemarkError) -> None:
        self.send(message_id, "error", **error.to_dict())

    async def engine(self):  # noqa: ANN201 - citemark.engine.Engine, imported late for a fast hello
        return await self._engines.get()

    async def close(self) -> None:
        for task in list(self._requests.values()):
            task.cancel()
        if self._requests:
            await asyncio.gather(*self._requests.values(), return_exceptions=True)
        await self._engines.aclose()

    # ------------------------------------------------------------- dispatch

    def dispatch(self, message: dict[str, Any] | CitemarkError) -> None:
        if isinstance(message, CitemarkError):
            self.error(None, message)
            return
        message_id = message.get("id")
        if message_id is not None and (
            isinstance(message_id, bool) or not isinstance(message_id, (str, int))
            or (isinstance(message_id, str) and len(message_id) > MAX_ID_CHARS)
            or (isinstance(message_id, int) and abs(message_id) >= 2**53)
        ):
            self.error(None, MessageError(f"id must be a string of at most {MAX_ID_CHARS} characters or an integer"))
            return
        if not self.origin_allowed:
            self.error(message_id, OriginRefused(f"this host does not serve {self.origin}"))
            return
        kind = message.get("type")
        version = message.get("v", PROTOCOL)
        if version != PROTOCOL:
            self.error(message_id, MessageError(f"protocol version {version!r} is not supported (this host speaks {PROTOCOL})"))
            return
        handler = {
            "hello": self._hello, "ping": self._ping, "status": self._status, "cancel": self._cancel,
            "verify": self._verify, "verify_selection": self._verify_selection,
        }.get(kind if isinstance(kind, str) else "")
        if handler is None:
            self.error(message_id, MessageError(f"unknown message type {kind!r}"))
            return
        try:
            handler(message_id, message)
        except CitemarkError as error:
            self.error(message_id, error)

    def _hello(self, message_id: Any, message: dict[str, Any]) -> None:
        try:
            pack = self._engines.pack()
            model, mode = (pack.name, "model") if pack else (None, "lexical-only")
        except CitemarkError as error:
            model, mode = None, f"model error: {error.message}"
        self.send(message_id, "hello", name=HOST_NAME, version=__version__, protocol=PROTOCOL, model=model,
                  mode=mode, capabilities=CAPABILITIES)

    def _ping(self, message_id: Any, message: dict[str, Any]) -> None:
        self.send(message_id, "pong", uptime=round(time.monotonic() - self.started, 3))

    def _status(self, message_id: Any, message: dict[str, Any]) -> None:
        async def status() -> None:
            engine = await self.engine()
            self.send(message_id, "status", version=__version__, model=engine.model_name,
                      cache=engine.cache.stats() if engine.cache else None, in_flight=len(self._requests),
                      pairs_scored=engine.pairs_scored)

        self._start(message_id, status())

    def _cancel(self, message_id: Any, message: dict[str, Any]) -> None:
        target = message.get("target", message_id)
        task = self._requests.get(_request_key(target)) if isinstance(target, (str, int)) else None
        if task is not None:
            task.cancel()

    def _verify(self, message_id: Any, message: dict[str, Any]) -> None:
        answer = message.get("answer")
        if not isinstance(answer, dict):
            raise MessageError("verify needs an 'answer' object: {format, content}")
        content, fmt = answer.get("content"), answer.get("format", "html")
        if not isinstance(content, str):
            raise MessageError("answer.content must be a string")
        if fmt not in ("markdown", "html", "json"):
            raise MessageError("answer.format must be 'markdown', 'html' or 'json'")
        from citemark.doors import check_answer_size

        check_answer_size(content, self.settings)
        page_url = message.get("page_url") if isinstance(message.get("page_url"), str) else None
        coverage = message.get("coverage") is True  # opt-in: the extension shows uncited sentences only when asked
        self._start(message_id, self._stream(message_id, content, fmt, page_url, coverage, _policy(message)))

    def _verify_selection(self, message_id: Any, message: dict[str, Any]) -> None:
        text, url = message.get("text"), message.get("url")
        if not isinstance(text, str) or not text.strip() or not isinstance(url, str) or not url.strip():
            raise MessageError("verify_selection needs 'text' and 'url' strings")
        if len(text) > 20_000:
            raise AnswerTooLargeError("selection is over 20,000 characters")
        from citemark.doors import one_claim
        from citemark.types import ParsedAnswer

        # The page's address, never text to judge against; a path is refused: the host reads no local files.
        claim = one_claim(text, url, marker="selection", inline_text=False)
        self._start(message_id, self._stream(message_id, ParsedAnswer(claims=(claim,), format="selection"), None, None,
                                             policy=_policy(message)))

    def _start(self, message_id: Any, work: Any) -> None:
        key = _request_key(message_id)
        if message_id is None or key in self._requests:
            work.close()
            raise MessageError("every request needs a unique id" if message_id is None else f"request {key!r} is already running")

        async def guarded() -> None:
            try:
                await work
            except asyncio.CancelledError:
                self.send(message_id, "cancelled")
            except CitemarkError as error:
                self.error(message_id, error)
            except Exception as error:  # the host must survive any one request failing
                log.exception("request %s failed", key)
                self.send(message_id, "error", code=CitemarkError.code, error=type(error).__name__, message=str(error)[:500])
            finally:
                self._requests.pop(key, None)

        def cancelled_before_start(task: asyncio.Task[None]) -> None:
            # A task cancelled before its first step never runs guarded(): answer for it here.
            if task.cancelled():
                work.close()
                self._requests.pop(key, None)
                self.send(message_id, "cancelled")

        task = asyncio.get_running_loop().create_task(guarded())
        task.add_done_callback(cancelled_before_start)
        self._requests[key] = task

    async def _stream(self, message_id: Any, content: Any, fmt: str | None, page_url: str | None,
                      coverage: bool = False, policy: str | None = None) -> None:
        from citemark.answer import parse_answer
        from citemark.doors import collect
        from citemark.types import ParsedAnswer

        if isinstance(content, ParsedAnswer):
            parsed = content
        else:  # a 300 kB answer takes a while to parse: off the loop, so pings are answered meanwhile
            parsed = await asyncio.to_thread(parse_answer, content, fmt, page_url=page_url)
        engine = await self.engine()
        limit = self.settings.max_citations
        citations = [
            {"claim_index": claim.index, "claim": claim.text, "citation": citation.to_dict()}
            for claim in parsed.claims for citation in claim.citations
        ][:limit]
        over = max(0, parsed.citation_count - limit)
        notice = (f"{parsed.citation_count} citations: the first {limit} are checked, {over} are not (max_citations)"
                  if over else None)
        self.send(message_id, "accepted", citations=citations, not_checked=over, notice=notice,
                  unresolved=[u.to_dict() for u in parsed.unresolved][:limit], model=engine.model_name)
        report = await collect(engine, parsed, coverage=coverage, policy=policy,
                               on_verdict=lambda verdict: self.send(message_id, "verdict", verdict=verdict.to_dict()))
        extra = {"coverage": report.coverage} if report.coverage is not None else {}
        self.send(message_id, "done", summary=report.summary(), unresolved=[u.to_dict() for u in report.unresolved],
                  model=engine.model_name, policy=report.policy, **extra)


def _policy(message: dict[str, Any]) -> str | None:
    """The request's verdict policy ("strict" or "balanced"; absent: the host's setting)."""
    policy = message.get("policy")
    if policy is not None and policy not in POLICIES:
        raise MessageError(f"policy must be one of {', '.join(POLICIES)}")
    return policy


def run(args: Any = None) -> int:
    """``citemark host``: serve native messaging on stdin/stdout until EOF."""
    stdout = sys.stdout.buffer
    sys.stdout = sys.stderr  # any stray print goes to stderr, never into the frame stream
    settings = Settings.load()
    _log_to_file(settings)
    origin = getattr(args, "origin", None)
    allowed = allowed_origin(origin, list(getattr(args, "extra", None) or []))
    log.info("host %s started by %s%s", __version__, origin or "hand", "" if allowed else " (not served)")
    from citemark.doors import serve_then_exit

    serve_then_exit(_serve(settings, sys.stdin.buffer, stdout, origin, allowed), "host")


async def _serve(settings: Settings, stdin: BinaryIO, stdout: BinaryIO, origin: str | None,
                 origin_allowed: bool = True) -> int:
    loop = asyncio.get_running_loop()
    write_lock = threading.Lock()

    def write(message: dict[str, Any]) -> None:
        frame = encode_frame(message)
        with write_lock:
            try:
                stdout.write(frame)
                stdout.flush()
            except (BrokenPipeError, ValueError, OSError):
                pass  # the browser went away; EOF on stdin ends the host

    host = NativeHost(settings, write, origin, origin_allowed=origin_allowed)
    inbox: asyncio.Queue[Any] = asyncio.Queue()
    reader = FrameReader(stdin)

    def pump() -> None:
        while True:
            try:
                item = reader.read()
            except OSError:  # stdin itself failed
                item = _EOF
            loop.call_soon_threadsafe(inbox.put_nowait, item)
            if item is _EOF:
                return

    threading.Thread(target=pump, name="citemark-stdin", daemon=True).start()
    while True:
        item = await inbox.get()
        if item is _EOF:
            break
        host.dispatch(item)
    await host.close()
    log.info("stdin closed; host exits")
    return 0


def _request_key(message_id: str | int) -> str:
    """Distinct keys for ``1`` and ``"1"``: they are two requests."""
    return json.dumps(message_id)


def _log_to_file(settings: Settings) -> None:
    root = logging.getLogger("citemark")
    root.setLevel(logging.INFO)
    try:
        directory = settings.state_dir / "logs"
        directory.mkdir(parents=True, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(directory / "host.log", maxBytes=1_000_000, backupCount=3,
                                                       encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root.addHandler(handler)
    except OSError as error:
        print(f"citemark host: cannot write logs: {error}", file=sys.stderr)
