"""Errors papershelf reports to people, not stack traces."""


class PapershelfError(Exception):
    """Base class: the message is meant for the user as it is."""

    exit_code = 1  # what the CLI exits with after printing the message


class BadArgument(PapershelfError, ValueError):
    """An option out of range or not a finite number: the command line's fault, exit code 2."""

    exit_code = 2


class LibraryFileError(PapershelfError):
    """The library file is missing, not a papershelf library, or from a newer version."""


class ReadOnlyLibrary(LibraryFileError):
    """A write to a library opened read-only (the file, or its folder, is not writable)."""


class StorageError(PapershelfError):
    """The disk is full or refused a write; the transaction was rolled back, the library is intact."""


class NotFound(PapershelfError):
    pass


class BuildLocked(PapershelfError):
    def __init__(self, pid: int, host: str, started_at: float):
        self.pid, self.host, self.started_at = pid, host, started_at
        super().__init__(f"another embedding build is running (pid {pid} on {host}); wait for it or stop it")


class ProviderError(PapershelfError):
    """An embedding provider failed or answered something unusable."""


class ProviderDown(ProviderError):
    """Several requests in a row failed: the provider is treated as down, so a build stops
    trying (its untried papers stay pending) and search answers lexically at once."""


class ProviderCancelled(ProviderError):
    """A request abandoned because the build was cancelled (Ctrl-C): nothing was written for it."""


class DimensionMismatch(ProviderError):
    """Vectors of another dimension than the space holds: never stored, always reported."""
