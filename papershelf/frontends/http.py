"""`papershelf serve`: the library over HTTP, a JSON API and one web page.

    create_app(library_path, token=None)   the FastAPI app (tests run it under a real uvicorn)
    serve(library_path, host, port, token)  run it, with the discovery file the CLI looks for

The API answers with the models' `to_dict()`, the shapes of the CLI's ``--json``;
errors are ``{"error": message}`` with the error's `http_status` (bad parameters
422 with the parameter named).  One `Library` stays open, so the model and the
vector matrix stay loaded between requests, while a build in another process
writes to the same file (search sees its papers; status shows it running).

Safety: it binds to loopback by default, refuses a Host or Origin header that is
not this server (a page on another site resolving its name to 127.0.0.1 — DNS
rebinding — gets 403), needs ``--token`` to listen anywhere else, and serves as
files only the PDFs recorded as papers' sources, looked up by paper id: no path
from a request ever reaches the file system.
"""

from __future__ import annotations

import errno
import hmac
import os
import signal
import socket
import sys
import threading
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response

from ..errors import BadArgument, NotFound, PapershelfError
from ..library import Library
from . import client
from .params import (
    PapersParams,
    PassageParams,
    SearchParams,
    ShowQuery,
    StatusParams,
    filter_papers,
    one_line,
    search_dict,
)

WEB = Path(__file__).parent / "web"
STATIC = {"app.js": "text/javascript", "style.css": "text/css", "index.html": "text/html",
          "favicon.svg": "image/svg+xml"}
NoParams = Annotated[StatusParams, Query()]  # endpoints that take none still refuse unknown ones by name
LOOPBACK_NAMES = {"127.0.0.1", "localhost", "::1"}
TOKEN_COOKIE = "papershelf_token"


def create_app(library_path: str, token: str | None = None) -> FastAPI:
    """The app over one open library; with `token`, every request must carry it."""
    from fastapi_offline import FastAPIOffline

    lib = Library(library_path, create=False)
    # Swagger UI and ReDoc from the fastapi-offline package's files, not a CDN: /docs works offline.
    app = FastAPIOffline(title="papershelf", version="1", summary="Search a library of papers by words and by meaning.",
                         on_shutdown=[lib.close], favicon_url="/favicon.svg")
    app.state.lib = lib
    _install_token_strip(app)  # registered first, so it runs after the guard has read the token
    _install_guard(app, token)
    _install_errors(app)
    _api_routes(app, lib)
    _file_routes(app, lib)
    return app


# -- request guard -------------------------------------------------------------------


def _hostname(netloc: str) -> str:
    return (urlsplit("//" + netloc).hostname or "").lower()


def refusal(headers: dict[str, str], token: str | None, cookie: str | None, query_token: str | None) -> str | None:
    """Why a request must be refused (403), or None.  Without a token only loopback names are this
    server; with one, any Host may be, but an Origin must be the Host itself and the token must match."""
    host = headers.get("host", "")
    origin = headers.get("origin")
    if token is None:
        if _hostname(host) not in LOOPBACK_NAMES:
            return f"refused: Host {host!r} is not this server (it only answers to 127.0.0.1/localhost)"
        if origin and _hostname(urlsplit(origin).netloc) not in LOOPBACK_NAMES:
            return f"refused: requests from {origin!r} are not allowed"
        return None
    if origin and urlsplit(origin).netloc.lower() != host.lower():
        return f"refused: requests from {origin!r} are not allowed"
    auth = headers.get("authorization", "")
    given = auth[7:] if auth.lower().startswith("bearer ") else (query_token or cookie or "")
    if not hmac.compare_digest(given.encode(), token.encode()):
        return "refused: a valid token is required (Authorization: Bearer TOKEN, or ?token=TOKEN once)"
    return None


def _install_guard(app: FastAPI, token: str | None) -> None:
    @app.middleware("http")
    async def guard(request: Request, call_next):
        query_token = request.query_params.get("token")
        reason = refusal(dict(request.headers), token, request.cookies.get(TOKEN_COOKIE), query_token)
        if reason:
            return JSONResponse({"error": reason}, status_code=403)
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


# -- errors --------------------------------------------------------------------------


def _install_errors(app: FastAPI) -> None:
    @app.exception_handler(PapershelfError)
    async def papershelf_error(request: Request, e: PapershelfError):
        return JSONResponse({"error": str(e)}, status_code=e.http_status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, e: RequestValidationError):
        return JSONResponse({"error": one_line(e)}, status_code=422)


# -- JSON API ------------------------------------------------------------------------


