"""PostgreSQL indexes text as SQLite's FTS5 `porter unicode61` does (store/postgres/tsquery.CONFIG):
the same terms with the same counts per unit, so BM25 (idf, tf, unit length) agrees between the
backends.  The reference is a real FTS5 table's own vocabulary (fts5vocab)."""

import re
import sqlite3
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from papershelf import Filters
from papershelf.document import Block, Document
from papershelf.models import Paper
from papershelf.store.postgres.tsquery import CONFIG, words_sql
from papershelf.text import fold

from . import pg
from .conftest import BACKENDS

pytestmark = pytest.mark.skipif("postgres" not in BACKENDS, reason="PostgreSQL backend not available (no pgserver)")

TEXTS = [
    "IL-6 and TNF-alpha levels in COVID-19 patients were 3.5-fold higher (p<0.05), e.g. in mice.",
    "The generalization of the results to the dying cells is not what we expected; it's the macrophages'.",
    "Of the 1,024 samples, 12% showed x@y.com http://example.org/path a/b c_d e--f 2019/2020 v1.2.3",
    "Running runs ran runner; relational conditional connection connected connecting happily agreed",
    "Naïve café users of Gödel's Schrödinger équation: Gyöngyi, García-Molina, Ørsted, Łukasiewicz, Dvořák",
    "isÉ, ise and usÉ",
]


