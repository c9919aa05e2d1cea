"""Errors papershelf reports to people, not stack traces."""


class PapershelfError(Exception):
    """Base class: the message is meant for the user as it is."""


class LibraryFileError(PapershelfError):
    """The library file is missing, not a papershelf library, or from a newer version."""


class NotFound(PapershelfError):
    pass


class BuildLocked(PapershelfError):
    def __init__(self, pid: int, host: str, started_at: float):
        self.pid, self.host, self.started_at = pid, host, started_at
        super().__init__(f"another embedding build is running (pid {pid} on {host}); wait for it or stop it")


class ProviderError(PapershelfError):
    """An embedding provider failed or answered something unusable."""


class DimensionMismatch(ProviderError):
    """Vectors of another dimension than the space holds: never stored, always reported."""
