"""Errors papershelf reports to people, not stack traces.

Every error a user can cause or meet derives from `PapershelfError`; its
message is meant to be read as it is, in one line.  Each class says what a
front end does with it: the CLI's exit code and the HTTP status a server
answers with.  Front ends map errors through these two attributes only, so a
new error class needs no edit anywhere else.
"""

from __future__ import annotations


class PapershelfError(Exception):
    """Base class: the message is meant for the user as it is."""

    exit_code = 1
    http_status = 500


class BadArgument(PapershelfError, ValueError):
    """A request that cannot mean anything: a bad mode, an out-of-range number, an empty query.
    Also a ValueError, so callers that validated numbers with ValueError still catch it."""

    exit_code = 2
    http_status = 400


class NotFound(PapershelfError):
    """No paper, unit or space with that id."""

    http_status = 404


class AmbiguousPaper(BadArgument):
    """A prefix that names several papers (the message lists them)."""


class SourceChanged(PapershelfError):
    """A paper's source file is no longer the file that was indexed (other bytes, a link out of its
    folder): a server refuses to hand it out."""

    http_status = 409


class LibraryFileError(PapershelfError):
    """The library file is missing, not a papershelf library, or from a newer version."""

    http_status = 503


class ConnectionLost(LibraryFileError):
    """The connection to a library server (PostgreSQL) went away and could not be re-opened within
    the retries; nothing uncommitted was kept, so rerunning the command resumes."""


class ReadOnlyLibrary(LibraryFileError):
    """A write to a library opened read-only (the file, or its folder, is not writable)."""

    http_status = 403


class StorageError(PapershelfError):
    """The disk is full or refused a write; the transaction was rolled back, the library is intact."""

    http_status = 507


class BuildLocked(PapershelfError):
    """Another process holds the embedding build lock."""

    http_status = 409

    def __init__(self, pid: int, host: str, started_at: float):
        self.pid, self.host, self.started_at = pid, host, started_at
        super().__init__(f"another embedding build is running (pid {pid} on {host}); wait for it or stop it")


class ServerRunning(PapershelfError):
    """`serve` on a library another live `serve` already serves."""

    http_status = 409


class IngestError(PapershelfError):
    """A file could not be read as a paper; the message says why (one line per file)."""

    http_status = 422


class ProviderError(PapershelfError):
    """An embedding provider failed or answered something unusable."""

    http_status = 502


class ProviderDown(ProviderError):
    """Several requests in a row failed: the provider is treated as down, so a build stops
    trying (its untried papers stay pending) and search answers lexically at once."""


class ProviderCancelled(ProviderError):
    """A request abandoned because the build was cancelled (Ctrl-C): nothing was written for it."""


class DimensionMismatch(ProviderError):
    """Vectors of another dimension than the space holds: never stored, always reported."""


class VectorUnavailable(PapershelfError):
    """Vector search cannot run (no vectors yet, provider down); the message is the notice
    shown to the user while search answers lexically."""

    http_status = 503
