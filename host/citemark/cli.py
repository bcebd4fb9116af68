"""The ``citemark`` command: verify answers, manage models, and start the host or MCP server.

Exit codes (shared by every subcommand):
  0  done; for ``verify``: the answer passed — at least one citation was judged
     against a readable source, none is contradicted or retracted, and at least
     ``--threshold`` (default 0.8) of all citations are supported
  1  ``verify``: verification failed, including "nothing could be verified" (no
     citations, or no cited source readable); with ``--strict`` also any
     citation not supported or any marker unresolved
  2  input, model, usage or internal error (the message says which, with its
     error code; a traceback only with ``--debug``)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path

from citemark import __version__
from citemark.asks import MAX_TOP_K, Asks
from citemark.errors import AnswerTooLargeError, CitemarkError, InputError
from citemark.settings import DEFAULT_THRESHOLD, POLICIES, Settings

__all__ = ["main"]

EXIT_OK, EXIT_FAILED, EXIT_ERROR = 0, 1, 2


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and (argv[0].startswith("chrome-extension://") or _firefox_launch(argv)):
        argv = ["host", *argv]  # the browser starts us with its origin as the first argument
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return EXIT_ERROR
    logging.basicConfig(level=logging.WARNING if not getattr(args, "verbose", False) else logging.INFO,
                        format="citemark: %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    try:
        return int(args.handler(args) or 0)
    except CitemarkError as error:
        print(f"citemark: error {error.code}: {error.message}", file=sys.stderr)
        return EXIT_ERROR
    except ValueError as error:  # settings and argument values
        print(f"citemark: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # a bug: say so plainly, exit 2, and keep the traceback for --debug
        if getattr(args, "debug", False):
            raise
        print(f"citemark: internal error {CitemarkError.code}: {type(error).__name__}: {error} "
              "(run with --debug for the traceback)", file=sys.stderr)
        return EXIT_ERROR


def _firefox_launch(argv: list[str]) -> bool:
    """Firefox passes the host manifest path and the add-on id."""
    return len(argv) >= 2 and argv[0].endswith(".json") and "@" in argv[1] and Path(argv[0]).name.startswith("org.citemark")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="citemark", description="Check that cited sources say what AI answers claim.")
    parser.add_argument("--version", action="version", version=f"citemark {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")

    verify = commands.add_parser("verify", help="verify the citations of an answer (Markdown, HTML or JSON)")
    verify.add_argument("file", nargs="?", help="answer file, or - for standard input")
    verify.add_argument("--format", choices=["markdown", "html", "json"], help="answer format (default: detect)")
    verify.add_argument("--claim", help="check one claim (with --source) instead of an answer")
    verify.add_argument("--source", help="for --claim: a URL, DOI, arXiv id, local path, file: URL, or the source text "
                                         "(with a space; an existing file wins)")
    verify.add_argument("--source-text", metavar="TEXT", help="for --claim: the source's text itself")
    verify.add_argument("--json", action="store_true", help="print the JSON report")
    verify.add_argument("--md", type=Path, metavar="FILE", help="also write a Markdown report to FILE")
    verify.add_argument("--threshold", type=float, metavar="F", default=DEFAULT_THRESHOLD,
                        help=f"fail unless at least this share (0-1) of citations is supported (default {DEFAULT_THRESHOLD})")
    verify.add_argument("--url-map", type=Path, metavar="FILE", help="JSON object: marker (1, id:x) → URL, path or text")
    verify.add_argument("--allow-dir", action="append", type=Path, metavar="DIR",
                        help="also read files the answer cites under DIR (default: only the answer's own folder)")
    verify.add_argument("--no-coverage", action="store_true", help="do not list uncited sentences")
    verify.add_argument("--strict", action="store_true", help="fail unless every citation is supported")
    verify.add_argument("--policy", choices=POLICIES, default=None,
                        help="strict (default): supported only when every part of the claim is in the quoted passage; "
                             "balanced: the earlier policy, more recall and less precision")
    verify.add_argument("--model", help="model pack name or folder; 'none' for lexical-only")
    verify.add_argument("--page-url", help="base URL for relative links in an HTML answer")
    verify.add_argument("--no-cache", action="store_true", help="neither read nor write the source cache")
    _cache_dir_argument(verify)
    verify.add_argument("--top-k", type=int, default=1, metavar="N",
                        help=f"show up to N ranked evidence passages per verdict (1-{MAX_TOP_K}; default 1: the "
                             "deciding passage alone)")
    verify.add_argument("--valid-only", action="store_true",
                        help="list only the citations that pass (supported), and say how many were left out; "
                             "the exit code still judges them all")
    verify.add_argument("--expect-sha256", metavar="HEX",
                        help="the SHA-256 the source's text should have (source_sha256 of an earlier report): "
                             "a source whose text differs is unverifiable, reason source_changed")
    verify.add_argument("--support-threshold", type=float, metavar="F",
                        help="raise the bar (0-1): a supported verdict whose support score is below F becomes "
                             "partial; it never makes anything supported")
    verify.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    verify.add_argument("-v", "--verbose", action="store_true")
    verify.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show tracebacks of internal errors")
    verify.set_defaults(handler=_verify)

    model = commands.add_parser("model", help="list, inspect, import or download model packs")
    model_commands = model.add_subparsers(metavar="ACTION")
    listing = model_commands.add_parser("list", help="installed packs, best first")
    listing.set_defaults(handler=_model_list)
    info = model_commands.add_parser("info", help="details of a pack (default: the one in use)")
    info.add_argument("name", nargs="?")
    info.add_argument("--verify", action="store_true", help="also check the files' SHA-256")
    info.set_defaults(handler=_model_info)
    importing = model_commands.add_parser("import", help="validate a pack folder and install it")
    importing.add_argument("folder", type=Path)
    importing.set_defaults(handler=_model_import)
    pull = model_commands.add_parser("pull", help="download a pack from a model hub")
    pull.add_argument("name", help="repository name, e.g. cross-encoder/nli-deberta-v3-xsmall")
    pull.add_argument("--hub", help="hub base URL (default: $CITEMARK_HUB or https://huggingface.co)")
    pull.add_argument("--revision", default="main")
    pull.add_argument("--labels", help="comma-separated output labels when config.json has none")
    pull.add_argument("--input-order", choices=["claim_evidence", "evidence_claim"], default="evidence_claim")
    pull.set_defaults(handler=_model_pull)

    cache = commands.add_parser("cache", help="the source cache")
    cache_commands = cache.add_subparsers(metavar="ACTION")
    stats = cache_commands.add_parser("stats", help="where it is and how big")
    _cache_dir_argument(stats)
    stats.set_defaults(handler=_cache_stats)
    clear = cache_commands.add_parser("clear", help="delete every cached source")
    _cache_dir_argument(clear)
    clear.set_defaults(handler=_cache_clear)

    _add_refs(commands)

    _batch_parser(commands)
    for name, help_text, module, arguments in _DOORS:
        door = commands.add_parser(name, help=help_text)
        door.set_defaults(handler=_door(module, name))
        arguments(door)
    return parser


# ---------------------------------------------------------------- verify


def _verify(args: argparse.Namespace) -> int:
    from citemark.answer import parse_answer
    from citemark.doors import EngineSlot, cache_dir, check_answer_size, collect, one_claim, verification_passed
    from citemark.report import to_markdown, to_terminal
    from citemark.sources.localfiles import LocalFilePolicy
    from citemark.types import ParsedAnswer, Report

    settings = Settings.load(model=args.model, policy=args.policy,
                             cache_dir=cache_dir(args.cache_dir, no_cache=args.no_cache))
    if args.claim is None and args.file is None:
        raise InputError("give an answer FILE (or - for stdin), or --claim TEXT --source URL_OR_PATH")
    if args.source is not None and args.source_text is not None:
        raise InputError("give --source or --source-text, not both")
    source_given = args.source is not None or args.source_text is not None
    if (args.claim is None) != (not source_given):
        raise InputError("--claim and --source (or --source-text) go together")
    if not 0 <= args.threshold <= 1:
        raise InputError("--threshold is a share between 0 and 1")
    asks = Asks(top_k=args.top_k, expect_sha256=args.expect_sha256, support_threshold=args.support_threshold,
                valid_only=args.valid_only)
    url_map = _read_url_map(args.url_map) if args.url_map else None
    if args.claim is not None:
        if args.source_text is not None:
            claim = one_claim(args.claim, args.source_text, as_text=True)
        else:
            claim = one_claim(args.claim, _typed_source(args.source), base=Path.cwd())
        parsed = ParsedAnswer(claims=(claim,), format="claim")
        local_files, coverage = LocalFilePolicy.cli(), False
    else:
        content = _read_answer(args.file, settings.max_answer_chars)
        check_answer_size(content, settings)
        if not content.strip():
            raise InputError(f"{args.file}: the answer is empty")
        answer_dir = Path(args.file).resolve().parent if args.file != "-" else Path.cwd()
        parsed = parse_answer(content, args.format or _format_of(args.file), page_url=args.page_url,
                              sources=url_map, base=answer_dir)
        # Paths cited inside an answer are read only under its folder and the folders the user named.
        local_files = LocalFilePolicy.under(answer_dir, *(args.allow_dir or []))
        coverage = not args.no_coverage

    async def run() -> Report:
        slot = EngineSlot(settings, requester="cli", cache=None if args.no_cache else "auto")
        try:
            engine = await slot.get()
            progress = _Progress(parsed.citation_count, enabled=not args.quiet and not args.json)
            report = await collect(engine, parsed, local_files=local_files, on_verdict=progress.step, coverage=coverage,
                                   asks=asks)
            progress.done()
            return report
        finally:
            await slot.aclose()

    report = asyncio.run(run())
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(to_terminal(report, colour=sys.stdout.isatty() and not os.environ.get("NO_COLOR")))
    if args.md:
        args.md.write_text(to_markdown(report), encoding="utf-8")
    passed, why = verification_passed(report, threshold=args.threshold, strict=args.strict)
    if not passed and not args.quiet:
        print(f"citemark: verification failed: {why}", file=sys.stderr)
    return EXIT_OK if passed else EXIT_FAILED


def _typed_source(value: str) -> str:
    """``--source`` as the user meant it: a path typed here is read as given.

    A file that exists wins over every guess (``x.py`` and ``report.io`` are files here,
    not domains to look up); a folder is an input error. Otherwise a URL, DOI or arXiv
    id is that; a value holding ``/`` or ``\\`` or ending in a file extension is a path,
    which must exist; anything with a space is the source text. A single word that is
    none of these ("srcone") is a typo, not a source: inline text goes in ``--source-text``.
    """
    from citemark.sources.classify import SourceKind, classify

    word = value.strip()
    if not word:
        raise InputError("--source must not be empty")
    if any(c.isspace() for c in word):
        return value
    path = Path(word).expanduser()
    if path.is_dir():
        raise InputError(f"--source {word} is a directory: give a file in it")
    if path.exists():
        return word if path.is_absolute() or word.startswith(("./", "../")) else "./" + word
    kind = classify(word)
    if kind is SourceKind.PATH:
        raise InputError(f"--source {word}: no such file")
    if kind is SourceKind.TEXT:
        raise InputError(f"--source {word}: no such file, and not a URL, DOI or arXiv id "
                         "(give source text with --source-text)")
    return word


def _format_of(file: str) -> str | None:
    """A file's format from its name: a truncated ``.json`` file is a JSON error, not a Markdown answer."""
    suffix = Path(file).suffix.lower()
    return {".json": "json", ".html": "html", ".htm": "html"}.get(suffix)