def _fts5_counts(text: str) -> Counter:
    """FTS5's terms and counts, with the one difference left: FTS5 leaves words under 3 letters
    unstemmed, PostgreSQL's Porter takes the s off a 2-letter one (is -> i, as -> a, us -> u)."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter unicode61 remove_diacritics 2')")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    db.execute("INSERT INTO t VALUES (?)", (text,))
    # (only a word of 2 letters: "isÉ" is the word "ise", which both stem to "is")
    short = set(re.findall(r"\w+", fold(text)))
    return Counter(term[0] if len(term) == 2 and term.endswith("s") and term != "ss" and term in short else term
                   for (term,) in db.execute("SELECT term FROM v"))


def _pg_counts(lib, text: str) -> Counter:
    rows = lib.store.query(f"SELECT x.lexeme, cardinality(x.positions) AS n FROM "
                           f"unnest(to_tsvector('{CONFIG}', {words_sql('%s')})) x", (text,))
    return Counter({r["lexeme"]: r["n"] for r in rows})


@pytest.mark.parametrize("text", TEXTS)
def test_terms_and_counts_equal_fts5s(pglib, text):
    assert _pg_counts(pglib, text) == _fts5_counts(text)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["the", "of", "cells", "IL", "-", "6", ".", ",", "3.5", "dying", "studies",
                                 "generalization", "running", "(", ")", "/", "'s", "covid", "19", "a", " ",
                                 "is", "us", "as", "i", "naïve", "Gödel", "É", "ñ"]),
                min_size=1, max_size=30))
def test_random_text_tokenizes_as_fts5(pglib, parts):
    text = " ".join(parts) if len(parts) % 2 else "".join(parts)
    # left different: PostgreSQL's parser reads a number in scientific notation as one token, so
    # letters glued after its exponent ("19e19the") are a word of their own there
    assume(not re.search(r"\d+e\d+[^\W\d_]", fold(text).lower()))
    # and FTS5's porter leaves a token of over 64 bytes unstemmed (FTS5_PORTER_MAX_TOKEN; these fold to ASCII)
    assume(all(len(w) <= 64 for w in re.findall(r"[^\W_]+", fold(text))))
    assert _pg_counts(pglib, text) == _fts5_counts(text)


def test_a_hyphenated_term_is_found_as_the_phrase_sqlite_finds(pglib):
    pglib.add_document(Paper(id="il6", title="t", source_format="beir"),
                       Document(title="t", blocks=[Block("text", "Serum IL-6 rose in the cohort of the study.")]))
    pglib.add_document(Paper(id="other", title="t", source_format="beir"),
                       Document(title="t", blocks=[Block("text", "IL was 6 in the cohort.")]))
    assert [h.paper_id for h in pglib.store.lexical_search('"il 6"', 10, Filters())] == ["il6"]
    # a phrase over what used to be a stopword needs it in place, as in FTS5
    assert [h.paper_id for h in pglib.store.lexical_search('"cohort of the study"', 10, Filters())] == ["il6"]


TEXTS_LIB = [
    ("a", "Serum IL-6 and IL-8 levels rose; IL-6 fell after treatment of the patients."),
    ("b", "IL 6 was measured in mice. The levels of interleukin were high."),
    ("c", "Patients with COVID-19 had higher IL-6 levels than patients without it."),
    ("d", "Levels of TNF-alpha, not IL-6, predicted the outcome in the cohort of the study."),
    ("e", "Nothing here is about cytokines; it is about coral bleaching at depth."),
    ("f", "The 6 IL patients: il6 is a different token from IL-6 and from IL 6 levels."),
]


def _add_texts(lib, corals: int) -> list[tuple[str, str]]:
    """TEXTS_LIB and `corals` papers about coral, one unit each; returns what was added."""
    papers = TEXTS_LIB + [(f"z{i}", f"Coral reef {i} bleaching at depth {i % 3}.") for i in range(corals)]
    for pid, text in papers:
        lib.add_document(Paper(id=pid, title="t", source_format="beir"),
                         Document(title="t", blocks=[Block("text", text)]))
    return papers


@pytest.mark.parametrize("match", ['"il 6" OR "levels"', '"il 6" OR "patients" OR "covid 19"', '"il 6"',
                                   '"levels" OR "of" OR "the"', '"cohort of the study" OR "outcome"'])
def test_bm25_scores_equal_sqlite_fts5s_with_phrases(pglib, tmp_path, match):
    """Same library on both backends: the same units in the same order with the same BM25 (FTS5
    scores a phrase as one term: its own df and occurrence count)."""
    from papershelf import Library

    lite = Library(str(tmp_path / "lite.db"))
    for lib in (lite, pglib):
        _add_texts(lib, 30)
    want = [(h.unit_id, round(h.score, 9)) for h in lite.store.lexical_search(match, 10, Filters())]
    got = [(h.unit_id, round(h.score, 9)) for h in pglib.store.lexical_search(match, 10, Filters())]
    lite.close()
    assert want and got == want


@pytest.mark.parametrize("match", ['"il 6"', '"il 6" OR "coral"', '"level"*', '"il 6"*', 'NEAR("il" "levels", 3)',
                                   '"il 6 zzzunknown" OR "coral"',
                                   'NEAR("covid" "levels", 5)', '"patients with covid 19"', '"of the"'])
def test_matching_a_list_agrees_with_search_on_both_backends(pglib, tmp_path, match):
    """The phrase and NEAR evidence for a ranked list checks only the list's units: the same
    units search() matches among them, on both backends (a phrase stays inside one column)."""
    from papershelf import Library

    lite = Library(str(tmp_path / "lite.db"))
    answers = []
    for lib in (lite, pglib):
        papers = _add_texts(lib, 8)
        # "il" ends the title and "6" opens the body: no phrase across columns
        lib.add_document(Paper(id="g", title="Measured IL", source_format="beir"),
                         Document(title="Measured IL", blocks=[Block("text", "6 rose in the cohort.")]))
        owner = {u.id: pid for pid, _ in papers + [("g", "")] for u in lib.store.paper_units(pid)}
        units = sorted(owner)
        found = {h.unit_id for h in lib.store.lexical_search(match, 1000, Filters())}
        listed = units[::2] + [u for u in units if owner[u] in ("a", "g")]
        assert lib.store.matching(match, listed) == found & set(listed)
        answers.append(lib.store.matching(match, units))
    lite.close()
    assert answers[0] == answers[1] and answers[0]


def _search_docs_blocks(lib, run) -> int:
    """The blocks of search_docs' rows (where a unit's tsvector is) that `run()` touches."""
    return pg.blocks_touched(lib, "search_docs", "heap_blks_hit + heap_blks_read", run)


def test_evidence_reads_only_the_tsvectors_of_units_holding_every_word(pglib):
    """A ranked list's phrase and NEAR evidence first asks each unit's forward row whether it holds
    every word (a prefix clause: but its last); only those units' tsvectors are read."""
    _add_texts(pglib, 8)
    units = [r["unit_id"] for r in pglib.store.query("SELECT unit_id FROM search_docs ORDER BY 1")]
    for match in ('NEAR("coral" "patients", 3)', '"reef 9 bleaching" OR "zzzunknown"', '"zzzunknown il"*',
                  '"the levels of interleukin were low"'):
        found: set[str] = set()
        assert _search_docs_blocks(pglib, lambda m=match, f=found: f.update(pglib.store.matching(m, units))) == 0
        assert found == set()
    # a unit holding every word is read, and matched only when the words are in place
    for match in ('"reef 1 bleaching"', '"bleaching reef"', 'NEAR("il" "levels", 3)', '"il 6"*'):
        found = set()
        assert _search_docs_blocks(pglib, lambda m=match, f=found: f.update(pglib.store.matching(m, units))) > 0
        assert found == {h.unit_id for h in pglib.store.lexical_search(match, 1000, Filters())}, match


