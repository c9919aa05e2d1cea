"""The embedding index: exactly the pending work, atomically per paper, in parallel."""

import os
import signal
import subprocess
import sys
import threading

import numpy as np
import pytest

from papershelf import Library
from papershelf.embed.base import ProviderSpec, validate
from papershelf.embed.hashing import HashProvider
from papershelf.errors import BuildLocked, DimensionMismatch

from .backends import tamper
from .conftest import EXAMPLES, HASH, paper_text
from .providers import FaultPlan, FaultyProvider


def faulty(plan: FaultPlan, dimension: int = 64):
    return lambda: FaultyProvider(HashProvider("hash-v1", dimension=dimension), plan)


def vectors(lib, paper_id=None):
    return tamper(lib.store).vector_counts(paper_id)


@pytest.fixture
def many(lib, write):
    for i in range(12):
        write(f"p{i:02d}.md", paper_text(key=f"p{i:02d}", title=f"Paper {i}", intro=f"Topic number {i}."))
    lib.add([str(write.root)])
    return lib


def test_vectors_per_collection_match_indexable_units_with_metadata(lib):
    lib.add([str(EXAMPLES)])
    report = lib.embed(HASH)
    assert report.complete and not report.failed and len(report.embedded) == 4
    for pid in lib.store.paper_ids():
        units = [u for u in lib.store.paper_units(pid) if u.indexable]
        expected = {c: n for c, n in (("body", sum(u.kind == "body" for u in units)),
                                      ("objects", sum(u.kind == "object" for u in units)),
                                      ("fulltext", sum(u.kind == "chunk" for u in units))) if n}
        assert vectors(lib, pid) == expected
    rows = {r.unit_id: r for r in lib.store.vector_rows(report.space.id, "okafor2024il6")}
    fig = rows["okafor2024il6:obj:figure:1"]
    assert (fig.collection, fig.unit_kind, fig.object_kind, fig.object_label) == \
        ("objects", "object", "figure", "Figure 1")
    assert fig.section_path == "Results" and fig.nbytes == 64 * 4 and fig.token_estimate > 0
    assert fig.kind_hash == lib.store.manifest("okafor2024il6").hashes["object"]
    assert fig.policy_version >= 1 and fig.unit_hash
    # the empty "Figure 3." caption is vetoed: no vector
    assert "mbeki2022coral:obj:figure:3" not in {r.unit_id for r in
                                                 lib.store.vector_rows(report.space.id, "mbeki2022coral")}


def test_second_run_embeds_nothing_and_resumes_never_duplicate(many):
    first = many.embed(HASH)
    assert len(first.embedded) == 12 and first.units > 0
    total = sum(vectors(many).values())
    for _ in range(3):
        again = many.embed(HASH)
        assert again.units == 0 and again.embedded == [] and again.skipped == 12
    assert sum(vectors(many).values()) == total
    assert tamper(many.store).duplicate_vectors() == 0


def test_changed_caption_reembeds_only_that_paper_and_unit(many, write):
    many.embed(HASH)
    space = many.store.active_space().id
    old_hash = many.store.manifest("p03").hashes["object"]
    old_rows = {r.unit_id: r for r in many.store.vector_rows(space, "p03")}
    write("p03.md", paper_text(key="p03", title="Paper 3", intro="Topic number 3.", fig_caption="Edited caption."))
    many.add([str(write.root)])
    assert [p for p, _ in many.pending()] == ["p03"]
    assert many.pending() == [("p03", "changed")]
    report = many.embed(HASH)
    assert report.embedded == ["p03"] and report.units == 1 and report.reused == len(old_rows) - 1
    new_rows = {r.unit_id: r for r in many.store.vector_rows(space, "p03")}
    assert new_rows["p03:obj:figure:1"].kind_hash != old_hash
    assert new_rows["p03:obj:figure:1"].unit_hash != old_rows["p03:obj:figure:1"].unit_hash
    assert new_rows["p03:body:0"].unit_hash == old_rows["p03:body:0"].unit_hash
    hits = many.search("Edited caption", mode="vector", limit=1).results
    assert hits[0].unit_id == "p03:obj:figure:1"


