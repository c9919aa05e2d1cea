"""The CLI's thin client for a running `papershelf serve` on the same library.

`serve` writes ``<library>.server.json`` (url, pid, token) beside the library (for a
PostgreSQL library, in the user cache folder) and removes it on exit.  The file is a
hint, never trusted: the server is used only if that pid is alive and ``/api/health``
answers within a fraction of a second naming this very library.  Anything else means "search in-process".
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..errors import BadArgument, NotFound, PapershelfError, ServerRunning
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


def library_name(location: str) -> str:
    """How a server names its library to the CLI: a file's absolute path, or a PostgreSQL URL without
    its password (health answers are readable by anyone on loopback)."""
    from ..library import is_url

    if not is_url(location):
        return os.path.abspath(os.path.expanduser(location))
    parts = urlsplit(location)
    if parts.password is None:
        return location
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}@{host}"))


def discovery_path(library_path: str) -> str:
    """``<library>.server.json`` beside a library file; for a PostgreSQL library (no folder of its
    own) a file named by the URL's hash in the user's data folder."""
    from ..library import is_url

    if not is_url(library_path):
        return os.path.abspath(os.path.expanduser(library_path)) + ".server.json"
    from platformdirs import user_data_dir

    folder = os.path.join(user_data_dir("papershelf", appauthor=False), "servers")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    digest = hashlib.sha256(library_name(library_path).encode()).hexdigest()[:24]
    return os.path.join(folder, f"{digest}.server.json")


def write_discovery(library_path: str, host: str, port: int, token: str | None) -> ServerInfo:
    """Advertise a server for `library_path`; readable by its owner only (it may hold the token).
    A live server already advertised for the library is kept, and this one refused (BadArgument)."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    shown = f"[{shown}]" if ":" in shown else shown
    info = ServerInfo(f"http://{shown}:{port}", os.getpid(), library_name(library_path), token)
    path = discovery_path(library_path)
    tmp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(asdict(info), f)
    try:
        os.link(tmp, path)  # only if no file is there: two servers starting at once cannot both win
    except FileExistsError:
        other = _advertised(path)
        if other is not None and other.pid != os.getpid() and pid_alive(other.pid):
            os.remove(tmp)
            raise ServerRunning(f"another papershelf serve (pid {other.pid}, {other.url}) already serves "
                                f"{library_name(library_path)}; stop it first or use it") from None
        os.replace(tmp, path)  # a stale file of a server that is gone
        return info
    os.remove(tmp)
    return info


def _advertised(path: str) -> ServerInfo | None:
    try:
        with open(path) as f:
            return ServerInfo(**json.load(f))
    except (OSError, ValueError, TypeError):
        return None


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
    info = _advertised(discovery_path(library_path))
    if info is None or not isinstance(info.pid, int) or not pid_alive(info.pid):
        return None
    import httpx  # only with a live server: httpx costs a cold `search` ~0.1 s

    try:
        r = httpx.get(f"{info.url}/api/health", headers=info.headers(), timeout=HEALTH_TIMEOUT)
        health = r.json()
    except (httpx.HTTPError, ValueError):
        return None
    if r.status_code != 200 or health.get("library") != library_name(library_path):
        return None
    return info


def ask(info: ServerInfo, path: str, query: list[tuple[str, str | int | float | bool | None]]) -> dict[str, Any]:
    """The server's answer to a request (the query the server validates with the same model):
    the operation's JSON, or its error raised as ours."""
    import httpx

    r = httpx.get(f"{info.url}{path}", params=query, headers=info.headers(), timeout=SEARCH_TIMEOUT)
    if r.status_code == 200:
        return r.json()
    message = r.json().get("error", r.text) if r.headers.get("content-type", "").startswith("application/json") \
        else r.text
    if r.status_code in (400, 422):
        raise BadArgument(message)
    if r.status_code == 404:
        raise NotFound(message)
    raise PapershelfError(f"server at {info.url}: {message}")