def test_counting_a_phrase_reads_only_the_tsvectors_of_units_holding_every_word(pglib, tmp_path):
    """A phrase's occurrences are counted in the units of its rarest word's list whose forward row
    holds its other words too; the scores stay FTS5's."""
    from papershelf import Library

    lite = Library(str(tmp_path / "lite.db"))
    for lib in (lite, pglib):
        _add_texts(lib, 8)
    for match, reads in (('"coral patients" OR "levels"', False), ('"patients with covid 19" OR "reef"', True)):
        got: list = []
        def run(m=match, g=got) -> None:
            g.extend(pglib.store.lexical_search(m, 10, Filters()))
        touched = _search_docs_blocks(pglib, run)
        assert (touched > 0) == reads, match
        want = [(h.unit_id, round(h.score, 9)) for h in lite.store.lexical_search(match, 10, Filters())]
        assert want and [(h.unit_id, round(h.score, 9)) for h in got] == want
    lite.close()


def _cells_library(lib) -> None:
    """240 units holding "cell", every third of them the phrase "T cell" (once or twice)."""
    for p in range(20):
        blocks = []
        for s in range(12):
            i = p * 12 + s
            again = " The T cell response held." if i % 7 == 0 else ""
            text = (f"Activated T cell counts rose in sample {i}.{again}" if i % 3 == 0
                    else f"A t test of cell {i} counts; the cell response in sample {i} fell.")
            blocks += [Block("heading", f"Part {s}", level=1), Block("text", text)]
        lib.add_document(Paper(id=f"p{p:02d}", title=f"Study {p}", source_format="beir"),
                         Document(title=f"Study {p}", blocks=blocks))


def test_a_phrase_of_a_long_list_is_sampled_and_its_scores_completed(pglib, monkeypatch):
    """Past phrases.FULL units the phrase is checked in a sample of its word's list (and its best
    impacts): the df is estimated, and every unit returned still scores the phrase it holds."""
    from papershelf.store.postgres import phrases

    _cells_library(pglib)
    q = pglib.store.query
    exact = phrases.count(q, -1, ["t", "cell"], exact=True)
    assert not exact.sampled and exact.df == 80

    def scores(match: str, k: int) -> dict[str, float]:
        return {h.unit_id: h.score for h in pglib.store.lexical_search(match, k, Filters())}

    phrase, both = scores('"t cell"', 300), scores('"t cell" OR "response"', 300)  # every unit, exact
    with monkeypatch.context() as m:
        for name, value in (("FULL", 10), ("SAMPLE", 40), ("HEAD", 3)):
            m.setattr(phrases, name, value)
        listed = phrases.count(q, -1, ["t", "cell"])
        sampled_phrase, sampled_both = scores('"t cell"', 30), scores('"t cell" OR "response"', 30)
        m.setattr(phrases, "PROBE_COST", 0)  # a sample of keys looked up one by one
        probed = phrases.count(q, -1, ["t", "cell"])
    for estimate in (listed, probed):
        assert estimate.sampled and abs(estimate.df - 80) <= 20 and len(estimate.rows) < 80
    # the phrase's share of every unit is scaled alike, by the estimated idf over the exact one
    ratio = {round(sampled_phrase[u] / phrase[u], 9) for u in sampled_phrase}
    assert len(ratio) == 1 and 0.75 < (r := ratio.pop()) < 1.33
    # and every unit returned holding the phrase scores it, checked in the sample or not
    assert len(sampled_both) == 30
    for u, score in sampled_both.items():
        assert score == pytest.approx(both[u] - phrase.get(u, 0.0) * (1 - r), rel=1e-6)