def test_removed_paper_loses_vectors_in_every_collection(lib, write):
    write("mixed.md", paper_text(key="mixed"))
    write("plain.txt", "Plain notes about glaciers.\n\nMore notes.\n")
    lib.add([str(write.root)])
    lib.embed(HASH)
    plain_id = [p for p in lib.store.paper_ids() if p != "mixed"][0]
    assert set(vectors(lib)) == {"body", "objects", "fulltext"}
    lib.remove("mixed")
    lib.remove(plain_id)
    assert vectors(lib) == {}
    assert tamper(lib.store).build_states() == 0
    assert lib.embed(HASH).units == 0


def test_object_only_body_only_and_fulltext_only_papers(lib, write):
    write("objects.md", "---\nid: objonly\n---\n\n# Figures\n\nFigure 1: Only a caption here.\n\n"
                        "Table 1: And a table caption.\n")
    write("body.md", "---\nid: bodyonly\n---\n\n# Intro\n\nJust body text, no figures.\n")
    write("chunks.txt", "No headings at all, only running text about volcanoes.\n")
    lib.add([str(write.root)])
    report = lib.embed(HASH)
    assert report.complete and not report.failed
    assert vectors(lib, "objonly") == {"objects": 2}
    assert vectors(lib, "bodyonly") == {"body": 1}
    chunk_id = [p for p in lib.store.paper_ids() if p not in ("objonly", "bodyonly")][0]
    assert vectors(lib, chunk_id) == {"fulltext": 1}
    assert lib.search("caption here", mode="vector", limit=1).results[0].paper_id == "objonly"


def test_paper_whose_units_became_empty_loses_its_vectors(lib, write):
    p = write("a.md", "---\nid: a\n---\n\n# Results\n\nFigure 1: A caption.\n")
    lib.add([str(p)])
    lib.embed(HASH)
    assert vectors(lib, "a") == {"objects": 1}
    p.write_text("---\nid: a\n---\n\n# Results\n\nFigure 1.\n")  # caption emptied: vetoed
    lib.add([str(p)])
    assert lib.pending() == [("a", "changed")]
    lib.embed(HASH)
    assert vectors(lib, "a") == {} and lib.pending() == []


def test_status_total_is_the_sum_of_collections(lib):
    lib.add([str(EXAMPLES)])
    lib.embed(HASH)
    e = lib.status().embedding
    assert e.stored_total == sum(c.stored for c in e.collections.values())
    assert e.expected_total == e.stored_total and e.pending_papers == 0
    assert e.target_space.model == "hash-v1" and e.active_space.id == e.target_space.id


def test_failing_payload_keeps_old_vectors_and_is_retried(many, write):
    many.embed(HASH)
    space = many.store.active_space().id
    before = {r.unit_id: r.unit_hash for r in many.store.vector_rows(space, "p05")}
    for key in ("p05", "p06"):
        write(f"{key}.md", paper_text(key=key, title=f"Paper {key}", intro=f"New intro {key}.",
                                      fig_caption=f"POISON caption {key}" if key == "p05" else "fine"))
    many.add([str(write.root)])
    report = many.embed(HASH, provider_factory=faulty(FaultPlan(fail_texts=["POISON"])))
    assert list(report.failed) == ["p05"] and "injected failure" in report.failed["p05"]
    assert report.embedded == ["p06"] and not report.complete
    assert {r.unit_id: r.unit_hash for r in many.store.vector_rows(space, "p05")} == before
    e = many.status().embedding
    assert e.failed_papers == 1 and e.pending_papers == 1
    assert e.failures[0]["paper_id"] == "p05"
    retry = many.embed(HASH)
    assert retry.embedded == ["p05"] and not retry.failed and retry.complete
    assert many.status().embedding.failed_papers == 0


def test_a_failed_shared_batch_is_retried_paper_by_paper(many):
    """Papers share provider batches; when a shared batch fails, each paper is tried alone."""
    plan = FaultPlan(fail_calls={1})
    report = many.embed(HASH, provider_factory=faulty(plan))
    assert not report.failed and len(report.embedded) == 12 and plan.calls > 1


