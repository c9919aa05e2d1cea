import os
import textwrap
from pathlib import Path

import pytest

from papershelf import Library
from papershelf.embed.base import ProviderSpec

from . import pg

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SHARED = Path(os.environ.get("PAPERSHELF_SHARED_DATA", ROOT.parent / "shared" / "data"))

HASH = ProviderSpec("hash", "hash-v1", (("dimension", 64),))


def shared(*parts: str) -> Path:
    """A path under ../shared/data, or skip the test cleanly when the data is absent."""
    p = SHARED.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"shared evaluation data not found at {p}")
    return p


def embedded_examples(tmp_path_factory, name: str) -> str:
    """A library of the bundled examples, added and embedded with the hash provider (so hybrid has vectors)."""
    path = str(tmp_path_factory.mktemp(name) / "library.db")
    with Library(path) as lib:
        lib.add([str(EXAMPLES)])
        lib.embed(HASH)
    return path


def _postgres_possible() -> bool:
    """A PostgreSQL server is given (`.ci/run` sets PAPERSHELF_TEST_POSTGRES) or can be started (pgserver)."""
    if os.environ.get(pg.ENV):
        return True
    try:
        import pgserver  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(autouse=True, scope="session")
def _cache_dir(tmp_path_factory):
    """Derived files (the ONNX export) go to a session temp dir, never the user's cache."""
    old = os.environ.get("PAPERSHELF_CACHE_DIR")
    os.environ["PAPERSHELF_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if old is None:
        os.environ.pop("PAPERSHELF_CACHE_DIR", None)
    else:
        os.environ["PAPERSHELF_CACHE_DIR"] = old


# Every test that takes `lib` runs on each backend named here: the store contract tests.
BACKENDS = ["sqlite"] + (["postgres"] if _postgres_possible() else [])


def library_location(backend: str, tmp_path: Path) -> str:
    """Where a fresh, empty library of `backend` lives for one test (PostgreSQL: a new database)."""
    if backend == "sqlite":
        return str(tmp_path / "library.db")
    if backend == "postgres":
        return pg.fresh_database()
    raise ValueError(backend)


@pytest.fixture(params=BACKENDS)
def lib(request, tmp_path):
    location = library_location(request.param, tmp_path)
    library = Library(location)
    yield library
    library.close()
    if request.param == "postgres":
        pg.drop_database(location)


@pytest.fixture
def pglib():
    """A Library on a fresh PostgreSQL database (for the PostgreSQL-only tests), dropped afterwards."""
    location = pg.fresh_database()
    library = Library(location)
    yield library
    library.close()
    pg.drop_database(location)


@pytest.fixture
def write(tmp_path):
    """write("name.md", text) -> path of a file under tmp_path/papers."""
    root = tmp_path / "papers"
    root.mkdir(exist_ok=True)

    def _write(name: str, text: str | bytes) -> Path:
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
        return p

    _write.root = root
    return _write


PAPER = """
---
citekey: {key}
title: {title}
year: {year}
authors: [Ada Lovelace, Alan Turing]
---

# Introduction

{intro}

# Results

The assay is shown in Figure 1 and summarised in Table 1. As Fig. 1b shows, the signal persists.

Figure 1: {fig_caption}

Table 1: {table_caption}

| a | b |
|---|---|
| {cell} | 2 |

# References

1. Someone. A paper about references that must not be indexed. 1999.
"""


def paper_text(key="p1", title="A test paper", year=2020, intro="We study things.",
               fig_caption="Western blot of the signal.", table_caption="Counts per condition.", cell="alpha"):
    return PAPER.format(key=key, title=title, year=year, intro=intro, fig_caption=fig_caption,
                        table_caption=table_caption, cell=cell)
