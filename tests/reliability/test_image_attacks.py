"""Standing suite: figure and table images under attack (issue #43, round 4).

A unit on a 3 x 14400 pt page once rendered at 900 px wide (11 GB a request; 50 in parallel took
`serve` to 23 GB and the kernel killed it), and pages whose CropBox is not the MediaBox's lower-left
part answered 404 "Crop exceeds page dimensions".  Real `papershelf serve` on 127.0.0.1, real PDFs,
real MCP over stdio: every image stays within its pixel bound, parallel requests are answered 200 or
503 in bounded memory, and no traceback reaches the log.

Short (CI): 50 parallel requests.  ``PAPERSHELF_SUITE=full``: 200.
"""

from __future__ import annotations

import base64
import io
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from mcp import types
from PIL import Image

from papershelf import Library
from papershelf.frontends import render
from papershelf.frontends.http import unit_image
from tests.servers import running_server
from tests.test_mcp import session_run

from .common import scale
from .hostile_pdfs import offset_crop_pdf, strip_page_pdf

PARALLEL = scale(50, 200)
PEAK_RSS_MB = 1500  # the serve process, worst case; it was 23 GB before the bounds


@pytest.fixture(scope="module")
def hostile_library(tmp_path_factory) -> tuple[Path, list[str]]:
    root = tmp_path_factory.mktemp("images")
    papers = root / "papers"
    papers.mkdir()
    strip_page_pdf(str(papers / "strip.pdf"))
    strip_page_pdf(str(papers / "wide.pdf"), width=14400.0, height=3.0)
    strip_page_pdf(str(papers / "huge.pdf"), width=14400.0, height=14400.0)
    offset_crop_pdf(str(root / "crop.pdf"))
    (papers / "crop.pdf").write_bytes((root / "crop.pdf").read_bytes())
    db = root / "lib.db"
    with Library(str(db)) as lib:
        report = lib.add([str(papers)])
        assert not report.failed, report.to_dict()
        units = [u.unit_id for p in lib.papers() for u in _units_of(lib, p.to_dict()["id"])]
    return db, units


def _units_of(lib: Library, paper_id: str):
    view = lib.show(paper_id)
    return [*view.objects, *view.sections]


def _png_size(data: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(data)).size


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory is read from /proc")
def test_parallel_images_of_hostile_pages_stay_bounded(hostile_library):
    db, units = hostile_library
    with running_server(db) as (url, _):
        pid = httpx.get(f"{url}/api/health").json()["pid"]
        targets = [units[i % len(units)] for i in range(PARALLEL)]
        started = time.monotonic()
        with httpx.Client(timeout=120) as client, ThreadPoolExecutor(PARALLEL) as pool:
            answers = list(pool.map(lambda u: client.get(f"{url}/units/{u}/image"), targets))
        took = time.monotonic() - started
        peak = _peak_rss_mb(pid)
    log = Path(str(db) + ".server.log").read_text()
    assert "Traceback" not in log, log[-3000:]
    codes = [a.status_code for a in answers]
    assert set(codes) <= {200, 503}, codes
    assert codes.count(200) >= len(set(targets)), codes  # every unit drawn at least once
    for a in answers:
        if a.status_code == 503:
            assert "busy" in a.json()["error"]
            continue
        w, h = _png_size(a.content)
        assert w * h <= render.MAX_PIXELS and max(w, h) <= render.MAX_SIDE, (w, h)
    assert peak < PEAK_RSS_MB, peak
    print(f"\n{PARALLEL} parallel image requests on {len(set(targets))} units: {took:.1f} s, "
          f"{codes.count(503)} busy, serve peak RSS {peak:.0f} MB")


def test_crop_box_away_from_origin_gives_the_object(hostile_library):
    """The objects of the paper drawn in the upper-right quarter of its MediaBox: the same regions as
    the paper at the origin, and their images (once 404 "Crop exceeds page dimensions")."""
    db, _ = hostile_library
    with Library(str(db)) as lib:
        crop = next(p.paper.id for p in lib.papers() if (p.paper.source_path or "").endswith("crop.pdf"))
        objects = lib.show(crop).objects
        regions = {o.label: lib.show(o.unit_id).unit.region for o in objects}
    assert set(regions) == {"Table 1", "Figure 1"}
    table = regions["Table 1"]["bbox"]  # where objects_paper draws it on a letter page
    assert 40 < table[0] < 70 and 350 < table[1] < 400, table
    with running_server(db) as (url, _):
        for o in objects:
            r = httpx.get(f"{url}/units/{o.unit_id}/image", timeout=60)
            assert r.status_code == 200, r.text
            w, h = _png_size(r.content)
            assert w >= 800 and h < w, (o.label, w, h)  # the object at 900 px wide, not the whole page


def test_mcp_show_image_of_a_hostile_page_is_bounded(hostile_library):
    db, units = hostile_library
    strip = next(u for u in units if u.startswith("strip") and ":obj:" in u)

    async def script(s):
        return await s.call_tool("show", {"id": strip, "image": True})

    result = session_run(db, script)
    images = [c for c in result.content if isinstance(c, types.ImageContent)]
    assert len(images) == 1
    w, h = _png_size(base64.b64decode(images[0].data))
    assert w * h <= render.MAX_PIXELS and max(w, h) <= render.MAX_SIDE


def test_busy_renderer_answers_503_in_one_line(hostile_library, monkeypatch):
    """Every render slot taken: a request waits `WAIT`, then is refused with 503, not queued forever."""
    from papershelf.frontends.render import RenderBusy

    db, units = hostile_library
    monkeypatch.setattr(render, "WAIT", 0.2)
    monkeypatch.setattr(render, "_CACHE", render.OrderedDict())
    for _ in range(render.RENDERS):
        assert render._SLOTS.acquire(timeout=5)
    try:
        with Library(str(db)) as lib, pytest.raises(RenderBusy) as e:
            unit_image(lib, units[0])
    finally:
        for _ in range(render.RENDERS):
            render._SLOTS.release()
    assert e.value.http_status == 503 and "\n" not in str(e.value)


@pytest.mark.parametrize(("width", "height"), [(3, 14400), (14400, 3), (14400, 14400), (1, 1), (612, 792)])
def test_bounded_scale_whatever_the_shape(width, height):
    s = render.bounded_scale(900 / width, width, height)
    assert width * s * height * s <= render.MAX_PIXELS * 1.0001
    assert max(width, height) * s <= render.MAX_SIDE * 1.0001 and s <= render.MAX_SCALE
