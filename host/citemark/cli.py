"""The ``citemark`` command: verify answers, manage models, and start the host or MCP server.

Exit codes (shared by every subcommand):
  0  done; for ``verify``: the answer passed
  1  ``verify``: verification failed (a citation contradicted or retracted; with
     ``--threshold F`` fewer than F of the citations supported; with ``--strict``
     any citation not supported or any marker unresolved)
  2  input, model or usage error (the message says which, with its error code)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
from pathlib import Path

from citemark import __version__
from citemark.errors import CitemarkError, InputError
from citemark.settings import Settings

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


def _firefox_launch(argv: list[str]) -> bool:
    """Firefox passes the host manifest path and the add-on id."""
    return len(argv) >= 2 and argv[0].endswith(".json") and "@" in argv[1] and Path(argv[0]).name.startswith("org.citemark")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="citemark", description="Check that cited sources say what AI answers claim.")
    parser.add_argument("--version", action="version", version=f"citemark {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")

    verify = commands.add_parser("verify", help="verify the citations of an answer (Markdown, HTML or JSON)")
    verify.add_argument("file", nargs="?", help="answer file, or - for standard input")
    verify.add_argument("--format", choices=["markdown", "html", "json"], help="answer format (default: detect)")
    verify.add_argument("--claim", help="check one claim (with --source) instead of an answer")
    verify.add_argument("--source", help="URL or local path for --claim")
    verify.add_argument("--json", action="store_true", help="print the JSON report")
    verify.add_argument("--md", type=Path, metavar="FILE", help="also write a Markdown report to FILE")
    verify.add_argument("--threshold", type=float, metavar="F", help="fail unless at least this share (0-1) of citations is supported")
    verify.add_argument("--strict", action="store_true", help="fail unless every citation is supported")
    verify.add_argument("--model", help="model pack name or folder; 'none' for lexical-only")
    verify.add_argument("--page-url", help="base URL for relative links in an HTML answer")
    verify.add_argument("--no-cache", action="store_true", help="neither read nor write the source cache")
    verify.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    verify.add_argument("-v", "--verbose", action="store_true")
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
    stats.set_defaults(handler=_cache_stats)
    clear = cache_commands.add_parser("clear", help="delete every cached source")
    clear.set_defaults(handler=_cache_clear)

    _batch_parser(commands)
    for name, help_text, module in _DOORS:
        door = commands.add_parser(name, help=help_text)
        door.set_defaults(handler=_door(module, name))
        _door_arguments(name, door)
    return parser


# ---------------------------------------------------------------- verify


def _verify(args: argparse.Namespace) -> int:
    from citemark.engine import Engine
    from citemark.report import to_markdown, to_terminal
    from citemark.sources.loader import LocalFilePolicy
    from citemark.types import Label, Report

    settings = Settings.load(model=args.model)
    if args.no_cache:
        cache = None
    else:
        cache = "auto"
    if args.claim is None and args.file is None:
        raise InputError("give an answer FILE (or - for stdin), or --claim TEXT --source URL_OR_PATH")
    if (args.claim is None) != (args.source is None):
        raise InputError("--claim and --source go together")
    content = None
    if args.claim is None:
        content = _read_answer(args.file, settings.max_answer_chars)
    base = Path(args.file).resolve().parent if args.file and args.file != "-" else Path.cwd()

    async def run() -> Report:
        engine = Engine(settings, cache=cache)
        try:
            if args.claim is not None:
                source = args.source
                if not source.startswith(("http://", "https://", "doi:", "arxiv:", "arXiv:")):
                    source = str(Path(source).expanduser())
                verdict = await engine.verify_claim(args.claim, source, local_files=LocalFilePolicy.cli())
                return Report(verdicts=[verdict], model=engine.model_name)
            from citemark.answer import parse_answer

            parsed = _relative_paths(parse_answer(content or "", args.format, page_url=args.page_url), base)
            report = Report(unresolved=list(parsed.unresolved), model=engine.model_name)
            progress = _Progress(parsed.citation_count, enabled=not args.quiet and not args.json)
            async for verdict in engine.verify(parsed, local_files=LocalFilePolicy.cli()):
                report.verdicts.append(verdict)
                progress.step(verdict)
            progress.done()
            return report
        finally:
            await engine.aclose()

    report = asyncio.run(run())
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(to_terminal(report, colour=sys.stdout.isatty() and not os.environ.get("NO_COLOR")))
    if args.md:
        args.md.write_text(to_markdown(report), encoding="utf-8")
    counts = report.summary()["counts"]
    total = len(report.verdicts)
    failed = counts[Label.CONTRADICTED.value] or counts[Label.RETRACTED.value]
    if args.threshold is not None:
        if not 0 <= args.threshold <= 1:
            raise InputError("--threshold is a share between 0 and 1")
        failed = failed or (counts[Label.SUPPORTED.value] / total if total else 0.0) < args.threshold
    if args.strict:
        failed = failed or counts[Label.SUPPORTED.value] != total or bool(report.unresolved)
    return EXIT_FAILED if failed else EXIT_OK


def _read_answer(file: str, limit: int) -> str:
    try:
        raw = sys.stdin.buffer.read(limit * 4 + 1) if file == "-" else Path(file).read_bytes()
    except FileNotFoundError:
        raise InputError(f"no such file: {file}") from None
    except IsADirectoryError:
        raise InputError(f"{file} is a directory") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{file}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    if len(text) > limit:
        raise InputError(f"{file}: answer is longer than {limit:,} characters")
    return text


def _relative_paths(parsed, base: Path):  # noqa: ANN001, ANN202 - ParsedAnswer in, ParsedAnswer out
    """Citations to relative local paths are read relative to the answer file."""
    from dataclasses import replace

    from citemark.types import Citation

    def fix(citation: Citation) -> Citation:
        url = citation.url or ""
        if url and "://" not in url and not url.startswith(("doi:", "arxiv:", "arXiv:", "10.")):
            path = Path(url.removeprefix("file:"))
            return replace(citation, url=None, path=str(path if path.is_absolute() else base / path))
        if url.startswith("file://"):
            return replace(citation, url=None, path=url.removeprefix("file://"))
        return citation

    claims = tuple(replace(c, citations=tuple(fix(x) for x in c.citations)) for c in parsed.claims)
    return replace(parsed, claims=claims)


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


def _cache_stats(args: argparse.Namespace) -> int:
    from citemark.sources.cache import SourceCache

    settings = Settings.load()
    cache = SourceCache(settings.cache_dir / "sources.sqlite3")
    print(json.dumps(cache.stats(), indent=2))
    return EXIT_OK


def _cache_clear(args: argparse.Namespace) -> int:
    from citemark.sources.cache import SourceCache

    cache = SourceCache(Settings.load().cache_dir / "sources.sqlite3")
    cache.clear()
    print("source cache cleared")
    return EXIT_OK


# ---------------------------------------------------------------- batch


def _batch_parser(commands: argparse._SubParsersAction) -> None:
    """``citemark batch``: its work lives in ``citemark.batch_cli``, imported only when it runs."""
    batch = commands.add_parser("batch", help="verify a JSON Lines file of answers, resumably (--ray for a cluster)")
    batch.add_argument("input", help="JSON Lines, one answer per line with an 'id' ('-' for standard input)")
    batch.add_argument("--out", required=True, type=Path, help="JSON Lines results; ids already there are skipped")
    batch.add_argument("--model", help="model pack name or folder; 'none' for lexical-only")
    batch.add_argument("--concurrency", type=int, default=16, metavar="N", help="answers verified at once (default 16)")
    batch.add_argument("--no-cache", action="store_true", help="use a temporary source cache, not the shared one")
    batch.add_argument("--ray", metavar="ADDRESS", help="run on a Ray cluster: auto, ray://HOST:10001, HOST:6379 or local")
    batch.add_argument("--ray-actors", type=int, metavar="N", help="verifier actors (default: one per 4 cluster CPUs)")
    batch.add_argument("--summary", type=Path, metavar="FILE", help="also write the summary as JSON to FILE")
    batch.add_argument("-q", "--quiet", action="store_true", help="no progress and no summary on stderr")
    batch.add_argument("-v", "--verbose", action="store_true")
    batch.set_defaults(handler=_door("citemark.batch_cli", "batch"))


# ---------------------------------------------------------------- the other doors

#: Subcommands served by their own modules: (name, help, module with ``run(args)``).
_DOORS: list[tuple[str, str, str]] = [
    ("host", "serve the browser extension over native messaging (browsers start this)", "citemark.native"),
    ("mcp", "serve MCP on stdio for desktop agents", "citemark.mcpserver"),
    ("install", "register the native host with browsers", "citemark.install"),
    ("uninstall", "remove what install registered", "citemark.install"),
    ("doctor", "check the host registration, model and cache", "citemark.install"),
    ("auth", "credentials for sources that need your own access (kept in the OS keyring)", "citemark.cli_auth"),
]


def _door(module: str, name: str):  # noqa: ANN202
    def handler(args: argparse.Namespace) -> int:
        import importlib

        return int(importlib.import_module(module).run(args) or 0)

    return handler


def _door_arguments(name: str, parser: argparse.ArgumentParser) -> None:
    """Arguments of the subcommands that live in other modules."""
    if name == "host":
        parser.add_argument("origin", nargs="?", help="chrome-extension://ID/ (Chromium) or the manifest path (Firefox)")
        parser.add_argument("extra", nargs="*", help=argparse.SUPPRESS)
    elif name in ("install", "uninstall", "doctor"):
        parser.set_defaults(install_command=name)
        parser.add_argument("--system", action="store_true", help="all users (needs administrator rights)")
        parser.add_argument("--user", dest="system", action="store_false", help="this user only (default)")
        if name == "install":
            parser.add_argument("--browser", action="append",
                                choices=["chrome", "chromium", "edge", "brave", "vivaldi", "firefox", "all", "auto"],
                                help="repeatable; default: the browsers found for this user")
            parser.add_argument("--extension-id", action="append", help="also allow this Chromium extension id")
    elif name == "auth":
        actions = parser.add_subparsers(dest="auth_command", metavar="ACTION", required=True)
        setting = actions.add_parser("set", help="store a credential for one host (asks for the value)")
        setting.add_argument("host")
        kind = setting.add_mutually_exclusive_group()
        kind.add_argument("--header", default="Authorization", help="header to send (default: Authorization)")
        kind.add_argument("--cookie", action="store_true", help="send the value as the Cookie header")
        setting.add_argument("--value-from-stdin", action="store_true", help="read the value from stdin, not a prompt")
        actions.add_parser("list", help="hosts with a stored credential (values are never shown)")
        removing = actions.add_parser("remove", help="delete the credential of a host")
        removing.add_argument("host")


if __name__ == "__main__":
    sys.exit(main())
