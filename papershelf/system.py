"""Facts about this machine's processes that several layers ask (build lock, server discovery)."""

from __future__ import annotations

import os


def pid_alive(pid: int) -> bool:
    """Is a process with this id running on this host?  (A process we may not signal is alive.)"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
