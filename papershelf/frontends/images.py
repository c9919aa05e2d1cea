"""A unit's picture for the doors that show one: the HTTP route /units/ID/image and MCP's images."""

from __future__ import annotations

from ..errors import BadArgument, NotFound
from ..library import Library
from ..models import UnitView


def unit_image(lib: Library, unit_id: str) -> bytes:
    """PNG of a unit's page region (figures and tables: cropped around the caption)."""
    from pypdfium2 import PdfiumError

    from .render import page_image

    view = lib.show(unit_id)
    if not isinstance(view, UnitView):
        raise BadArgument(f"{unit_id!r} is a paper, not a unit")
    unit = view.unit
    region = unit.region
    page = region["page"] if region else unit.page_start
    if page is None:
        raise NotFound(f"unit {unit_id!r} has no page")
    path, _ = lib.source_pdf(unit.paper_id)  # the recorded file, unchanged, or 404/409
    try:
        return page_image(path, page, unit.object_label, unit.object_kind, region=region)
    except ValueError as e:
        raise NotFound(str(e)) from None
    except (PdfiumError, OSError) as e:  # PDFium on a damaged file, or one swapped since the check: this image only
        raise NotFound(f"no image for {unit_id!r}: its PDF page cannot be rendered ({type(e).__name__}: "
                       f"{str(e).splitlines()[0] if str(e) else 'failed'})") from None