def _read_url_map(file: Path) -> dict[str, str]:
    """``--url-map FILE``: a JSON object from marker (``1``, ``id:x``) to a source string."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"no such file: {file}") from None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise InputError(f"--url-map {file}: not a JSON file ({error})") from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise InputError("--url-map must be a JSON object of marker → URL, path or source text")
    return data


def _read_answer(file: str, limit: int) -> str:
    raw = _read_bytes(file, limit * 4)  # UTF-8 takes at most four bytes a character
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{file}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    return text  # its length is checked by doors.check_answer_size, as in every door


def _read_bytes(file: str, max_bytes: int) -> bytes:
    """At most ``max_bytes`` of FILE (or stdin); a longer input is refused before more of it is read,
    so a 300 MB file or ``/dev/zero`` costs no more memory than the limit."""
    try:
        if file == "-":
            raw = sys.stdin.buffer.read(max_bytes + 1)
        else:
            with open(file, "rb") as handle:
                raw = handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise InputError(f"no such file: {file}") from None
    except IsADirectoryError:
        raise InputError(f"{file} is a directory") from None
    except OSError as error:
        raise InputError(f"{file}: cannot be read ({error.strerror or error})") from None
    if len(raw) > max_bytes:
        raise AnswerTooLargeError(f"{file}: over the limit of {max_bytes:,} bytes")
    return raw


class _Progress:
    """``checked 3/10 citations`` on stderr while a long verification runs."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.count = total, 0
        self.enabled = enabled and sys.stderr.isatty() and total > 1

    def step(self, verdict: object) -> None:
        self.count += 1
        if self.enabled:
            sys.stderr.write(f"\rcitemark: checked {self.count}/{self.total} citations")
            sys.stderr.flush()

    def done(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * 50 + "\r")
            sys.stderr.flush()


