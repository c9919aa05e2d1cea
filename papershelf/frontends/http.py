"""`papershelf serve`: the library over HTTP, a JSON API and one web page.

    create_app(library_path, token=None)   the FastAPI app (tests run it under a real uvicorn)
    serve(library_path, host, port, token)  run it, with the discovery file the CLI looks for

The API's routes are derived from the operations (http_ops.py: ``GET /api/NAME``) and answer
with the models' `to_dict()`, the shapes of the CLI's ``--json``; errors are
``{"error": message}`` with the error's `http_status` (bad parameters 422 with the parameter
named).  One `Library` stays open, so the model and the
vector matrix stay loaded between requests, while a build in another process
writes to the same file (search sees its papers; status shows it running).

Safety: it binds to loopback by default, refuses a Host or Origin header that is
not this server (a page on another site resolving its name to 127.0.0.1 — DNS
rebinding — gets 403), needs ``--token`` to listen anywhere else, and serves as
files only the PDFs recorded as papers' sources, looked up by paper id, and only while
they are still the files indexed (recorded_files.py): no path from a request ever
reaches the file system.  A request a browser marks as made by another site is
refused (`refusal`), and no request can name a server to send text to: the
reranker is the user's configuration.
"""

from __future__ import annotations

import errno
import hmac
import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response

from ..errors import BadArgument, NotFound, PapershelfError
from ..library import Library
from ..operations import Context
from ..operations.requests import StatusParams, one_line
from ..search.rerank import Reranker
from . import client, http_ops
from .images import unit_image

WEB = Path(__file__).parent / "web"
STATIC = {"app.js": "text/javascript", "style.css": "text/css", "index.html": "text/html",
          "favicon.svg": "image/svg+xml", "citations.js": "text/javascript", "discover.js": "text/javascript"}
NoParams = Annotated[StatusParams, Query()]  # endpoints that take none still refuse unknown ones by name
LOOPBACK_NAMES = {"127.0.0.1", "localhost", "::1"}
TOKEN_COOKIE = "papershelf_token"


def create_app(library_path: str, token: str | None = None, reranker: Reranker | None = None) -> FastAPI:
    """The app over one open library; with `token`, every request must carry it.  `reranker` is the
    user's configured rerank server: requests cannot name one (see `refusal` and RELIABILITY.md)."""
    from fastapi_offline import FastAPIOffline

    lib = Library(library_path, create=False)
    # Swagger UI and ReDoc from the fastapi-offline package's files, not a CDN: /docs works offline.
    app = FastAPIOffline(title="papershelf", version="1", summary="Search a library of papers by words and by meaning.",
                         on_shutdown=[lib.close], favicon_url="/favicon.svg")
    app.state.lib = lib
    _install_token_strip(app)  # registered first, so it runs after the guard has read the token
    _install_guard(app, token)
    _install_security_headers(app)  # registered last: outermost, so the guard's refusals carry them too
    _install_errors(app)
    _health_route(app, lib)
    http_ops.install_routes(app, lib, Context(reranker))  # search, show, passage, papers, status, refs, ...
    _file_routes(app, lib)
    return app


# -- request guard -------------------------------------------------------------------


def _hostname(netloc: str) -> str:
    return (urlsplit("//" + netloc).hostname or "").lower()


def _same_server(origin: str, host: str) -> bool:
    """An Origin naming this server: a loopback name on the Host's own port (another local
    service, e.g. http://127.0.0.1:3000, is another origin)."""
    o, h = urlsplit(origin), urlsplit("//" + host)
    return is_loopback(o.hostname or "") and o.port == h.port


def _navigation_to_page(headers: dict[str, str], path: str) -> bool:
    """A link from elsewhere opening the search page itself: static HTML, no library data."""
    return path == "/" and headers.get("sec-fetch-mode") == "navigate" and headers.get("sec-fetch-dest") == "document"