def _api_routes(app: FastAPI, lib: Library) -> None:
    @app.get("/api/health", summary="Is the server up, and for which library")
    def health(_: NoParams) -> dict[str, Any]:
        return {"ok": True, "library": client.library_name(lib.path), "pid": os.getpid()}

    @app.get("/api/status", summary="Papers, units, vectors, pending papers and a running build")
    def status(_: NoParams) -> dict[str, Any]:
        return lib.status().to_dict()

    @app.get("/api/search", summary="Search: the same result as `papershelf search --json`")
    def search(params: Annotated[SearchParams, Query()]) -> dict[str, Any]:
        return search_dict(lib.search(params.query, params.options()), params.min_score)

    @app.get("/api/show/{item_id:path}", summary="A paper (sections, figures, tables) or a unit with its section")
    def show(item_id: str, params: Annotated[ShowQuery, Query()]) -> dict[str, Any]:
        return show_dict(lib, item_id, params.neighbours)

    @app.get("/api/passage", summary="A paper's text by section or page range, within a budget, with a cursor")
    def passage(params: Annotated[PassageParams, Query()]) -> dict[str, Any]:
        return lib.passage(params.paper_id, params.section, params.pages(), params.budget_chars,
                           params.cursor).to_dict()

    @app.get("/api/papers", summary="The papers, filtered by title, author and year")
    def papers(params: Annotated[PapersParams, Query()], response: Response) -> list[dict[str, Any]]:
        rows, total = filter_papers(lib.papers(), params)
        response.headers["X-Total-Count"] = str(total)  # "12 of 312": the rows are at most `limit`
        return rows


def show_dict(lib: Library, item_id: str, neighbours: bool) -> dict[str, Any]:
    """`show --json`, plus for a unit the units of its section (`neighbours`) when asked."""
    d = lib.show(item_id).to_dict()
    if d["type"] == "unit" and neighbours:
        d["neighbours"] = [n.to_dict() for n in lib.neighbours(d["id"])]
    return d


# -- files: PDFs and figure images ---------------------------------------------------


def pdf_path(lib: Library, paper_id: str) -> str:
    """The paper's recorded source file, if it is a PDF that still exists; the only files served."""
    paper = lib.paper(paper_id)
    if paper.source_format != "pdf" or not paper.source_path or not os.path.isfile(paper.source_path):
        raise NotFound(f"paper {paper_id!r} has no PDF file")
    return paper.source_path


def unit_image(lib: Library, unit_id: str) -> bytes:
    """PNG of a unit's page region (figures and tables: cropped around the caption)."""
    from .render import page_image

    view = lib.show(unit_id)
    if not hasattr(view, "unit"):
        raise BadArgument(f"{unit_id!r} is a paper, not a unit")
    unit = view.unit
    unit_id = unit.id
    if unit.page_start is None:
        raise NotFound(f"unit {unit_id!r} has no page")
    try:
        return page_image(pdf_path(lib, unit.paper_id), unit.page_start, unit.object_label, unit.object_kind)
    except ValueError as e:
        raise NotFound(str(e)) from None


def _file_routes(app: FastAPI, lib: Library) -> None:
    @app.api_route("/papers/{paper_id:path}/pdf", methods=["GET", "HEAD"],
                   summary="The paper's PDF (open at a page with #page=N)")
    def pdf(paper_id: str, _: NoParams) -> FileResponse:
        path = pdf_path(lib, paper_id)
        return FileResponse(path, media_type="application/pdf", content_disposition_type="inline",
                            filename=os.path.basename(path))

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
    return host in LOOPBACK_NAMES or host.startswith("127.")


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


def serve(library_path: str, host: str = "127.0.0.1", port: int = 8765, token: str | None = None,
          stop_after: float | None = None) -> None:
    """Serve until Ctrl-C (or `stop_after` seconds), advertising the server to the CLI meanwhile."""
    import uvicorn

    if not is_loopback(host) and not token:
        raise BadArgument(f"--token is required to listen on {host} (anything beyond loopback)")
    sock = _bind(host, port)  # first: a busy port is one line at once, before the model loads
    app = create_app(library_path, token)
    _warm(app)
    real_port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=2))
    if stop_after:
        timer = threading.Timer(stop_after, lambda: setattr(server, "should_exit", True))
        timer.daemon = True
        timer.start()
    lib_path = app.state.lib.path
    info = client.write_discovery(lib_path, host, real_port, token)
    print(f"serving {lib_path} on {info.url}/", file=sys.stderr, flush=True)
    # uvicorn re-raises the signal that stopped it once it has shut down; let SIGTERM end in
    # SystemExit (as Ctrl-C ends in KeyboardInterrupt) so the discovery file is removed below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        server.run(sockets=[sock])
    finally:
        client.remove_discovery(lib_path)
