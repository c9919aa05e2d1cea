"""The HTTP routes derived from the operations (papershelf/operations): ``GET /api/NAME`` (with
``/{field}`` for an operation's path field), the request model validating the query string — an
unknown parameter is a 422 naming it — and the answer's JSON as the CLI's ``--json`` prints it."""

from __future__ import annotations

import inspect
import warnings
from typing import Annotated, Any

from fastapi import FastAPI, Query, Response
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from pydantic.warnings import UnsupportedFieldAttributeWarning

from ..library import Library
from ..operations import Context, Operation, for_door

# pydantic 2.12 warns, when FastAPI first validates a request, that the Query() marking a request model as
# query parameters carries an alias with no effect; FastAPI reads it (a false positive: pydantic #12356).
warnings.filterwarnings("ignore", message="The 'alias' attribute with value 'params'",
                        category=UnsupportedFieldAttributeWarning)


def endpoint(op: Operation, lib: Library, ctx: Context):
    """The route function of `op`: its signature (what FastAPI reads) is the query model, the path
    field and the response (for headers)."""
    model = op.request.model_for("http", without=(op.path,) if op.path else ())

    def answer(params: Any, response: Response, **path: str) -> Any:
        try:
            request = op.request.complete(params, **path)
        except ValidationError as e:
            raise RequestValidationError(e.errors()) from None
        d = op.run(lib, request, ctx)
        if op.headers is not None:
            response.headers.update(op.headers(d))
        return op.bare(d) if op.bare else d

    params = [inspect.Parameter("params", inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[model, Query()]),
              inspect.Parameter("response", inspect.Parameter.KEYWORD_ONLY, annotation=Response)]
    if op.path:
        params.append(inspect.Parameter(op.path, inspect.Parameter.KEYWORD_ONLY, annotation=str))
    answer.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    answer.__name__ = op.tool
    return answer


def install_routes(app: FastAPI, lib: Library, ctx: Context) -> None:
    """A GET route for every operation HTTP offers (old names: routes left out of the OpenAPI schema)."""
    for op in for_door("http", hidden=True):
        _install(app, op, endpoint(op, lib, ctx))


def _install(app: FastAPI, op: Operation, fn: Any) -> None:
    """The operation's route under its name, and under its old names unlisted."""
    path = f"/{{{op.path}:path}}" if op.path else ""
    for name, listed in ((op.name, not op.hidden), *((a, False) for a in op.aliases if "_" not in a)):
        app.get(f"/api/{name}{path}", summary=op.summary, description=op.description,
                include_in_schema=listed, name=name)(fn)
