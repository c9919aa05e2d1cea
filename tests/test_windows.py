"""Long units are embedded as windows the model reads whole, and score by their best window."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf import Library
from papershelf.embed.base import ProviderSpec
from papershelf.embed.hashing import HashProvider
from papershelf.embed.windows import estimate_counts, split_sentences, windows
from papershelf.errors import NotFound
from papershelf.units import estimate_tokens

from .providers import FaultPlan, FaultyProvider

WORDS = st.text(alphabet="abcdefghij", min_size=1, max_size=12)
SENTENCES = st.lists(st.lists(WORDS, min_size=1, max_size=60).map(lambda ws: " ".join(ws).capitalize() + "."),
                     min_size=1, max_size=30)


@settings(max_examples=200, deadline=None)
@given(SENTENCES, st.integers(min_value=12, max_value=200), st.sampled_from(["", "A title", "Title\nMethods > Setup"]))
def test_windows_fit_the_budget_keep_the_head_and_cover_every_word_in_order(sentences, budget, head):
    body = " ".join(sentences)
    out = windows(head, body, budget, estimate_counts)
    assert out
    texts = []
    for w in out:
        assert estimate_tokens(w) <= budget, (budget, w)
        if head:
            assert w.startswith(head.split()[0])
        texts.append(w.split("\n")[-1])
    # Every body word appears, in order; consecutive windows overlap by at most one sentence.
    words = body.split()
    seen = [t.split() for t in texts]
    pos = 0
    for ws in seen:
        # each window is a contiguous run of the body, starting at or before where the last one ended
        start = next((i for i in range(pos, -1, -1) if words[i:i + len(ws)] == ws), None)
        assert start is not None, (ws, words[pos:pos + 20])
        pos = max(pos, start + len(ws))
    assert pos == len(words)


def test_short_text_and_no_budget_are_one_window():
    assert windows("Title", "One short sentence.", 128, estimate_counts) == ["Title\nOne short sentence."]
    long = "word " * 500
    assert windows("Title", long, None, estimate_counts) == [f"Title\n{long}"]
    assert windows("", "Just a body.", 8, estimate_counts) == ["Just a body."]


def test_sentences_split_at_ends_and_line_breaks_not_at_abbreviations_before_lowercase():
    assert split_sentences("We measured IL-6. Levels rose (p < 0.01). e.g. this stays\nNew line here") == [
        "We measured IL-6.", "Levels rose (p < 0.01). e.g. this stays", "New line here"]
    assert split_sentences("Values were 3.5 vs. 4.1 in Fig. 2b.") == ["Values were 3.5 vs. 4.1 in Fig. 2b."]


LONG_SECTION = " ".join(
    f"Plot {i} was sampled at dawn with a steel corer, sieved, dried at sixty degrees and weighed twice."
    for i in range(40))


def long_paper(tail: str) -> str:
    return (f"---\ncitekey: alpine\ntitle: Soil sampling in alpine meadows\nyear: 2021\n---\n\n"
            f"# Methods\n\n{LONG_SECTION} {tail}\n\n# Results\n\nNitrogen varied between plots.\n")


def test_a_long_unit_is_stored_as_windows_and_found_by_its_last_sentence(tmp_path):
    (tmp_path / "alpine.md").write_text(long_paper(
        "Separately we noticed zebra mussels clogging the irrigation pipes."))
    (tmp_path / "other.md").write_text("---\ncitekey: other\ntitle: Pipes\n---\n\n# Intro\n\n"
                                       "Irrigation pipes in orchards are made of polyethylene.\n")
    with Library(str(tmp_path / "lib.db")) as lib:
        lib.add([str(tmp_path)])
        windowed = ProviderSpec("hash", "hash-v1", (("dimension", 64), ("window_tokens", 48)))
        report = lib.embed(windowed)
        assert report.complete and report.windows > report.units
        space = lib.store.active_space()
        assert lib.embedding_status().active_space.window_tokens == 48
        methods = next(r for r in lib.store.vector_rows(space.id, "alpine") if r.unit_id == "alpine:body:0")
        assert methods.nbytes > 64 * 4 and methods.nbytes % (64 * 4) == 0
        assert lib.verify().ok
        hits = lib.search("zebra mussels clogging the irrigation pipes", mode="vector", per_paper=5).results
        assert hits[0].unit_id == "alpine:body:0"
        windowed_score = hits[0].score

        # The same library without windows: another space; the whole unit dilutes the sentence.
        whole = lib.embed(ProviderSpec("hash", "hash-v1", (("dimension", 64),)))
        assert whole.complete and whole.space.fingerprint != space.fingerprint
        assert whole.windows == whole.units
        hits = lib.search("zebra mussels clogging the irrigation pipes", mode="vector", per_paper=5).results
        unit_score = next(h.score for h in hits if h.unit_id == "alpine:body:0")
        assert windowed_score > unit_score + 0.2


def test_a_failing_last_window_fails_the_whole_paper_and_writes_none_of_it(tmp_path):
    (tmp_path / "alpine.md").write_text(long_paper("POISON sits in the last window."))
    (tmp_path / "other.md").write_text("---\ncitekey: other\ntitle: Pipes\n---\n\n# Intro\n\nShort.\n")
    spec = ProviderSpec("hash", "hash-v1", (("dimension", 64), ("window_tokens", 48)))
    with Library(str(tmp_path / "lib.db")) as lib:
        lib.add([str(tmp_path)])
        plan = FaultPlan(fail_texts=["POISON"])
        report = lib.embed(spec, provider_factory=lambda: FaultyProvider(HashProvider(dimension=64, window_tokens=48),
                                                                         plan))
        assert list(report.failed) == ["alpine"] and report.embedded == ["other"]
        space = report.space.id
        assert lib.store.vector_rows(space, "alpine") == []
        assert [p for p, _ in lib.store.pending(space)] == ["alpine"]
        retry = lib.embed(spec)
        assert retry.embedded == ["alpine"] and retry.complete and lib.verify().ok


def test_changed_window_size_is_a_new_space_and_reruns_are_no_ops(tmp_path):
    (tmp_path / "alpine.md").write_text(long_paper("The end."))
    with Library(str(tmp_path / "lib.db")) as lib:
        lib.add([str(tmp_path)])
        a = lib.embed(ProviderSpec("hash", "hash-v1", (("dimension", 64), ("window_tokens", 48))))
        again = lib.embed(ProviderSpec("hash", "hash-v1", (("dimension", 64), ("window_tokens", 48))))
        assert again.units == 0 and again.space.id == a.space.id
        b = lib.embed(ProviderSpec("hash", "hash-v1", (("dimension", 64), ("window_tokens", 96))))
        assert b.space.id != a.space.id and b.units == a.units and b.windows < a.windows
        # Either space can still be searched by id, e.g. to compare them on the same queries.
        for space in (a.space, b.space):
            hits = lib.search("steel corer sieved", mode="vector", space_id=space.id).results
            assert hits and hits[0].unit_id == "alpine:body:0"
        with pytest.raises(NotFound):
            lib.search("steel corer", mode="vector", space_id=999)


def test_real_model_counts_wordpieces_and_finds_a_statement_past_its_256_token_limit(tmp_path):
    from papershelf.embed.local import LocalProvider

    model = LocalProvider()
    assert model.window_tokens == 128
    n = model.count_tokens([LONG_SECTION])[0]
    assert n > 600  # far beyond what the model reads in one pass
    tail = "Coral reefs bleach and die when marine heatwaves push ocean temperatures above their tolerance."
    cut = windows("Soil sampling in alpine meadows\nMethods", f"{LONG_SECTION} {tail}", 128, model.count_tokens)
    assert all(c <= 128 - 2 for c in model.count_tokens(cut))
    assert tail in cut[-1]

    (tmp_path / "alpine.md").write_text(long_paper(tail))
    for key, topic in [("folding", "Transformer language models predict protein structures from sequences."),
                       ("heat", "City trees lower street temperatures during summer heat waves."),
                       ("bees", "Pesticide exposure reduces honey bee foraging.")]:
        (tmp_path / f"{key}.md").write_text(f"---\ncitekey: {key}\ntitle: {key}\n---\n\n# Intro\n\n{topic}\n")
    with Library(str(tmp_path / "lib.db")) as lib:
        lib.add([str(tmp_path)])
        lib.embed(ProviderSpec("local", None, (("window_tokens", 0),)))
        q = "why do corals lose their colour in hot oceans"
        truncated = {h.unit_id: h.score for h in lib.search(q, mode="vector", per_paper=5).results}
        lib.embed(ProviderSpec("local"))
        hits = lib.search(q, mode="vector", per_paper=5).results
        assert hits[0].unit_id == "alpine:body:0"
        assert hits[0].score > truncated.get("alpine:body:0", -1.0) + 0.2
        # No query word occurs in the unit: the snippet is the window that matched, not the opening.
        hits = lib.search("which animals turn white if the sea gets too warm", mode="vector", per_paper=5,
                          explain=True).results
        alpine = next(h for h in hits if h.unit_id == "alpine:body:0")
        assert alpine.explain.vector_window > 0
        assert "bleach" in alpine.snippet and "Plot 0 " not in alpine.snippet
