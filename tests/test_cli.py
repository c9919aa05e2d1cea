"""The papershelf command as a user runs it: a real process, real files."""

import json
import os
import subprocess
import sys

import pytest

from .conftest import EXAMPLES


def run(library, *args, ok=(0,)):
    env = dict(os.environ, PAPERSHELF_LIBRARY=str(library))
    p = subprocess.run([sys.executable, "-m", "papershelf", *args], env=env, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode in ok, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr
    return p


def test_add_search_show_status_remove_with_json(tmp_path):
    db = tmp_path / "lib.db"
    add = json.loads(run(db, "add", str(EXAMPLES), "--json").stdout)
    assert (add["added"], add["failed"]) == (4, 0)
    again = json.loads(run(db, "add", str(EXAMPLES), "--json").stdout)
    assert again["unchanged"] == 4

    res = json.loads(run(db, "search", "bleaching by depth band", "--mode", "lexical", "--json").stdout)
    top = res["results"][0]
    assert top["unit_id"] == "mbeki2022coral:obj:table:1" and top["source"] == "object_unit"
    assert res["mode"] == "lexical"

    hybrid = json.loads(run(db, "search", "bleaching", "--json").stdout)
    assert hybrid["mode"] == "lexical" and "papershelf embed" in hybrid["notices"][0]

    status = json.loads(run(db, "status", "--json").stdout)
    assert status["papers"] == 4 and status["embedding"]["pending_papers"] == 4

    shown = json.loads(run(db, "show", "mbeki2022coral", "--json").stdout)
    assert shown["type"] == "paper" and len(shown["objects"]) == 4
    assert "Recovery" in run(db, "show", "mbeki2022coral").stdout

    assert json.loads(run(db, "papers", "--json").stdout)[0]["id"]
    run(db, "remove", "mbeki2022coral")
    assert json.loads(run(db, "status", "--json").stdout)["papers"] == 3
    err = run(db, "remove", "mbeki2022coral", ok=(1,))
    assert "no paper with id" in err.stderr


def test_embed_then_status_and_second_run(tmp_path):
    db = tmp_path / "lib.db"
    run(db, "add", str(EXAMPLES))
    lines = run(db, "embed", "--provider", "hash", "--json", "--workers", "2").stdout.splitlines()
    events = [json.loads(x) for x in lines]
    assert events[0]["event"] == "start" and events[-1]["event"] == "done"
    assert sum(e["event"] == "paper" for e in events) == 4 and events[-1]["complete"]
    again = run(db, "embed").stdout
    assert "nothing to embed" in again
    st = json.loads(run(db, "status", "--json").stdout)["embedding"]
    assert st["stored_total"] == st["expected_total"] > 0
    text = run(db, "status").stdout
    assert "hash/hash-v1" in text and "total" in text
    assert "verified" in run(db, "verify").stdout
    res = json.loads(run(db, "search", "sgp130Fc wound closure", "--json", "--explain").stdout)
    assert res["mode"] == "hybrid" and res["results"][0]["explain"]["vector_rank"] is not None


def test_failed_files_give_exit_code_1_and_one_line_each(tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "good.md").write_text("# Intro\n\nFine.\n")
    (tmp_path / "p" / "bad.md").write_bytes(b"\xff\xfe\x00\x00garbage")
    p = run(tmp_path / "lib.db", "add", str(tmp_path / "p"), ok=(1,))
    assert "added 1" in p.stdout and "bad.md: binary file" in p.stdout


def test_user_errors_are_one_line_not_tracebacks(tmp_path):
    missing = tmp_path / "none.db"
    p = run(missing, "search", "x", ok=(1,))
    assert "no library" in p.stderr and not missing.exists()
    junk = tmp_path / "junk.db"
    junk.write_text("hello" * 100)
    assert "not a papershelf library" in run(junk, "status", ok=(1,)).stderr
    run(tmp_path / "l.db", "add", str(EXAMPLES))
    assert "--mode: Input should be 'hybrid', 'lexical' or 'vector'" in run(
        tmp_path / "l.db", "search", "x", "--mode", "fuzzy", ok=(2,)).stderr


def test_index_adds_and_embeds_in_one_step(tmp_path):
    db = tmp_path / "lib.db"
    p = run(db, "index", str(EXAMPLES), "--provider", "hash")
    assert "added 4" in p.stdout and "embedded 4 papers" in p.stdout
    # lexical search covers every added paper before the embedding starts, and the terminal says so
    assert 0 <= p.stderr.index("searchable by words: 4 papers") < p.stderr.index("embedding 4 papers")


@pytest.mark.slow
def test_default_local_model_end_to_end(tmp_path):
    """The real all-MiniLM-L6-v2, offline: its fp32 weights when installed, else the shipped int8 weights."""
    from papershelf.embed.local import effective_model

    db = tmp_path / "lib.db"
    run(db, "index", str(EXAMPLES))
    st = json.loads(run(db, "status", "--json").stdout)["embedding"]
    assert st["active_space"]["model"] == effective_model("all-MiniLM-L6-v2")
    assert st["active_space"]["dimension"] == 384
    # meaning, not words: none of these query words is in the coral paper's recovery section
    res = json.loads(run(db, "search", "how long do reefs take to come back", "--mode", "vector",
                         "--json").stdout)
    assert res["results"][0]["paper_id"] == "mbeki2022coral"
