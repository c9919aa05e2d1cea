"""Crash suite: `kill -9` of `embed` and `add` at random moments loses nothing.

After every kill `verify` passes (each paper is whole or absent, every vector matches
its unit); at the end, finishing the build gives exactly the library a clean,
uninterrupted build of the same inputs gives (manifests and every vector byte).

Short (CI): 4 kills.  ``PAPERSHELF_SUITE=full``: 32 kills, 1-8 workers, all 27 real PDFs.
Run: ``python -m pytest tests/reliability/test_crash.py``.
"""

from __future__ import annotations

import json
import random
import shutil
import time

from papershelf import Library
from papershelf.embed.base import ProviderSpec

from ..conftest import SHARED
from ..providers import EmbeddingServer
from .common import FULL, cli, library_snapshot, openai_args, scale, start, write_papers

KILLS = scale(3, 32)


def _inputs(tmp_path):
    """Markdown papers, plus real PDFs when the shared data is there (a few in CI, all 27 in full)."""
    folder = tmp_path / "inputs"
    write_papers(folder, scale(8, 40))
    pdfs = sorted((SHARED / "pdfs").glob("*.pdf")) if (SHARED / "pdfs").exists() else []
    pdfs = sorted(pdfs, key=lambda p: p.stat().st_size)[:scale(2, 27)]
    for p in pdfs:
        shutil.copy(p, folder / p.name)
    return folder


def _verify_ok(db) -> dict:
    """`verify` (in this process: the same code as the command, without its start-up time)."""
    if not db.exists() or db.stat().st_size == 0:
        return {"ok": True}  # killed before the library file was created: nothing to lose yet
    with Library(str(db), create=False) as lib:
        result = lib.verify()
    assert result.ok, result.to_dict()
    return result.to_dict()


def _pending(db) -> int | None:
    """Pending papers, or None while no paper has been added yet (an embed would have nothing to do)."""
    if not db.exists() or db.stat().st_size == 0:
        return None
    with Library(str(db), create=False) as lib:
        return len(lib.pending()) if lib.store.count_papers() else None


def test_kill_9_at_random_moments_loses_nothing(tmp_path):
    rng = random.Random(13)
    inputs = _inputs(tmp_path)
    db = tmp_path / "crashed.db"
    kills = {"add": 0, "embed": 0}
    with EmbeddingServer(dimension=64, delay=0.03) as server:
        embed_args = openai_args(server.url, "--batch-size", "4")
        for n in range(KILLS):
            # add first (it must have work to do), then embed, with --force once nothing is pending
            what = "add" if n < max(1, KILLS // 3) or _pending(db) is None else "embed"
            if what == "add":
                if n and n % 2 == 0:  # make some files change, so later adds rewrite papers
                    for p in sorted(inputs.glob("p0*.md"))[: 3]:
                        p.write_text(p.read_text(encoding="utf-8") + f"\nRevision {n}.\n", encoding="utf-8")
                proc = start(db, "add", str(inputs))
            else:
                workers = str(rng.choice([1, 2, 4, 8] if FULL else [1, 4]))
                force = ["--force"] if _pending(db) == 0 else []
                proc = start(db, "embed", *embed_args, "--workers", workers, *force)
            time.sleep(rng.uniform(0.6, 2.0))  # the interpreter starts in ~0.6 s: kill mid-work
            proc.kill()
            proc.wait(timeout=30)
            kills[what] += 1
            _verify_ok(db)
        # finish, then compare with a clean build of the same inputs
        cli(db, "add", str(inputs), ok=(0, 1))
        cli(db, "embed", *embed_args, ok=(0, 1))
        clean = tmp_path / "clean.db"
        with Library(str(clean)) as lib:  # the same space as the command's: same provider, model, options
            lib.add([str(inputs)])
            lib.embed(ProviderSpec("openai", "test-embed", (), (("base_url", server.url), ("batch_size", 4))))
    assert json.loads(cli(db, "verify", "--json").stdout)["ok"]
    crashed, reference = library_snapshot(db), library_snapshot(clean)
    assert crashed["papers"] == reference["papers"]
    assert crashed["vectors"].keys() == reference["vectors"].keys()
    assert crashed["vectors"] == reference["vectors"]
    print(f"\ncrash suite: {sum(kills.values())} kills survived ({kills}); "
          f"{len(reference['papers'])} papers, {len(reference['vectors'])} vectors equal to a clean build")
