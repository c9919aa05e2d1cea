"""BibTeX export under random and hostile values: whatever a paper or a reference holds, the output
parses (bibtexparser; `bibtex` and TeX in the second test) into exactly one entry per record, with
valid unique keys, no field that was not written, and every value read back as the text itself."""

from __future__ import annotations

import re
import unicodedata

import bibtexparser
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from papershelf.bibtex import bibtex
from papershelf.document import Bibliographic, Reference

from .reliability.bibcheck import as_text, check, names

HOSTILE = ["{", "}", "}}", "\\", "%", "#", "&", "_", "$", "~", "^", "<", ">", "|", "@", ",", "=", '"', " and ",
           "\t", "\n", "\n\n", "\r", "\x00", "\x7f", "\ud83d", "@misc{evil, title={x}}", "}, evil = {1",
           "\\input{secret}", "\\input secret ", "\\def\\x{y}", "\\csname", "BERT", "LaTeX", "Ünïcødé", "北京",
           "key1, title = {x}", "10.1000/x_y(1):2", "2203.00130v2"]
text = st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=6)), max_size=8).map("".join)
optional = st.one_of(st.none(), text)
bibliographic = st.builds(Bibliographic, title=optional, authors=st.lists(text, max_size=4),
                          year=st.one_of(st.none(), st.integers(-5, 3000)), venue=optional, doi=optional,
                          arxiv_id=optional, citekey=optional)
reference = st.builds(Reference, n=st.integers(1, 999), text=text, authors=st.lists(text, max_size=3),
                      year=st.one_of(st.none(), st.integers(1, 2100)), title=optional, venue=optional, doi=optional)
records = st.lists(st.one_of(st.tuples(bibliographic, st.none()), st.tuples(reference, text)), min_size=1,
                   max_size=6)

_KEY = re.compile(r"[A-Za-z0-9:\-_./]{1,80}")
_DOI = re.compile(r"10\.\d{3,9}/[-._;()/:<>\[\]+A-Za-z0-9]+")


def plain(s: str | None) -> str:
    return " ".join("".join(c for c in s or "" if c.isspace() or unicodedata.category(c) not in ("Cc", "Cs")).split())


def assert_round_trip(pairs, parsed) -> None:
    assert len(parsed.entries) == len(pairs) and not parsed.failed_blocks
    keys = [e.key for e in parsed.entries]
    assert all(_KEY.fullmatch(k) for k in keys) and len({k.lower() for k in keys}) == len(keys), keys
    for (b, note), e in zip(pairs, parsed.entries):
        f = e.fields_dict
        assert set(f) <= {"author", "title", "journal", "booktitle", "howpublished", "year", "doi", "eprint",
                          "archiveprefix", "note"}, set(f)
        assert (names(f["author"].value) if "author" in f else []) == [plain(a) for a in b.authors if plain(a)]
        assert as_text(f["title"].value) == plain(b.title) if "title" in f else not plain(b.title)
        venue = [as_text(f[k].value) for k in ("journal", "booktitle", "howpublished") if k in f]
        assert venue == ([plain(b.venue)] if plain(b.venue) else [])
        assert ("note" in f and as_text(f["note"].value)) == (plain(note) or False)
        assert f["year"].value == str(b.year) if "year" in f else not (b.year and b.year > 0)
        doi = plain(b.doi)
        assert f["doi"].value == doi if "doi" in f else not _DOI.fullmatch(doi)
        own = getattr(b, "citekey", None)
        if own and re.fullmatch(r"[A-Za-z0-9:\-_./]{1,64}", own) and \
                sum(bool(getattr(x, "citekey", None)) and x.citekey.lower() == own.lower() for x, _ in pairs) == 1:
            assert e.key == own


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records)
def test_any_values_parse_back_as_themselves(pairs):
    assert_round_trip(pairs, bibtexparser.parse_string(bibtex(pairs)))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(records)
def test_bibtex_and_tex_read_the_same_entries_and_run_no_command(tmp_path, pairs):
    assert_round_trip(pairs, check(bibtex(pairs), tmp_path / "run", entries=len(pairs)))


def test_a_citekey_equal_to_another_papers_generated_key_gets_a_letter():
    """The crash of `papers --format bibtex`: the generated key of one paper equal to another's own."""
    pairs = [(Bibliographic(title="Other Things", authors=["Ada Smith"], year=2020), None),
             (Bibliographic(title="Else", citekey="smith2020other"), None),
             (Bibliographic(title="Third", citekey="SMITH2020OTHER"), None),
             (Bibliographic(title="Fourth", citekey="key1, title = {x} %"), None)]
    parsed = bibtexparser.parse_string(bibtex(pairs))
    assert [e.key for e in parsed.entries] == ["smith2020otherb", "smith2020other", "SMITH2020OTHERa",
                                               "key1titlex"]
