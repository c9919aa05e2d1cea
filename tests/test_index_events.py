"""`index --json`'s event stream: one `file` line per file as its paper is written (issue 42), before
the add's summary and the embedding's events; real PDFs, a real SQLite library, the lines parsed."""

import json
import os
import sqlite3
import subprocess
import sys

import pypdfium2 as pdfium
import pytest

from .pdf_fixtures import scanned_pdf, structured_paper, two_column_paper


def _index(tmp_path, workers: str) -> list[dict]:
    folder = tmp_path / "in"
    folder.mkdir()
    two_column_paper(str(folder / "a.pdf"))
    structured_paper(str(folder / "b.pdf"))
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    env = dict(os.environ, PAPERSHELF_LIBRARY=str(tmp_path / "lib.db"), PAPERSHELF_PARSE_WORKERS=workers)
    p = subprocess.run([sys.executable, "-m", "papershelf", "index", str(folder), "--provider", "hash", "--json"],
                       env=env, capture_output=True, text=True, timeout=180)
    assert p.returncode == 1, (p.stdout, p.stderr)  # the broken file failed
    return [json.loads(line) for line in p.stdout.splitlines()]  # every line is one JSON object


@pytest.mark.parametrize("workers", ["0", "2"])
def test_index_json_reports_each_file_as_its_paper_is_written(tmp_path, workers):
    lines = _index(tmp_path, workers)
    trials = [i for i, e in enumerate(lines) if e.get("event") == "trial"]  # after the first paper (eta11)
    assert len(trials) == 1 and lines[trials[0] - 1]["event"] == "file"
    lines = [e for e in lines if e.get("event") != "trial"]
    kinds = [e.get("event", "summary" if "files" in e else "?") for e in lines]
    assert kinds[:3] == ["file"] * 3 and kinds[3] == "summary" and kinds[4] == "start" and kinds[-1] == "done"
    files = {os.path.basename(e["path"]): e for e in lines[:3]}
    assert set(files) == {"a.pdf", "b.pdf", "broken.pdf"}
    with sqlite3.connect(tmp_path / "lib.db") as db:
        stored = {os.path.basename(path): pid for pid, path in db.execute("SELECT id, source_path FROM papers")}
    for name in ("a.pdf", "b.pdf"):
        e = files[name]
        assert e["status"] == "added" and e["paper_id"] == stored[name]
        assert e["pages"] == len(pdfium.PdfDocument(e["path"])) and e["pages"] >= 1
        assert 0 < e["seconds"] < 120
    assert files["broken.pdf"]["status"] == "failed" and files["broken.pdf"]["pages"] is None
    # the summary is what `add --json` prints: the events add nothing to it
    assert [f["path"] for f in lines[3]["files"]] == [e["path"] for e in lines[:3]]
    assert all("seconds" not in f and "pages" not in f for f in lines[3]["files"])


def test_a_scans_pages_cost_ocr_time_before_it_is_read(tmp_path):
    """The whole-index estimate plans from each PDF's pages and pages without text (real PDFs): a
    two-page scan outweighs a typed paper, and the rates learn from the files written."""
    from papershelf.index_eta import PER_SCANNED, IndexEta, planned

    typed, scan = tmp_path / "typed.pdf", tmp_path / "scan.pdf"
    two_column_paper(str(typed))
    scanned_pdf(str(scan))
    eta = planned([(str(typed), None), (str(scan), None), (str(tmp_path / "gone.pdf"), "no such file or folder")])
    costs = {os.path.basename(p): c for p, c in eta.left.items()}
    assert set(costs) == {"typed.pdf", "scan.pdf"}  # a file that cannot be read is not planned
    assert costs["scan.pdf"].scanned == 2 and costs["scan.pdf"].typed == 0
    assert costs["typed.pdf"].scanned == 0 and costs["typed.pdf"].typed == len(pdfium.PdfDocument(str(typed)))
    now = [0.0]
    eta = IndexEta(workers=2, clock=lambda: now[0])
    eta.plan({"typed": costs["typed.pdf"], "scan": costs["scan.pdf"]})
    assert eta.add_left() >= 2 * PER_SCANNED  # the scan on one worker is the add's critical path
    now[0] = 1.0
    eta.written("typed", 10.0 * costs["typed.pdf"].typed)  # a slow machine: 10 s a typed page
    assert eta.per_typed() == pytest.approx(10.0)
    now[0] = 30.0
    before = eta.raw_left()  # (the shown one is smoothed over seconds: index_eta.SMOOTH)
    eta.written("scan", 2 * 30.0)  # its OCR took 30 s a page
    assert eta.per_scanned() == pytest.approx(30.0) and eta.add_left() == 0 and eta.raw_left() < before


def test_the_adds_time_left_follows_the_pools_schedule():
    """The add's end is a list schedule of the files in input order on the workers (eta10): a long
    scan handed out late ends late, a file in progress counts down between files written, no file is
    planned past the parse timeout, and a failed file (a timeout reports 0 s) teaches no rate."""
    from papershelf.index_eta import PER_SCANNED, FileCost, IndexEta

    now = [0.0]
    timeout = 10 * PER_SCANNED  # less than the 20-page scan's cost
    eta = IndexEta(workers=2, clock=lambda: now[0], timeout=timeout)
    eta.plan({"t1": FileCost(10, 0), "t2": FileCost(10, 0), "t3": FileCost(10, 0), "scan": FileCost(0, 20)})
    per_typed, per_scanned = eta.per_typed(), eta.per_scanned()
    typed = 10 * per_typed
    # t1 and t2 start at once; t3 and the scan start when they end: the scan (capped) ends last
    assert eta.add_left() == pytest.approx(max(2 * typed, typed + timeout))
    assert eta.cost(FileCost(0, 20)) == timeout  # capped by the timeout
    now[0] = typed
    eta.written("t1", typed)
    eta.written("t2", typed)
    before = eta.add_left()
    now[0] = typed + 5.0
    assert eta.add_left() == pytest.approx(before - 5.0)  # counts down while nothing is written
    eta.written("scan", 0.03, parsed=False)  # stopped by its timeout: 0.03 s says nothing of OCR
    assert eta.per_scanned() == per_scanned
