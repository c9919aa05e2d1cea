"""Query fuzzing: any query string, any mode, every option at its edges, with vectors present.

A valid search answers (never raises, never emits NaN/Infinity, respects its limit and
per-paper cap); an invalid option is refused with `BadArgument` (exit code 2 at the
command line), never another exception.

Short (CI): 150 + 100 examples.  ``PAPERSHELF_SUITE=full``: 3000 + 1500.
Run: ``python -m pytest tests/reliability/test_query_fuzz.py``.
"""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from papershelf import Library
from papershelf.errors import BadArgument, NotFound, PapershelfError
from papershelf.search import FUSIONS, MODES, SearchOptions
from papershelf.store import Filters

from ..conftest import EXAMPLES, HASH
from .common import scale, write_papers

VALID_EXAMPLES = scale(150, 3000)
INVALID_EXAMPLES = scale(100, 1500)
COUNTS = {"valid": 0, "invalid": 0}


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz")
    write_papers(root / "papers", 12)
    lib = Library(str(root / "lib.db"))
    lib.add([str(EXAMPLES), str(root / "papers")])
    assert lib.embed(HASH).complete  # vectors present: vector and hybrid modes really run
    yield lib
    lib.close()


_WORDS = st.sampled_from(["IL-6", "STAT3", "western blot", '"coral bleaching"', "topic3", "AND", "OR", "NOT",
                          "NEAR(", "*", "fig*", "Figure 1", "表", "données", "^", "\"", "'", "(", ")", "-",
                          "signal", "the", "a", "0", "1e308", "\u0000", "\ud7ff", "🙂"])
QUERIES = st.one_of(st.text(min_size=1, max_size=80), st.lists(_WORDS, min_size=1, max_size=8).map(" ".join))
WEIGHTS = st.one_of(st.sampled_from([0.0, 1e-300, 1.0, 1e6]), st.floats(0, 1e6, allow_nan=False))
YEARS = st.one_of(st.none(), st.sampled_from([-9999, 0, 2020, 9999]), st.integers(-9999, 9999))
LIMITS = st.one_of(st.sampled_from([1, 1000]), st.integers(1, 1000))


@st.composite
def valid_options(draw) -> SearchOptions:
    papers = draw(st.lists(st.sampled_from(["p001", "p005", "okafor2024il6", "nobody"]), max_size=3))
    return SearchOptions(
        mode=draw(st.sampled_from(MODES)), limit=draw(LIMITS), per_paper=draw(st.sampled_from([1, 2, 1_000_000])),
        filters=Filters(papers=papers, year_from=draw(YEARS), year_to=draw(YEARS),
                        sources=draw(st.lists(st.sampled_from(["body_unit", "object_unit", "legacy_chunk"]),
                                              max_size=2, unique=True)),
                        object_kind=draw(st.sampled_from([None, "figure", "table"]))),
        fusion=draw(st.sampled_from(FUSIONS)), rrf_k=draw(WEIGHTS), lexical_weight=draw(WEIGHTS),
        vector_weight=draw(WEIGHTS), explain=draw(st.booleans()))


@settings(max_examples=VALID_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=QUERIES, opts=valid_options())
def test_any_query_with_valid_options_answers_finite_json(library, query, opts):
    try:
        resp = library.search(query, opts)
    except NotFound as e:  # a --paper that names no paper is an error, said in one line
        assert "nobody" in opts.filters.papers, e
        return
    except PapershelfError as e:  # otherwise only an empty (whitespace) query may be refused
        assert not query.strip(), e
        return
    text = json.dumps(resp.to_dict(), allow_nan=False, ensure_ascii=False)  # raises on NaN/Infinity
    json.loads(text)
    assert len(resp.results) <= opts.limit
    assert [h.rank for h in resp.results] == list(range(1, len(resp.results) + 1))
    assert all(math.isfinite(h.score) for h in resp.results)
    assert all(h.relevance is not None and 0.0 <= h.relevance <= 1.0 for h in resp.results)
    if not opts.filters.papers:  # text hits and figures/tables are capped apart (#10)
        per: dict[tuple[str, bool], int] = {}
        for h in resp.results:
            key = (h.paper_id, h.source == "object_unit")
            per[key] = per.get(key, 0) + 1
        assert all(n <= (opts.objects_per_paper if obj else opts.per_paper) for (_, obj), n in per.items())
    if opts.mode != "lexical":
        assert resp.mode in (opts.mode, "lexical")
    COUNTS["valid"] += 1


BAD_NUMBERS = st.sampled_from([float("nan"), float("inf"), float("-inf"), -1.0, -60.0, 1e7, 1e308])


@st.composite
def invalid_options(draw) -> SearchOptions:
    opts = SearchOptions()
    which = draw(st.sampled_from(["rrf_k", "lexical_weight", "vector_weight", "year_from", "year_to", "limit",
                                  "per_paper", "mode", "fusion"]))
    if which in ("rrf_k", "lexical_weight", "vector_weight"):
        setattr(opts, which, draw(BAD_NUMBERS))
    elif which in ("year_from", "year_to"):
        setattr(opts.filters, which, draw(st.one_of(st.integers(10_000, 10**30), st.integers(-10**30, -10_000))))
    elif which in ("limit", "per_paper"):
        setattr(opts, which, draw(st.sampled_from([0, -1, 10**12])))
    else:
        setattr(opts, which, draw(st.text(max_size=10).filter(lambda s: s not in MODES + FUSIONS)))
    opts.fusion = draw(st.sampled_from(FUSIONS)) if which != "fusion" else opts.fusion
    return opts


@settings(max_examples=INVALID_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=QUERIES.filter(str.strip), opts=invalid_options())
def test_any_invalid_option_is_a_bad_argument(library, query, opts):
    with pytest.raises(BadArgument):
        library.search(query, opts)
    assert BadArgument.exit_code == 2
    COUNTS["invalid"] += 1


@pytest.fixture(scope="module", autouse=True)
def _fuzz_figures():
    """The figures RELIABILITY.md quotes, printed when the module is done (not a test: it checks nothing)."""
    yield
    print(f"\nquery fuzzing: {COUNTS['valid']} valid searches across all modes with vectors, "
          f"{COUNTS['invalid']} invalid options refused")