def refusal(headers: dict[str, str], token: str | None, cookie: str | None, query_token: str | None,
            path: str = "/") -> str | None:
    """Why a request must be refused (403), or None.  Without a token only loopback names are this
    server; with one, any Host may be, but an Origin must be the Host itself and the token must match.
    A request a browser marks as coming from another site (Sec-Fetch-Site cross-site or same-site:
    an <img>, a no-cors fetch, a form from any other page, even another port of localhost) is refused
    unless it names the token itself (Authorization or ?token=; the cookie a browser would attach
    does not count), so no other page can make the server act."""
    host = headers.get("host", "")
    origin = headers.get("origin")
    explicit = _bearer(headers) or query_token or ""
    site = headers.get("sec-fetch-site", "").lower()
    if site in ("cross-site", "same-site") and not _navigation_to_page(headers, path) and not (
            token and hmac.compare_digest(explicit.encode(), token.encode())):
        return (f"refused: a {site} request (Sec-Fetch-Site); papershelf answers its own page and programs "
                "on this machine, not other web pages")
    if token is None:
        if not is_loopback(_hostname(host)):
            return f"refused: Host {host!r} is not this server (it only answers to localhost and loopback addresses)"
        if origin and not _same_server(origin, host):
            return f"refused: requests from {origin!r} are not allowed"
        return None
    if origin and urlsplit(origin).netloc.lower() != host.lower():
        return f"refused: requests from {origin!r} are not allowed"
    given = explicit or cookie or ""
    if not hmac.compare_digest(given.encode(), token.encode()):
        return "refused: a valid token is required (Authorization: Bearer TOKEN, or ?token=TOKEN once)"
    return None


def _bearer(headers: dict[str, str]) -> str | None:
    auth = headers.get("authorization", "")
    return auth[7:] if auth.lower().startswith("bearer ") else None


