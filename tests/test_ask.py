"""`ask`: evidence quoted verbatim from the library with paper, section and page; sentence splitting that a
reader would agree with; an optional chat endpoint (a real HTTP server on 127.0.0.1) whose sentences are
checked against the evidence ids they cite, and which can hang or lie without harming the evidence."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf import Library
from papershelf import ask as A
from papershelf.errors import BadArgument
from papershelf.llm import LlmSettings, check
from papershelf.sentence_vectors import SentenceVectors
from papershelf.sentences import sentence_spans
from papershelf.units import Unit

from .conftest import HASH

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    lib = Library(str(tmp_path_factory.mktemp("ask") / "library.db"))
    assert not lib.add([str(EXAMPLES)]).failed
    lib.embed(HASH)
    yield lib
    lib.close()


def test_every_quote_is_a_verbatim_slice_of_its_unit(library):
    for question in ("How long did coral recovery take after bleaching?", "Which depth bands were surveyed?",
                     "what keeps macrophages inflammatory in wounds", "IL-6 western blot"):
        resp = library.ask(question, limit=6)
        assert 1 <= len(resp.evidence) <= 6
        units = library.store.get_units([e.unit_id for e in resp.evidence])
        for n, e in enumerate(resp.evidence, 1):
            assert e.id == f"e{n}"
            text = units[e.unit_id].text
            assert e.quote in text
            assert (e.before + " " + e.quote).strip() and e.paper_id == units[e.unit_id].paper_id


def test_the_answering_sentence_comes_first_and_near_duplicates_fold(library):
    # The library is embedded by the hash provider (cosines are noise): the question shares the
    # answer's words, as the old wording ("recovery", "bleaching") did not and passed by chance.
    resp = library.ask("How many years until coral cover returned to its level before the heatwave?")
    assert "four to six years" in resp.evidence[0].quote
    quotes = [e.quote for e in resp.evidence]
    assert len(set(quotes)) == len(quotes)
    assert resp.to_dict()["evidence"][0]["section_path"]


def test_bad_questions_are_one_line_errors(library):
    with pytest.raises(BadArgument):
        library.ask("   ")
    with pytest.raises(BadArgument):
        library.ask("coral", limit=9)


@pytest.mark.parametrize("text, expected", [
    ("We used 0.05 mg/kg as in Smith et al. (2019). The dose was fixed.",
     ["We used 0.05 mg/kg as in Smith et al. (2019).", "The dose was fixed."]),
    ("The dose (see Fig. 2. for details) was fixed. J. Smith agreed.",
     ["The dose (see Fig. 2. for details) was fixed.", "J. Smith agreed."]),
    ("Table 1. Doses by group. Results follow, e.g. here.", ["Table 1. Doses by group.", "Results follow, e.g. here."]),
    # a figure named in running text is no caption: the stop after its number ends the sentence
    ("Times are shown in Fig 6. The runs used one core.", ["Times are shown in Fig 6.", "The runs used one core."]),
    ("Fig. 3. Times by run. Supplementary Figure 2. More.", ["Fig. 3. Times by run.", "Supplementary Figure 2. More."]),
    ("First [12. 13] stays. Second.\n\nNew paragraph", ["First [12. 13] stays.", "Second.", "New paragraph"]),
    # a paragraph break the reader put inside a sentence (no stop before, lower case after) does not end it
    ("Documents (limited by Google to\n\nthe first 1000) are read. Then.\n\nMethods\n\nWe went on\n\nAnd on",
     ["Documents (limited by Google to\n\nthe first 1000) are read.", "Then.", "Methods", "We went on", "And on"]),
])
def test_sentences_respect_abbreviations_decimals_citations_and_captions(text, expected):
    assert [text[a:b] for a, b in sentence_spans(text)] == expected


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab. ?!()[]\n1Aé")), max_size=400))
def test_sentence_spans_cover_the_text_in_order(text):
    spans = sentence_spans(text)
    assert all(0 <= a < b <= len(text) for a, b in spans)
    assert all(b1 <= a2 for (_, b1), (a2, _) in zip(spans, spans[1:]))
    covered = "".join(text[a:b] for a, b in spans)
    assert "".join(covered.split()) == "".join(text.split())


def test_a_long_run_on_text_is_split_in_linear_time():
    text = "x" * 200_000 + " (" * 50_000 + "a. B" * 20_000
    t = time.perf_counter()
    spans = sentence_spans(text)
    assert time.perf_counter() - t < 5 and spans


class Chat:
    """A chat endpoint on 127.0.0.1 that answers `reply` (or hangs), recording what it was sent."""

    def __init__(self, reply: str | None, delay: float = 0.0):
        self.requests: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
                if reply is None:
                    time.sleep(delay)
                    return
                data = json.dumps({"choices": [{"message": {"role": "assistant", "content": reply}}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def test_a_configured_chat_endpoint_answers_with_checked_citations(library, monkeypatch):
    monkeypatch.setenv("PAPERSHELF_LLM_KEY", "sk-test")
    chat = Chat("Recovery took four to six years [e1]. It was quick [e9]. Corals like heat.")
    try:
        resp = library.ask("How long did recovery take?", llm=LlmSettings(chat.url, "tiny", timeout=10))
    finally:
        chat.close()
    sent = chat.requests[0]
    assert sent["path"] == "/v1/chat/completions" and sent["auth"] == "Bearer sk-test"
    prompt = sent["body"]["messages"][1]["content"]
    assert "How long did recovery take?" in prompt and all(e.quote in prompt for e in resp.evidence)
    assert str(library.path) not in json.dumps(sent["body"])  # only the question and the evidence
    answer = resp.answer
    assert answer is not None and answer.error is None
    assert [(s.cites, s.supported) for s in answer.sentences] == [(["e1"], True), (["e9"], False), ([], False)]


def test_a_hanging_chat_endpoint_costs_its_timeout_and_keeps_the_evidence(library):
    chat = Chat(None, delay=30)
    try:
        t = time.perf_counter()
        resp = library.ask("How long did recovery take?", llm=LlmSettings(chat.url, timeout=1.5))
        assert time.perf_counter() - t < 10
    finally:
        chat.close()
    assert resp.evidence and resp.answer is not None and resp.answer.sentences == []
    assert "did not answer within 1.5 s" in (resp.answer.error or "")


def test_check_marks_sentences_citing_nothing_or_unknown_ids():
    resp = check("Nothing cited here. But this is [e2]. And this [E1; e2].", {"e1", "e2"})
    assert [(s.text, s.supported) for s in resp] == [("Nothing cited here.", False), ("But this is.", True),
                                                     ("And this.", True)]


def test_an_unreachable_chat_endpoint_is_one_line(library):
    chat = Chat("unused")
    url = chat.url
    chat.close()  # nothing listens there now
    resp = library.ask("How long did recovery take?", llm=LlmSettings(url, timeout=3))
    assert resp.evidence and resp.answer is not None
    assert resp.answer.error and "\n" not in resp.answer.error and resp.answer.error.startswith("the chat endpoint")


class CountingEncoder:
    """A deterministic encoder that records every batch it is asked to encode."""

    def __init__(self):
        self.batches: list[list[str]] = []

    def __call__(self, texts):
        self.batches.append(list(texts))
        out = []
        for t in texts:
            rng = np.random.default_rng(int(hashlib.sha256(t.encode()).hexdigest()[:8], 16))
            out.append(rng.normal(size=16))
        return np.array(out)


def _unit(uid: str, text: str) -> Unit:
    return Unit(uid, "p1", "body", 0, text, page_start=1, page_end=1)


def test_a_warm_question_encodes_only_itself_and_an_edited_unit_misses(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERSHELF_CACHE_DIR", str(tmp_path))
    enc = CountingEncoder()
    text = "Corals were surveyed at three depths. Recovery took four to six years after bleaching. The end."
    passages = [(_unit("u1", text), 0.9)]
    first = A.evidence_for("How long did recovery take?", passages, {}, A.Encoder("space-a", enc), 3)
    assert sorted(len(b) for b in enc.batches) == [1, 2]  # the question; the two sentences of 4+ words
    enc.batches.clear()
    again = A.evidence_for("How long did recovery take?", passages, {}, A.Encoder("space-a", enc), 3)
    assert enc.batches == [["How long did recovery take?"]]
    assert [e.quote for e in again.evidence] == [e.quote for e in first.evidence]
    enc.batches.clear()
    A.evidence_for("How long?", [(_unit("u1", text + " Added."), 0.9)], {}, A.Encoder("space-a", enc), 3)
    A.evidence_for("How long?", passages, {}, A.Encoder("space-b", enc), 3)  # another model: no reuse
    assert sorted(len(b) for b in enc.batches) == [1, 1, 2, 2]


def test_the_sentence_cache_file_is_read_back_and_a_torn_row_is_a_miss(tmp_path):
    path = tmp_path / "sv.sqlite"
    vec = np.arange(6, dtype=np.float32).reshape(2, 3)
    SentenceVectors(path).put({"k": vec, "torn": vec})
    with sqlite3.connect(path) as db:
        db.execute("UPDATE sentence_vectors SET rows = 5 WHERE key = 'torn'")
    fresh = SentenceVectors(path)  # a new process: nothing in memory
    got = fresh.get(["k", "torn", "absent"])
    assert list(got) == ["k"] and np.allclose(got["k"], vec)


def test_an_unusable_cache_directory_costs_only_time(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    cache = SentenceVectors(blocker / "sub" / "sv.sqlite")
    cache.put({"k": np.ones((1, 2), dtype=np.float32)})
    assert list(cache.get(["k"])) == ["k"]  # kept in memory, the disk skipped


def test_the_refusal_reads_exactly_the_features_ask_computes():
    cands = [A.Candidate(_unit("u1", "a b c d"), 0, 7, 0.5, 0.4, 0.7), A.Candidate(_unit("u2", "e f g h"), 0, 7, 0.2)]
    feats = A.refusal_features("what is a b?", cands, [(cands[0].unit, 0.5)])
    assert set(A.REFUSAL["features"]) <= set(feats)
    assert all(len(A.REFUSAL[k]) == len(A.REFUSAL["features"]) for k in ("mean", "scale", "coef"))
    p = A.probability(feats)
    assert 0.0 < p < 1.0 and 0.0 < A.REFUSAL["cut"] < 1.0


def test_a_page_is_placed_without_reopening_the_pdf(tmp_path):
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument.new()
    for _ in range(2):
        pdf.new_page(200, 200)
    path = tmp_path / "two.pdf"
    pdf.save(str(path))
    pdf.close()
    unit = Unit("u", "p", "body", 0, "text", page_start=1, page_end=2)
    A._page_letters.cache_clear()
    assert A.page_of(unit, "nothing printed here", str(path)) == 1
    assert A.page_of(unit, "nothing printed here", str(path)) == 1
    assert A._page_letters.cache_info().hits == 1


def test_a_quantity_question_prefers_the_sentence_holding_a_number(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERSHELF_CACHE_DIR", str(tmp_path))
    text = ("The tagger uses a small set of story element tags (Table 2). "
            "The tagger uses exactly 26 story element tags.")
    resp = A.evidence_for("How many tags does the story element tagger use?", [(_unit("u1", text), 0.5)], {}, None, 2)
    assert "26" in resp.evidence[0].quote
    resp = A.evidence_for("Which tags does the story element tagger use?", [(_unit("u1", text), 0.5)], {}, None, 2)
    assert "26" not in resp.evidence[0].quote  # not a quantity question: the tie keeps the text's order


@pytest.mark.parametrize("question, quantity", [
    ("How accurate is the tagger?", True), ("How narrow was the bottleneck made?", True),
    ("What accuracy did the tagger reach?", True), ("How was the tagger trained?", False),
    ("How did the excluded people differ?", False)])
def test_how_with_an_adjective_asks_for_a_quantity(question, quantity):
    text = "The F0 tagger of AE100 is described in Section 4. The tagger reached 97% accuracy."
    cands = A.candidates([(_unit("u1", text), 0.5)])
    A.answer_type(question, cands)
    # only the sentence with a number standing alone is typed (F0, AE100 and a section number are names)
    assert [c.typed for c in cands] == ([0.0, 1.0] if quantity else [0.0, 0.0])


def test_a_sentence_borrows_part_of_its_neighbours_cosine():
    out = A.neighbours(np.array([0.1, 0.9, 0.1]))
    assert out[0] > 0.1 and out[2] > 0.1 and out[1] < 0.9 and out[1] == max(out)
    assert list(A.neighbours(np.array([0.4]))) == [0.4]


def test_a_cold_and_a_warm_ask_score_alike_through_the_cache_file(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERSHELF_CACHE_DIR", str(tmp_path))
    text = "Corals were surveyed at three depths. Recovery took four to six years after bleaching."
    enc = A.Encoder("space-a", CountingEncoder())

    def cosines():
        cands = A.candidates([(_unit("u1", text), 0.9)])
        A.embed_scores(enc, "How long did recovery take?", cands)
        return [c.cosine for c in cands]

    cold = cosines()
    A._CACHE.clear()  # another process: the vectors come from the file (float16)
    assert cosines() == cold


def test_ask_encodes_the_question_once_for_its_search_and_its_sentences(library, monkeypatch):
    question = "How many years until coral cover returned to its level before the heatwave?"
    library.ask(question)  # the sentences' vectors cached
    provider = library.query_provider(library.store.active_space())
    batches: list[list[str]] = []
    inner = provider.encode

    def counting(texts):
        batches.append(list(texts))
        return inner(texts)

    monkeypatch.setattr(provider, "encode", counting)
    library._queries._vectors.clear()  # a new question: its vector is not among those kept
    resp = library.ask(question)
    assert batches == [[question]] and resp.evidence
    library.ask(question)  # asked again: the vector kept
    assert batches == [[question]]


def test_the_best_papers_other_units_are_read_below_every_passage():
    best = [Unit(f"p1:{n}", "p1", "body", n, f"text {n}", page_start=1, page_end=1) for n in range(4)]
    other = Unit("p2:0", "p2", "body", 0, "other", page_start=1, page_end=1)
    figure = Unit("p1:obj:figure:1", "p1", "object", 9, "Figure 1. A plot.", page_start=2, page_end=2)
    passages = [(best[1], 0.9), (other, 0.6), (best[3], 0.4)]
    added = A.neighbours_of_best(passages, best + [figure])
    assert [u.id for u, _ in added] == ["p1:0", "p1:2"]  # not the passages again, nor a kind it did not return
    assert all(p < 0.4 for _, p in added)


def test_the_terminal_shows_a_quote_on_one_line_and_json_keeps_it_verbatim():
    """A quote across a column break holds the unit's line breaks: the evidence card prints it on one line;
    the JSON (what an agent cites) keeps it as the unit has it."""
    from papershelf.operations import text

    quote = "the levels of telomerase activity\n\nwere correlated with tumour stage."
    d = {"no_confident_answer": False, "notices": [], "evidence": [
        {"id": "e1", "paper_id": "p", "section_path": "Results", "page": 3, "quote": quote}]}
    card = text.ask(d)
    assert "activity were correlated" in card and "\n\n" not in card
    assert d["evidence"][0]["quote"] == quote


def test_a_sentence_restating_a_chosen_one_in_other_words_folds():
    # An abstract's sentence and its introduction's restatement: few words shared, one meaning (vectors
    # at cosine ~0.9); the third sentence says something else and takes the second place.
    text = ("We evaluate the system in two domains, a database interface and a coaching language. "
            "Experimental results in both settings, a query front end and robot coaching, are reported. "
            "Its grammar consists of 37 non-terminal symbols and 133 productions.")
    unit = Unit("u1", "p1", "body", 0, text)
    spans = A.answer_spans(text)
    same = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    near = np.array([0.9, np.sqrt(1 - 0.81), 0.0], dtype=np.float32)
    other = np.array([0.0, 0.0, 1.0], dtype=np.float32)
    cands = [A.Candidate(unit, a, b, 1.0, cosine=cos, vector=v)
             for (a, b), cos, v in zip(spans, (0.9, 0.8, 0.5), (same, near, other))]
    chosen = A.select(cands, 3)
    assert [c.start for c in chosen] == [spans[0][0], spans[2][0]]
    assert not A._near_duplicate(text[slice(*spans[0])], text[slice(*spans[1])])  # the words alone keep both
    for c in cands:
        c.vector = None  # scored by words alone: nothing to compare meanings with, nothing folded
    assert len(A.select(cands, 3)) == 2  # PER_UNIT: two from one passage
    assert A.select(cands, 3)[1].start == spans[1][0]