# fail_calls={1, 2}: the shared batch fails, then the first paper's own first payload fails too.
# A plan counts its calls, so each run (each backend) gets a fresh one.
@pytest.mark.parametrize("faults", [{"drop_texts": ["Topic number 4"]}, {"fail_calls": {1, 2}}])
def test_provider_returning_too_few_vectors_or_erroring_fails_only_that_paper(many, faults):
    plan = FaultPlan(**faults)
    report = many.embed(HASH, provider_factory=faulty(plan))
    assert len(report.failed) == 1
    failed = next(iter(report.failed))
    assert vectors(many, failed) == {}
    assert len(report.embedded) == 11
    assert [p for p, _ in many.pending()] == [failed]


def test_dimension_mismatch_is_a_clear_error(many):
    report = many.embed(HASH, provider_factory=faulty(FaultPlan(wrong_dimension=True)))
    assert len(report.failed) == 12
    assert all("128-dimensional" in r and "64-dimensional" in r for r in report.failed.values())
    assert vectors(many) == {}
    with pytest.raises(DimensionMismatch, match="128-dimensional vectors; this space holds 64"):
        validate(np.zeros((1, 128)), 1, 64)


def test_damaged_papers_are_reselected_and_complete_ones_are_not(many):
    many.embed(HASH)
    assert many.pending() == []
    tamper(many.store).delete_vectors(unit_id="p07:body:1")
    tamper(many.store).delete_vectors(paper_id="p08")
    assert many.pending() == [("p07", "damaged"), ("p08", "damaged")]
    report = many.embed(HASH)
    assert sorted(report.embedded) == ["p07", "p08"] and report.units == 1 + len(
        [u for u in many.store.paper_units("p08") if u.indexable])
    assert many.pending() == []


def test_filtered_and_unfiltered_pending_counts_agree(many, write):
    many.embed(HASH)
    write("p01.md", paper_text(key="p01", intro="changed"))
    many.add([str(write.root)])
    tamper(many.store).delete_vectors(paper_id="p02")
    everything = many.pending()
    ids = many.store.paper_ids()
    per_paper = [x for pid in ids for x in many.pending([pid])]
    assert per_paper == everything == [("p01", "changed"), ("p02", "damaged")]
    assert len(many.pending(ids[:5])) == 2
    assert many.status().embedding.pending_papers == 2
    report = many.embed(HASH, paper_ids=["p02"])
    assert report.embedded == ["p02"] and many.pending() == [("p01", "changed")]


def test_parallel_workers_give_the_same_vectors(tmp_path, write):
    for i in range(20):
        write(f"p{i}.md", paper_text(key=f"p{i}", intro=f"Intro {i}."))
    results = []
    for workers in (1, 4):
        lib = Library(str(tmp_path / f"w{workers}.db"))
        lib.add([str(write.root)])
        plan = FaultPlan(delay=0.01)
        report = lib.embed(HASH, workers=workers, provider_factory=faulty(plan))
        assert len(report.embedded) == 20 and report.complete
        results.append(tamper(lib.store).all_vectors())
        lib.close()
    assert results[0] == results[1]


def test_second_build_is_refused_and_stale_lock_taken_over(many):
    if getattr(many.store, "concurrent_builds", False):
        pytest.skip("this backend lets builders share a library (test_a_second_builder_takes_only_unclaimed_papers)")
    other = Library(many.path)
    started = threading.Event()
    release = threading.Event()

    class Slow(HashProvider):
        def encode(self, texts):
            started.set()
            release.wait(10)
            return super().encode(texts)

    t = threading.Thread(target=lambda: many.embed(HASH, provider_factory=lambda: Slow(dimension=64)))
    t.start()
    assert started.wait(10)
    # Same process id in a thread would be re-entrant; pretend the holder is another live process.
    tamper(many.store).set_lock_holder(os.getppid())
    with pytest.raises(BuildLocked, match=f"pid {os.getppid()}"):
        other.embed(HASH)
    # status and search keep answering while the build runs
    assert other.status().papers == 12
    assert other.search("Topic", mode="lexical").results
    tamper(many.store).set_lock_holder(os.getpid())
    release.set()
    t.join(10)
    # A lock left by a dead process is taken over.
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    tamper(other.store).set_lock_holder(dead.pid)
    assert other.embed(HASH).units == 0
    other.close()


