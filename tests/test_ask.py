"""`ask`: evidence quoted verbatim from the library with paper, section and page; sentence splitting that a
reader would agree with; an optional chat endpoint (a real HTTP server on 127.0.0.1) whose sentences are
checked against the evidence ids they cite, and which can hang or lie without harming the evidence."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf import Library
from papershelf.errors import BadArgument
from papershelf.llm import LlmSettings, check
from papershelf.sentences import sentence_spans

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
            assert e.quote in text and text.index(e.quote) >= 0
            assert (e.before + " " + e.quote).strip() and e.paper_id == units[e.unit_id].paper_id


def test_the_answering_sentence_comes_first_and_near_duplicates_fold(library):
    resp = library.ask("How many years did recovery take after bleaching?")
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
    ("First [12. 13] stays. Second.\n\nNew paragraph", ["First [12. 13] stays.", "Second.", "New paragraph"]),
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
