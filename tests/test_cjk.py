"""Chinese, Japanese and Korean text searchable by its words, on every backend (issue 26)."""

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf import Filters, Library, SearchOptions
from papershelf.index_text import index_text, index_tokens
from papershelf.search.query import fts_query
from papershelf.store.sqlite.migrations import m007_cjk_bigrams

from . import pg
from .conftest import BACKENDS, EXAMPLES, ROOT, library_location

CJK_SET = ROOT / "bench" / "data" / "cjk"

ZH = """---
title: 基于注意力机制的肝脏肿瘤分割
citekey: zh-liver
---

# 方法

本文提出一种结合空间注意力的卷积神经网络，并使用BERT模型编码报告文本。

图 1 所提出网络的整体结构

# 结果

如图1所示，注意力模块在小肿瘤上的改进最为显著。

表 2：不同方法的Dice系数

| 方法 | Dice |
|---|---|
| U-Net | 0.71 |
"""

JA = """---
title: 深層学習を用いた震源推定
citekey: ja-quake
---

# 手法

観測点で記録された地震波形から震源の位置を推定する。

図 3 提案するネットワークの構成
"""

EN = """---
title: Macrophage polarization
citekey: en-macro
---

# Results

IL-6 western blots show macrophage polarization under hypoxia.
"""


def _library(lib, write):
    write("zh.md", ZH)
    write("ja.md", JA)
    path = write("en.md", EN)
    lib.add([str(path.parent)])
    return lib


def _first_paper(lib, query, **kw):
    resp = lib.search(query, SearchOptions(mode="lexical", **kw))
    return resp.results[0].paper_id if resp.results else None


def test_a_word_inside_a_cjk_run_finds_its_paper(lib, write):
    _library(lib, write)
    assert _first_paper(lib, "肝脏肿瘤") == "zh-liver"
    assert _first_paper(lib, "卷积神经网络") == "zh-liver"
    assert _first_paper(lib, "地震波形") == "ja-quake"
    assert _first_paper(lib, "震源の位置") == "ja-quake"
    assert _first_paper(lib, "macrophage polarization") == "en-macro"
    assert not lib.search("量子计算", SearchOptions(mode="lexical")).results  # words in no paper


def test_mixed_cjk_and_latin(lib, write):
    _library(lib, write)
    hit = lib.search("BERT模型", SearchOptions(mode="lexical")).results[0]
    assert hit.paper_id == "zh-liver"
    assert "[BERT模型]" in hit.snippet.replace("][", "") or ("[BERT]" in hit.snippet and "[模型]" in hit.snippet)


def test_snippet_shows_the_text_with_the_word_marked(lib, write):
    _library(lib, write)
    hit = lib.search("空间注意力", SearchOptions(mode="lexical")).results[0]
    assert "[空间注意力]" in hit.snippet
    assert "空间 间注" not in hit.snippet  # never the index's bigram form


def test_a_quoted_cjk_phrase_is_exact(lib, write):
    _library(lib, write)
    assert _first_paper(lib, '"小肿瘤上的改进"') == "zh-liver"
    assert not lib.search('"肿瘤小"', SearchOptions(mode="lexical")).results


def test_cjk_captions_become_figures_and_tables(lib, write):
    _library(lib, write)
    figures = lib.search("网络的整体结构", SearchOptions(mode="lexical", filters=Filters(object_kind="figure"))).results
    assert figures[0].object_label == "Figure 1" and figures[0].paper_id == "zh-liver"
    tables = lib.search("Dice系数", SearchOptions(mode="lexical", filters=Filters(object_kind="table"))).results
    assert tables[0].object_label == "Table 2"
    ja = lib.search("ネットワークの構成", SearchOptions(mode="lexical", filters=Filters(object_kind="figure"))).results
    assert ja[0].object_label == "Figure 3" and ja[0].paper_id == "ja-quake"
    view = lib.show("zh-liver")
    assert {o.to_dict()["label"] for o in view.objects} >= {"Figure 1", "Table 2"}


def test_cjk_queries_are_not_all_flagged_no_confident_match(lib):
    """In a library of some size (the example papers and the hand-written CJK set), a CJK query
    naming what a paper is about is a confident match, and one about nothing in it is not."""
    lib.add([str(EXAMPLES), str(CJK_SET)])
    for query in ("緊急地震速報", "肝脏肿瘤分割"):
        resp = lib.search(query, SearchOptions(mode="lexical"))
        assert not resp.no_confident_match, (query, resp.results[0].relevance)
    assert lib.search("量子计算机的纠错码", SearchOptions(mode="lexical")).no_confident_match


@given(st.text(alphabet=st.characters(max_codepoint=0x10ff), max_size=80))
def test_text_without_cjk_is_indexed_as_before(text):
    """Latin, Greek, Cyrillic, Arabic, Devanagari... (everything below Hangul jamo) is untouched."""
    assert index_text(text) == text


def test_index_tokens_and_queries_agree():
    assert index_tokens("使用BERT模型") == ["使用", "bert", "模型"]
    assert index_tokens("深度学习") == ["深度", "度学", "学习"]
    assert index_tokens("ＢＥＲＴ１２") == ["bert12"]  # full-width ASCII
    assert fts_query("図") == '"図"*'  # one character: any bigram it starts


def test_an_old_library_is_reindexed_by_the_migration(tmp_path, write, monkeypatch):
    """A library written before CJK bigrams (index rows hold raw CJK runs) is rewritten by migration 5."""
    path = str(tmp_path / "old.db")
    write("zh.md", ZH)
    with monkeypatch.context() as m:
        m.setattr("papershelf.store.sqlite.index_text", lambda text: text)  # as papershelf wrote it before
        with Library(path) as lib:
            lib.add([str(tmp_path / "papers")])
            assert _first_paper(lib, "肝脏肿瘤") is None  # the old index cannot find the word
    db = sqlite3.connect(path)
    m007_cjk_bigrams(db)
    db.commit()
    db.close()
    with Library(path) as lib:
        assert _first_paper(lib, "肝脏肿瘤") == "zh-liver"
        assert lib.verify().ok


def test_an_old_postgres_library_is_reindexed_by_its_migration(monkeypatch, write):
    """PostgreSQL's migration 5 rewrites rows (text and tsvector) written before CJK bigrams."""
    if "postgres" not in BACKENDS:
        pytest.skip("no PostgreSQL server for the backend tests")
    from papershelf.store.postgres.schema import _m007_cjk_bigrams

    location = library_location("postgres", Path(write("zh.md", ZH)).parent)
    try:
        with monkeypatch.context() as m:
            m.setattr("papershelf.store.postgres.papers.index_text", lambda text: text)
            with Library(location) as lib:
                lib.add([str(Path(write("zh.md", ZH)).parent)])
                assert _first_paper(lib, "肝脏肿瘤") is None
        with Library(location) as lib:
            with lib.store.transaction() as db:
                _m007_cjk_bigrams(db)
            assert _first_paper(lib, "肝脏肿瘤") == "zh-liver"
            assert lib.verify().ok
    finally:
        pg.drop_database(location)