def _install_guard(app: FastAPI, token: str | None) -> None:
    @app.middleware("http")
    async def guard(request: Request, call_next):
        query_token = request.query_params.get("token")
        reason = refusal(dict(request.headers), token, request.cookies.get(TOKEN_COOKIE), query_token,
                         request.url.path)
        if reason:
            return JSONResponse({"error": reason}, status_code=403)
        if query_token is not None:  # the guard's parameter, not the route's: no "unknown argument" 422
            kept = [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
            request.scope["query_string"] = urlencode(kept).encode()
        response = await call_next(request)
        if token and query_token:  # the page was opened with ?token=: remember it for its requests
            response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict")
        return response


def _install_token_strip(app: FastAPI) -> None:
    """`?token=` belongs to the guard, not to any endpoint: taken out of the query before the strict
    request models see it (they refuse every parameter they do not declare)."""
    @app.middleware("http")
    async def strip_token(request: Request, call_next):
        query = request.scope.get("query_string", b"")
        if b"token=" in query:
            kept = [(k, v) for k, v in parse_qsl(query.decode("latin-1"), keep_blank_values=True) if k != "token"]
            request.scope["query_string"] = urlencode(kept).encode("latin-1")
        return await call_next(request)


# -- headers every response carries ---------------------------------------------------

# The page's own files only: no inline script or style, no frames, no plugins, no other origin.
# Paper text reaches the page only as JSON drawn with textContent (app.js), and even a script that
# got in could not load or send anything elsewhere.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
# Swagger UI and ReDoc start from an inline script (fastapi-offline's pages): allowed there alone;
# they draw only the API's own schema.  ReDoc runs a worker from a blob.
CSP_API_DOCS = ("default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
                "img-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; font-src 'self' data:; "
                "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
# A PDF is shown by the browser's own viewer, which a policy without plugins would block.
CSP_PDF = "default-src 'none'; object-src 'self'; frame-ancestors 'none'"
API_DOCS = ("/docs", "/redoc", "/docs/oauth2-redirect")


def security_headers(path: str, content_type: str) -> dict[str, str]:
    """Content-Security-Policy, nosniff and no framing, for a response to `path`."""
    csp = CSP_API_DOCS if path in API_DOCS else CSP_PDF if content_type.startswith("application/pdf") else CSP
    return {"Content-Security-Policy": csp, "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
            "Referrer-Policy": "no-referrer"}


def _install_security_headers(app: FastAPI) -> None:
    @app.middleware("http")
    async def headers(request: Request, call_next):
        response = await call_next(request)
        response.headers.update(security_headers(request.url.path, response.headers.get("content-type", "")))
        return response


# -- errors --------------------------------------------------------------------------


def _install_errors(app: FastAPI) -> None:
    @app.exception_handler(PapershelfError)
    async def papershelf_error(request: Request, e: PapershelfError):
        return JSONResponse({"error": str(e)}, status_code=e.http_status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, e: RequestValidationError):
        return JSONResponse({"error": one_line(e)}, status_code=422)


# -- JSON API ------------------------------------------------------------------------


def _health_route(app: FastAPI, lib: Library) -> None:
    @app.get("/api/health", summary="Is the server up, and for which library")
    async def health(_: NoParams) -> dict[str, Any]:  # on the event loop: answers even when every worker is busy
        return {"ok": True, "library": client.library_name(lib.path), "pid": os.getpid()}


# -- files: PDFs and figure images ---------------------------------------------------


def _file_routes(app: FastAPI, lib: Library) -> None:
    @app.api_route("/papers/{paper_id:path}/pdf", methods=["GET", "HEAD"],
                   summary="The paper's PDF (open at a page with #page=N)")
    def pdf(paper_id: str, _: NoParams) -> Response:
        path, data = lib.source_pdf(paper_id)  # the bytes served are the bytes checked
        name = quote(os.path.basename(path))
        return Response(data, media_type="application/pdf",
                        headers={"Content-Disposition": f"inline; filename*=utf-8''{name}",
                                 "Cache-Control": "private, no-cache"})

    @app.get("/units/{unit_id:path}/image", summary="PNG of a figure/table's page region, or the unit's page")
    def image(unit_id: str, _: NoParams) -> Response:
        return Response(unit_image(lib, unit_id), media_type="image/png",
                        headers={"Cache-Control": "private, max-age=300"})

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:  # its query (?query=…, ?paper=…) is the page's own state, read by app.js
        return FileResponse(WEB / "index.html", media_type="text/html")

    @app.get("/favicon.svg", include_in_schema=False)
    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(WEB / "favicon.svg", media_type="image/svg+xml")

    @app.get("/static/{name}", include_in_schema=False)
    def static(name: str, _: NoParams) -> FileResponse:
        if name not in STATIC:  # a fixed list: no name from a request becomes a path
            raise NotFound(f"no file {name!r}")
        return FileResponse(WEB / name, media_type=STATIC[name])


# -- running it ----------------------------------------------------------------------


def is_loopback(host: str) -> bool:
    """localhost, or a loopback address (all of 127.0.0.0/8, ::1): what `serve` may listen on and
    answer to without a token."""
    import ipaddress

    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto IPPROTO_TCP matters: asyncio sets TCP_NODELAY only on sockets that say they are TCP; without
    # it Nagle's algorithm and delayed ACKs add ~40 ms to every response on loopback.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)  # connections queue from now on, so the server is usable once advertised
    except (OSError, OverflowError) as e:
        sock.close()
        why = "the port is in use (another server? pick one with --port, or --port 0 for any free one)" \
            if getattr(e, "errno", None) == errno.EADDRINUSE else (getattr(e, "strerror", None) or str(e))
        raise PapershelfError(f"cannot listen on {host}:{port}: {why}") from None
    return sock


def _warm(app: FastAPI) -> None:
    """Load the query model and the vector matrix before the first request, not during it."""
    try:
        app.state.lib.search("warm up", mode="hybrid", limit=1)
    except PapershelfError:
        pass


STOP_WITHIN = 1.5  # seconds from SIGTERM/SIGINT to exit, whatever requests are still waiting on


def _prompt_server_class():
    import uvicorn

    class PromptServer(uvicorn.Server):
        """uvicorn's server, but a stop signal ends the process within `STOP_WITHIN` seconds: requests
        still waiting (on a hung reranker, a slow disk) run in threads nobody can cancel, and uvicorn
        would wait for them however long they take.  The library is only read by them, so leaving
        them is safe; the discovery file goes first."""

        def __init__(self, config, cleanup):
            super().__init__(config)
            self.cleanup = cleanup

        def handle_exit(self, sig, frame) -> None:
            super().handle_exit(sig, frame)
            threading.Thread(target=self._exit_soon, daemon=True).start()

        def _exit_soon(self) -> None:
            time.sleep(STOP_WITHIN)
            self.cleanup()
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(0)

    return PromptServer


def prompt_server(config, cleanup):
    return _prompt_server_class()(config, cleanup)


def serve(library_path: str, host: str = "127.0.0.1", port: int = 8765, token: str | None = None,
          stop_after: float | None = None, reranker: Reranker | None = None) -> None:
    """Serve until Ctrl-C (or `stop_after` seconds), advertising the server to the CLI meanwhile."""
    import uvicorn

    if not is_loopback(host) and not token:
        raise BadArgument(f"--token is required to listen on {host} (anything beyond loopback)")
    sock = _bind(host, port)  # first: a busy port or a bad host is one line at once, before the model loads
    app = create_app(library_path, token, reranker)
    _warm(app)
    real_port = sock.getsockname()[1]
    lib_path = app.state.lib.path
    server = prompt_server(uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=2),
                           lambda: client.remove_discovery(lib_path))
    if stop_after:
        timer = threading.Timer(stop_after, lambda: setattr(server, "should_exit", True))
        timer.daemon = True
        timer.start()
    info = client.write_discovery(lib_path, host, real_port, token)
    print(f"serving {lib_path} on {info.url}/", file=sys.stderr, flush=True)
    # uvicorn re-raises the signal that stopped it once it has shut down; let SIGTERM end in
    # SystemExit (as Ctrl-C ends in KeyboardInterrupt) so the discovery file is removed below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        server.run(sockets=[sock])
    finally:
        client.remove_discovery(lib_path)
