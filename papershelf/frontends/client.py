"""The CLI's thin client for a running `papershelf serve` on the same library.

`serve` writes ``<library>.server.json`` (url, pid, token) beside the library (for a
PostgreSQL library, in the user cache folder) and removes it on exit.  The file is a
hint, never trusted: the server is used only if that pid is alive and ``/api/health``
answers within a fraction of a second naming this very library.  Anything else means "search in-process".
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from typing import Any

from ..errors import BadArgument, NotFound, PapershelfError
from ..system import pid_alive

HEALTH_TIMEOUT = 0.5
SEARCH_TIMEOUT = 120.0


@dataclass
class ServerInfo:
    url: str
    pid: int
    library: str
    token: str | None = None

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}


def library_key(library_path: str) -> str:
    """How a server names its library: a file's absolute path, a database URL as given."""
    return library_path if "://" in library_path else os.path.abspath(library_path)


def discovery_path(library_path: str) -> str:
    """Beside a library file; for a database URL (nothing to sit beside) in the user cache
    folder, named by a hash of the URL."""
    if "://" not in library_path:
        return os.path.abspath(library_path) + ".server.json"
    import hashlib

    from ..embed.onnx import cache_root

    folder = cache_root() / "servers"
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / (hashlib.sha256(library_path.encode()).hexdigest()[:24] + ".server.json"))


def write_discovery(library_path: str, host: str, port: int, token: str | None) -> ServerInfo:
    """Advertise a server for `library_path`; readable by its owner only (it may hold the token)."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    shown = f"[{shown}]" if ":" in shown else shown
    info = ServerInfo(f"http://{shown}:{port}", os.getpid(), library_key(library_path), token)
    path = discovery_path(library_path)
    fd = os.open(path + ".tmp", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(asdict(info), f)
    os.replace(path + ".tmp", path)
    return info


def remove_discovery(library_path: str) -> None:
    """Remove the discovery file if it is this process's (a newer server may have replaced it)."""
    path = discovery_path(library_path)
    try:
        with open(path) as f:
            if json.load(f).get("pid") != os.getpid():
                return
        os.remove(path)
    except (OSError, ValueError):
        pass


def find_server(library_path: str) -> ServerInfo | None:
    """The running server for this library, or None (no file, dead pid, no answer, other library)."""
    try:
        with open(discovery_path(library_path)) as f:
            info = ServerInfo(**json.load(f))
    except (OSError, ValueError, TypeError):
        return None
    if not pid_alive(info.pid):
        return None
    import httpx  # only with a live server: httpx costs a cold `search` ~0.1 s

    try:
        r = httpx.get(f"{info.url}/api/health", headers=info.headers(), timeout=HEALTH_TIMEOUT)
        health = r.json()
    except (httpx.HTTPError, ValueError):
        return None
    if r.status_code != 200 or health.get("library") != library_key(library_path):
        return None
    return info


def search(info: ServerInfo, params: dict[str, Any]) -> dict[str, Any]:
    """The server's answer to a search: `SearchResponse.to_dict()`, or its error raised as ours."""
    query: list[tuple[str, str | int | float | bool | None]] = [
        (k, str(x).lower() if isinstance(x, bool) else str(x))
        for k, v in params.items() if v is not None
        for x in (v if isinstance(v, list) else [v])]
    import httpx

    r = httpx.get(f"{info.url}/api/search", params=query, headers=info.headers(), timeout=SEARCH_TIMEOUT)
    if r.status_code == 200:
        return r.json()
    message = r.json().get("error", r.text) if r.headers.get("content-type", "").startswith("application/json") \
        else r.text
    if r.status_code in (400, 422):
        raise BadArgument(message)
    if r.status_code == 404:
        raise NotFound(message)
    raise PapershelfError(f"server at {info.url}: {message}")