# ---------------------------------------------------------------- refs


def _add_refs(commands: argparse._SubParsersAction) -> None:
    refs = commands.add_parser(
        "refs", help="check that a bibliography's references exist (Crossref, arXiv, OpenAlex)",
        description="Check each reference of a BibTeX file, a Markdown or plain References list, or LaTeX "
                    "\\bibitems, or the reference list of a paper's PDF, or of a paper named by its DOI or arXiv id: "
                    "exists, mismatch, not_found, retracted or unverifiable, and a grade for the list. Only each "
                    "reference's DOI, arXiv id, or title and first author is sent to the services (and, for a paper "
                    "named by id, that id), never anything else.")
    refs.add_argument("file", help="bibliography file (text or PDF), - for standard input, or a paper's DOI or arXiv "
                                   "id (its own reference list; an existing file of that name wins)")
    refs.add_argument("--format", choices=["bibtex", "latex", "list"], help="default: detect")
    refs.add_argument("--json", action="store_true", help="print the JSON report")
    refs.add_argument("--strict", action="store_true", help="also fail when a reference could not be checked")
    refs.add_argument("--no-cache", action="store_true", help="neither read nor write cached records")
    _cache_dir_argument(refs)
    refs.add_argument("-v", "--verbose", action="store_true")
    refs.set_defaults(handler=_refs)