def test_a_second_builder_takes_only_unclaimed_papers(many):
    """Where builders may share a library, a second one starting mid-build is not refused: it
    skips the papers the first has claimed, builds the rest, and nothing is written twice."""
    if not getattr(many.store, "concurrent_builds", False):
        pytest.skip("this backend allows one builder at a time (test_second_build_is_refused...)")
    other = Library(many.path)
    started, release = threading.Event(), threading.Event()

    class Slow(HashProvider):
        def encode(self, texts):
            started.set()
            release.wait(10)
            return super().encode(texts)

    first: list = []
    t = threading.Thread(target=lambda: first.append(many.embed(HASH, batch_size=8,
                                                                 provider_factory=lambda: Slow(dimension=64))))
    t.start()
    assert started.wait(10)
    assert other.status().embedding.build_running is not None
    second = other.embed(HASH)  # the first holds the claims of the papers it is encoding
    assert second.embedded and len(second.embedded) < 12 and not second.complete
    release.set()
    t.join(10)
    assert not set(first[0].embedded) & set(second.embedded)
    assert sorted(first[0].embedded + second.embedded) == many.store.paper_ids()
    assert many.pending() == [] and many.verify().ok and tamper(many.store).duplicate_vectors() == 0
    assert many.store.active_space() is not None
    other.close()


def test_cancel_writes_encoded_papers_and_leaves_the_rest_pending(many):
    cancel = threading.Event()
    done = []

    def on_event(e):
        if e["event"] == "paper":
            done.append(e["paper_id"])
            if len(done) == 3:
                cancel.set()

    report = many.embed(HASH, cancel=cancel, on_event=on_event, provider_factory=faulty(FaultPlan(delay=0.02)),
                        batch_size=4)
    assert report.cancelled and not report.complete
    assert len(report.embedded) >= 3 and len(report.embedded) < 12
    pending = {p for p, _ in many.pending()}
    assert pending == set(many.store.paper_ids()) - set(report.embedded)
    for pid in report.embedded:  # whole papers only
        assert sum(vectors(many, pid).values()) == sum(u.indexable for u in many.store.paper_units(pid))
    rest = many.embed(HASH)
    assert sorted(rest.embedded) == sorted(pending) and rest.complete


def test_model_switch_keeps_search_on_the_complete_space(many):
    many.embed(HASH)
    old = many.store.active_space()
    bigger = ProviderSpec("hash", "hash-v1", (("dimension", 96),))
    cancel = threading.Event()
    report = many.embed(bigger, cancel=cancel, on_event=lambda e: e["event"] == "paper" and cancel.set(),
                        provider_factory=faulty(FaultPlan(delay=0.01), dimension=96), batch_size=4)
    assert report.cancelled and report.space.id != old.id
    assert many.store.active_space().id == old.id
    resp = many.search("Topic number 4", mode="vector")
    assert resp.mode == "vector" and resp.results[0].paper_id == "p04"
    st = many.status().embedding
    assert st.target_space.dimension == 96 and st.active_space.dimension == 64
    assert st.pending_papers > 0
    many.embed(bigger)
    assert many.store.active_space().dimension == 96
    assert many.search("Topic number 4", mode="vector").results[0].paper_id == "p04"


