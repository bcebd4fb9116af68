"""``citemark auth set | list | remove``: the keyring side of source credentials (values never printed)."""

from __future__ import annotations

import getpass
import sys
from typing import Any

from citemark import credentials


def run(args: Any) -> int:
    if args.auth_command == "set":
        header = "Cookie" if args.cookie else args.header
        if args.value_from_stdin:
            value = sys.stdin.readline().strip()
        else:
            value = getpass.getpass(f"{header} value for {args.host} (not echoed): ").strip()
        share = tuple(args.share or ())
        credentials.remember(args.host, header, value, share)
        users = "the CLI" + "".join(f", {'web pages' if s == 'page' else 'agents'}" for s in sorted(set(share)))
        print(f"stored a {header} credential for {credentials.normalise_host(args.host)} "
              f"(sent over https to that host only, for requests from {users})")
        return 0
    if args.auth_command == "list":
        names = credentials.hosts()
        for host in names:
            shared = ",".join(credentials.shared_with(host)) or "cli only"
            print(f"{host}\t{credentials.header_name(host) or '?'}\t{shared}")
        if not names:
            print("no credentials stored")
        return 0
    removed = credentials.forget(args.host)
    print(f"removed the credential for {args.host}" if removed else f"no credential stored for {args.host}")
    return 0