def _refs(args: argparse.Namespace) -> int:
    """Exit 0 when every checked reference exists as cited; 1 when one is missing, mismatched or retracted,
    or when none could be checked (nothing is concluded from silence, not even "passed")."""
    from citemark.doors import cache_dir
    from citemark.scholarly.bibfile import bibliography_text
    from citemark.scholarly.checker import Status, check_bibliography
    from citemark.scholarly.paperrefs import check_paper, paper_id

    settings = Settings.load(cache_dir=cache_dir(args.cache_dir, no_cache=args.no_cache))
    paper = paper_id(args.file) if args.file != "-" and not os.path.lexists(args.file) else None  # a file wins
    if paper is not None:
        report = asyncio.run(check_paper(paper, settings, cache=not args.no_cache))
    else:
        limit = max(settings.max_answer_chars * 4, settings.max_body_bytes)  # a text bibliography, or a paper's PDF
        text = bibliography_text(_read_bytes(args.file, limit), args.file, max_pages=settings.max_pdf_pages)
        report = asyncio.run(check_bibliography(text, settings, fmt=args.format, cache=not args.no_cache))
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        for result in report.results:
            reference = result.reference
            label = reference.key or reference.title or reference.raw[:60]
            print(f"[{reference.index}] {result.status.value:12} {_shown(label)}")
            print(f"     {_shown(result.explanation)}")
            if result.fix:
                print(f"     fix: {_shown(result.fix)}")
        print(report.summary()["text"])
    if all(r.status is Status.UNVERIFIABLE for r in report.results):  # offline, or every entry unreadable
        print("citemark: no reference could be checked, so the list is not passed", file=sys.stderr)
        return EXIT_FAILED
    bad = {Status.NOT_FOUND, Status.MISMATCH, Status.RETRACTED} | ({Status.UNVERIFIABLE} if args.strict else set())
    return EXIT_FAILED if any(r.status in bad for r in report.results) else EXIT_OK


def _shown(text: str) -> str:
    """Text from a file or a service as the terminal shows it: control characters (an SGR colour,
    an OSC 52 clipboard write) escaped, never sent raw."""
    return "".join(char if char.isprintable() else ascii(char)[1:-1] for char in text)