def _cli(*args, env=None, **kw):
    return subprocess.Popen([sys.executable, "-m", "papershelf", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kw)


def test_ctrl_c_exits_130_and_a_kill_loses_nothing(many):
    env = dict(os.environ, PAPERSHELF_LIBRARY=many.path, PAPERSHELF_HASH_DELAY="0.3")
    proc = _cli("embed", "--provider", "hash", "--dimension", "64", "--batch-size", "4", "--json", env=env)
    line = proc.stdout.readline()  # the start event
    assert '"start"' in line
    proc.stdout.readline()  # first paper written
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    embedded = set(many.store.paper_ids()) - {p for p, _ in many.pending()}
    assert 1 <= len(embedded) < 12
    # kill -9 in the middle of a build: whatever was committed is whole; a rerun finishes the rest
    proc = _cli("embed", "--json", env=env)
    proc.stdout.readline()
    proc.stdout.readline()
    proc.kill()
    proc.wait()
    for pid in many.store.paper_ids():
        n = sum(vectors(many, pid).values())
        assert n in (0, sum(u.indexable for u in many.store.paper_units(pid)))
    env.pop("PAPERSHELF_HASH_DELAY")
    done = subprocess.run([sys.executable, "-m", "papershelf", "embed", "--json"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr  # the dead process's lock was taken over
    assert many.pending() == []


def test_verify_checks_every_vector_against_its_unit(many):
    many.embed(HASH)
    assert many.verify().ok
    space = many.store.active_space().id
    # A vector whose unit hash lies about the content, one of the wrong size, one for a unit that is gone.
    tamper(many.store).forge_unit_hash("p01:body:0")
    tamper(many.store).truncate_vector("p02:body:0")
    tamper(many.store).copy_vector("p03:body:0", "p03:body:99")
    s = many.verify().spaces[0]
    assert s.stale_vectors == ["p01:body:0"] and s.wrong_size_vectors == ["p02:body:0"]
    assert not s.ok
    # p03 has one vector too many: the pending predicate sees it, so it is reported as pending, not orphaned.
    assert "p03" in {p for p, _ in many.pending()}
    many.embed(HASH, force=True)
    assert many.verify().ok and space == many.store.active_space().id


def test_verify_checks_the_lexical_index(lib):
    lib.add([str(EXAMPLES)])
    assert lib.verify().index.ok
    tamper(lib.store).delete_index_row("okafor2024il6:body:0")
    problems = lib.verify().index.problems
    assert any("okafor2024il6" in p and "search index" in p for p in problems)


def test_a_paper_changed_during_the_build_stays_pending(many, write):
    """The build writes what it encoded, with the hashes it encoded from; a paper edited
    meanwhile (by another process) is therefore still pending afterwards, never "done"."""
    other = Library(many.path)
    edited = threading.Event()

    class EditWhileEncoding(HashProvider):
        def encode(self, texts):
            if not edited.is_set() and any("Topic number 0." in t for t in texts):
                write("p00.md", paper_text(key="p00", title="Paper 0", intro="Rewritten during the build."))
                other.add([str(write.root / "p00.md")])
                edited.set()
            return super().encode(texts)

    report = many.embed(HASH, provider_factory=lambda: EditWhileEncoding(dimension=64), batch_size=4)
    assert edited.is_set() and "p00" in report.embedded and not report.complete
    assert many.pending() == [("p00", "changed")]
    assert many.verify().ok
    assert many.embed(HASH).embedded == ["p00"] and many.pending() == []
    other.close()


def test_sigterm_stops_like_ctrl_c(many):
    env = dict(os.environ, PAPERSHELF_LIBRARY=many.path, PAPERSHELF_HASH_DELAY="0.3")
    proc = _cli("embed", "--provider", "hash", "--dimension", "64", "--batch-size", "4", "--json", env=env)
    proc.stdout.readline()
    proc.stdout.readline()
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=30)
    assert proc.returncode == 130
    for pid in many.store.paper_ids():
        assert sum(vectors(many, pid).values()) in (0, sum(u.indexable for u in many.store.paper_units(pid)))
    assert many.verify().ok


def test_progress_counts_encoded_windows_from_the_first_batch(many):
    """`encoded` events come per provider call, before the papers they belong to are written, and add
    up to the windows and units the build reports: a progress bar moves from the first batch."""
    events = []
    report = many.embed(HASH, on_event=events.append, batch_size=2)
    kinds = [e["event"] for e in events]
    assert kinds.index("encoded") < kinds.index("paper")
    encoded = [e for e in events if e["event"] == "encoded"]
    assert len(encoded) > len(report.embedded)  # more often than papers are written
    assert sum(e["windows"] for e in encoded) == report.windows
    assert sum(e["units"] for e in encoded) == report.units
