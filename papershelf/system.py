"""Facts about this machine's processes that several layers ask (build lock, server discovery)."""

from __future__ import annotations

import os


def pid_alive(pid: int) -> bool:
    """Is a process with this id running on this host?  (A process we may not signal is alive.)
    Anything but a positive int (a pid read from a damaged file: 0, -1 — a process group —, huge,
    text) is no process."""
    if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except (OverflowError, OSError):
        return False
    return True