# ---------------------------------------------------------------- model & cache


def _model_list(args: argparse.Namespace) -> int:
    from citemark.models import registry

    settings = Settings.load()
    entries = registry.installed(settings)
    if not entries:
        print("no model packs installed: citemark runs lexical-only (word overlap and number/name checks)")
        return EXIT_OK
    chosen = registry.resolve(settings)
    for entry in entries:
        mark = "*" if chosen and chosen.name == entry.name else " "
        print(f"{mark} {entry.name:36} {entry.where:8} {entry.path or ''}")
    return EXIT_OK


def _model_info(args: argparse.Namespace) -> int:
    from citemark.models import registry
    from citemark.models.pack import verify_checksums

    settings = Settings.load()
    pack = registry.resolve(settings, args.name)
    if pack is None:
        print(json.dumps({"model": None, "mode": "lexical-only"}, indent=2))
        return EXIT_OK
    if args.verify:
        verify_checksums(pack)
    print(json.dumps(pack.describe(), indent=2, ensure_ascii=False))
    return EXIT_OK


def _model_import(args: argparse.Namespace) -> int:
    from citemark.models import registry

    pack = registry.import_pack(Settings.load(), args.folder)
    print(f"imported {pack.name} into {pack.root}")
    return EXIT_OK


def _model_pull(args: argparse.Namespace) -> int:
    from citemark.models.pull import pull

    labels = [x.strip() for x in args.labels.split(",")] if args.labels else None
    pack = pull(Settings.load(), args.name, hub=args.hub, revision=args.revision, labels=labels,
                input_order=args.input_order, progress=sys.stderr)
    print(f"installed {pack.name} into {pack.root}")
    return EXIT_OK


def _cache_dir_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cache-dir", type=Path, metavar="DIR",
                        help="keep the fetch cache in DIR (default: the cache_dir setting)")


def _cache_settings(args: argparse.Namespace) -> Settings:
    from citemark.doors import cache_dir

    return Settings.load(cache_dir=cache_dir(args.cache_dir))


def _cache_stats(args: argparse.Namespace) -> int:
    from citemark.sources.cache import SourceCache

    settings = _cache_settings(args)
    cache = SourceCache(settings.cache_dir / "sources.sqlite3")
    print(json.dumps(cache.stats(), indent=2))
    return EXIT_OK


def _cache_clear(args: argparse.Namespace) -> int:
    from citemark.sources.cache import SourceCache

    cache = SourceCache(_cache_settings(args).cache_dir / "sources.sqlite3")
    cache.clear()
    _clear_scholarly_records(cache.path)
    print("source cache cleared")
    return EXIT_OK


def _clear_scholarly_records(path: Path) -> None:
    """Crossref / arXiv / OpenAlex records live in their own table of the same file."""
    from citemark.scholarly.cache import RecordCache

    records = RecordCache(path, ttl=0)
    records.clear()
    records.close()


# ---------------------------------------------------------------- batch


def _batch_parser(commands: argparse._SubParsersAction) -> None:
    """``citemark batch``: its work lives in ``citemark.batch_cli``, imported only when it runs."""
    batch = commands.add_parser("batch", help="verify a JSON Lines file of answers, resumably (--ray for a cluster)")
    batch.add_argument("input", help="JSON Lines, one answer per line with an 'id' ('-' for standard input)")
    batch.add_argument("--out", required=True, type=Path, help="JSON Lines results; ids already there are skipped")
    batch.add_argument("--model", help="model pack name or folder; 'none' for lexical-only")
    batch.add_argument("--policy", choices=POLICIES, default=None,
                       help="the verdict policy (default strict); a batch resumes only under the policy it began with")
    batch.add_argument("--concurrency", type=int, default=16, metavar="N", help="answers verified at once (default 16)")
    batch.add_argument("--no-cache", action="store_true", help="use a temporary source cache, not the shared one")
    _cache_dir_argument(batch)
    batch.add_argument("--allow-dir", action="append", type=Path, metavar="DIR",
                       help="also read local files the answers cite under DIR (default: only the input file's folder)")
    batch.add_argument("--workers", type=int, metavar="N",
                       help="verify in N worker processes on this machine (default: one per core, at most 4, "
                            "for an input of 64 lines or more; else 1)")
    batch.add_argument("--ray", metavar="ADDRESS", help="run on a Ray cluster: auto, ray://HOST:10001, HOST:6379 or local")
    batch.add_argument("--ray-actors", type=int, metavar="N", help="verifier actors (default: one per 4 cluster CPUs)")
    batch.add_argument("--summary", type=Path, metavar="FILE", help="also write the summary as JSON to FILE")
    batch.add_argument("-q", "--quiet", action="store_true", help="no progress and no summary on stderr")
    batch.add_argument("-v", "--verbose", action="store_true")
    batch.set_defaults(handler=_door("citemark.batch_cli", "batch"))


