"""Every model's JSON (`to_dict()`), pinned: the shape each front end serializes, the same on every
backend.  A renamed, added or removed field fails here, so a change to the public JSON is a
deliberate one (with a note in docs/how-to/migrating.md).

The shapes live in tests/data/model_shapes.json: each model's keys, nested, with the JSON type of
each value (a list shows the shape of its first item).  They were taken from the code before the
restructuring of issue #20 and are unchanged by it.
"""

from __future__ import annotations

import json
from pathlib import Path

from papershelf import Filters, SearchOptions
from papershelf.models import EmbedFailure, LockHolder

from .conftest import EXAMPLES, HASH

SHAPES = Path(__file__).parent / "data" / "model_shapes.json"


def shape(value):
    """A JSON value's shape: keys and value types, lists by their first item."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in sorted(value.items())}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    return type(value).__name__


def model_json(lib) -> dict[str, dict]:
    """Each model's JSON, produced through the Library API on the examples."""
    add = lib.add([str(EXAMPLES)])
    build = lib.embed(HASH)
    resp = lib.search("coral bleaching", SearchOptions(explain=True))
    papers = lib.papers()
    with_objects = next(s.paper.id for s in papers if lib.show(s.paper.id).objects)
    view = lib.show(with_objects)
    unit = view.sections[0].unit_id
    return {"AddReport": add.to_dict(), "FileResult": add.files[0].to_dict(), "BuildReport": build.to_dict(),
            "SearchResponse": resp.to_dict(), "Hit": resp.results[0].to_dict(),
            "LibraryStatus": lib.status().to_dict(), "VerifyReport": lib.verify().to_dict(),
            "PaperSummary": papers[0].to_dict(), "PaperView": view.to_dict(), "UnitView": lib.show(unit).to_dict(),
            "Neighbour": lib.neighbours(unit)[0].to_dict(),
            "Passage": lib.passage(with_objects, budget_chars=200).to_dict(),
            "Paper": lib.paper(with_objects).to_dict(), "Space": lib.target_space().to_dict()}


def test_every_model_keeps_its_json_shape(lib):
    got = {name: shape(d) for name, d in model_json(lib).items()}
    want = json.loads(SHAPES.read_text())
    assert set(got) == set(want)
    for name in want:
        assert got[name] == want[name], name


def test_the_records_that_reach_json_keep_their_keys():
    assert LockHolder(12, "host", 1.5, True).to_dict() == {"pid": 12, "host": "host", "started_at": 1.5, "alive": True}
    assert EmbedFailure("p1", "timeout", 2.0).to_dict() == {"paper_id": "p1", "reason": "timeout", "failed_at": 2.0}


def test_year_bounds_have_one_name_and_accept_the_old_one():
    f = Filters(year_min=2001, year_max=2003)
    assert (f.year_from, f.year_to) == (2001, 2003) == (f.year_min, f.year_max)
    assert Filters(year_from=2001) == Filters(year_min=2001) and not Filters().year_from
