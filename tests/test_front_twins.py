"""bench/front_twins.py keeps an aligner's mistakes out of the truth (a record's names, title and year are
truth only where page 1 prints them) and its split agrees with the splits it is made from; and
bench/synthetic_real.py puts a real title only where the drawn title stands."""

import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

from front_twins import align  # noqa: E402
from synthetic_real import retitle  # noqa: E402

PAGE = ("Prolonged transition time in a bear\nKate Griffiths1, Rong Hou2 and I. Kati Loeffler2\n"
        "Received 7 August 2015; published 21 October 2015\n")


def test_only_what_page_one_prints_is_truth():
    rec = {"names": [("Kate", "Griffiths"), ("Rong", "Hou"), ("I. Kati", "Loeffler")],
           "title": "Prolonged Transition Time in a Bear", "years": {"2015"}}
    truth = align(rec, PAGE)
    assert truth["authors"] == ["Kate Griffiths", "Rong Hou", "I. Kati Loeffler"] and truth["full"]
    assert truth["title"] == rec["title"] and truth["year"] == 2015 and truth["dropped"] == []
    # a surname the page does not print drops the list; given names spelled otherwise grade surnames only
    assert "authors" not in align({**rec, "names": [*rec["names"], ("Ann", "Zhang")]}, PAGE)
    assert align({**rec, "names": [("Katherine", "Griffiths")]}, PAGE)["full"] is False
    # a title the page does not print, dates that disagree, a year not printed: no truth
    odd = align({**rec, "title": "Milk of bears", "years": {"2014", "2015"}}, PAGE)
    assert "title" not in odd and "year" not in odd and len(odd["dropped"]) == 2
    assert "year" not in align({**rec, "years": {"2016"}}, PAGE)


def test_the_split_follows_the_splits_it_is_made_from():
    data = BENCH / "data"
    split = json.loads((data / "front_twins_split.json").read_text())
    wide = json.loads((data / "wide_split.json").read_text())
    assert split.pop("_about").strip()
    for key, v in split.items():
        source, name = key.split(":", 1)
        assert v["half"] in ("dev", "test") and v["family"], key
        if source == "jats":
            assert v == wide[name], key


def test_a_real_title_goes_where_the_drawn_one_stands():
    titles = ["Histone structure and nucleosome stability", "A much longer real title of the kind printed on page one"]
    lay, truth = {"title": "Ward Rounds At Dawn", "kind": "grid"}, {"title": "Ward Rounds At Dawn"}
    retitle(lay, truth, titles, 2)
    assert lay["title"] == truth["title"] == titles[0]  # the one of about the drawn one's length
    lay, truth = {"title": "LABEL: Ward", "kind": "label"}, {"title": "Ward Rounds"}  # built from parts: kept
    retitle(lay, truth, titles, 2)
    assert truth["title"] == "Ward Rounds"