# ---------------------------------------------------------------- the other doors


def _host_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("origin", nargs="?", help="chrome-extension://ID/ (Chromium) or the manifest path (Firefox)")
    parser.add_argument("extra", nargs="*", help=argparse.SUPPRESS)


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    """``mcp``: everything it needs comes from the settings."""


def _browser_arguments(parser: argparse.ArgumentParser, *, default: str) -> None:
    parser.add_argument("--browser", action="append",
                        choices=["chrome", "chromium", "edge", "brave", "vivaldi", "firefox", "all", "auto"],
                        help=f"repeatable; default: {default}")
    parser.add_argument("--user-data-dir", type=Path, metavar="DIR",
                        help="a Chromium browser started with --user-data-dir DIR (default browser: chromium)")


def _scope_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--system", action="store_true", help="all users (needs administrator rights)")
    parser.add_argument("--user", dest="system", action="store_false", help="this user only (default)")


def _install_arguments(parser: argparse.ArgumentParser) -> None:
    parser.set_defaults(install_command="install")
    _scope_arguments(parser)
    _browser_arguments(parser, default="the browsers found for this user")
    parser.add_argument("--extension-id", action="append", help="also allow this Chromium extension id")


def _uninstall_arguments(parser: argparse.ArgumentParser) -> None:
    parser.set_defaults(install_command="uninstall")
    _scope_arguments(parser)
    _browser_arguments(parser, default="the browsers found for this user")


def _doctor_arguments(parser: argparse.ArgumentParser) -> None:
    parser.set_defaults(install_command="doctor")  # it reads the user and the system folders alike, as browsers do
    _browser_arguments(parser, default="every browser")
    parser.add_argument("--extension-id", action="append", help="check that this Chromium extension id is allowed")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def _auth_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="auth_command", metavar="ACTION", required=True)
    setting = actions.add_parser("set", help="store a credential for one host (asks for the value)")
    setting.add_argument("host")
    kind = setting.add_mutually_exclusive_group()
    kind.add_argument("--header", default="Authorization", help="header to send (default: Authorization)")
    kind.add_argument("--cookie", action="store_true", help="send the value as the Cookie header")
    setting.add_argument("--value-from-stdin", action="store_true", help="read the value from stdin, not a prompt")
    setting.add_argument("--share", action="append", choices=["page", "agent"],
                         help="also send it for requests from web pages (the extension) or agents (MCP); "
                              "default: the CLI only")
    actions.add_parser("list", help="hosts with a stored credential (values are never shown)")
    removing = actions.add_parser("remove", help="delete the credential of a host")
    removing.add_argument("host")


Arguments = Callable[[argparse.ArgumentParser], None]

#: Subcommands served by their own modules: (name, help, module with ``run(args)``, the door's arguments).
_DOORS: list[tuple[str, str, str, Arguments]] = [
    ("host", "serve the browser extension over native messaging (browsers start this)", "citemark.native",
     _host_arguments),
    ("mcp", "serve MCP on stdio for desktop agents", "citemark.mcpserver", _no_arguments),
    ("install", "register the native host with browsers", "citemark.install", _install_arguments),
    ("uninstall", "remove what install registered", "citemark.install", _uninstall_arguments),
    ("doctor", "prove each browser can start the host; check the model and cache", "citemark.doctor",
     _doctor_arguments),
    ("auth", "credentials for sources that need your own access (kept in the OS keyring)", "citemark.cli_auth",
     _auth_arguments),
]


def _door(module: str, name: str):  # noqa: ANN202
    def handler(args: argparse.Namespace) -> int:
        import importlib

        return int(importlib.import_module(module).run(args) or 0)

    return handler


if __name__ == "__main__":
    sys.exit(main())
