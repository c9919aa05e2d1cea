"""Start or stop a local PostgreSQL server with pgvector (PyPI `pgserver`) for tests, CI and benchmarks.

    python scripts/pg_server.py start DIR   # prints the server's postgresql:// URL; exit 1 if it cannot start
    python scripts/pg_server.py stop DIR

The server keeps running after `start` returns (its data and socket live in DIR) until `stop`.
"""

from __future__ import annotations

import sys


def start(path: str) -> str:
    """Start (or reuse) the server in `path`, check that pgvector loads, return its URL."""
    import pgserver

    server = pgserver.get_server(path, cleanup_mode=None)
    server.psql("CREATE EXTENSION IF NOT EXISTS vector;")
    return server.get_uri()


def stop(path: str) -> None:
    import pgserver

    pgserver.get_server(path, cleanup_mode="stop").cleanup()


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[1] not in ("start", "stop"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        if argv[1] == "start":
            print(start(argv[2]))
        else:
            stop(argv[2])
    except Exception as e:  # noqa: BLE001 - one line for CI logs
        print(f"pg_server: could not {argv[1]} PostgreSQL in {argv[2]}: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
