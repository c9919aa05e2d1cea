"""Optional synthesis for `ask`: an OpenAI-compatible chat endpoint the user configured writes a short answer
from the evidence, and every sentence of it is checked against the evidence ids it cites.

Never by default, and never a request's parameter: the endpoint is the user's configuration (a command's
`--llm-url`, `serve --llm-url`, `mcp --llm-url`), the same threat model as the reranker — text in a paper
or a web request cannot send the library anywhere.  Only the question and the evidence quotes are sent.
The key comes from the environment (`PAPERSHELF_LLM_KEY`, else `OPENAI_API_KEY`).  Bounded: a connect and a
total timeout, at most `MAX_BYTES` of response read, at most `MAX_TOKENS` asked for.

A sentence citing no evidence id, or an id that is not in the evidence, is kept but marked unsupported, so
a reader sees exactly which claims the papers back.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass

import httpx

from .models.discover import AnswerSentence, Evidence, Synthesis
from .sentences import sentence_spans

MAX_BYTES = 1 << 20
MAX_TOKENS = 400
_CITE = re.compile(r"\[\s*(e\d+(?:\s*[,;]\s*e\d+)*)\s*\]", re.I)
SYSTEM = ("You answer a researcher's question using only the numbered evidence quoted from their papers. "
          "Write at most four short sentences. End every sentence with the ids of the evidence that supports it "
          "in square brackets, like [e1] or [e1, e3]. If the evidence does not answer the question, say so in one "
          "sentence citing nothing.")


@dataclass(frozen=True)
class LlmSettings:
    url: str
    model: str = "default"
    timeout: float = 60.0

    @property
    def endpoint(self) -> str:
        url = self.url.rstrip("/")
        return url if url.endswith("/chat/completions") else url + "/chat/completions"


def _prompt(question: str, evidence: list[Evidence]) -> str:
    lines = [f"Question: {question}", "", "Evidence:"]
    lines += [f"[{e.id}] {e.quote}" for e in evidence]
    return "\n".join(lines)


def check(text: str, ids: set[str]) -> list[AnswerSentence]:
    """The answer's sentences, each with the ids it cites and whether all of them are evidence."""
    out = []
    for a, b in sentence_spans(text):
        sentence = text[a:b]
        cites = [c.strip().lower() for m in _CITE.finditer(sentence) for c in re.split(r"[,;]", m.group(1))]
        bare = re.sub(r"(?<!\s)\s+([.!?,;:])", r"\1", _CITE.sub("", sentence)).strip()
        out.append(AnswerSentence(bare, cites, bool(cites) and set(cites) <= ids))
    return out


def synthesize(settings: LlmSettings, question: str, evidence: list[Evidence]) -> Synthesis:
    """Ask the endpoint; any failure is the synthesis' one-line `error`, never the evidence's."""
    out = Synthesis(settings.model)
    key = os.environ.get("PAPERSHELF_LLM_KEY") or os.environ.get("OPENAI_API_KEY")
    body = {"model": settings.model, "max_tokens": MAX_TOKENS, "temperature": 0,
            "messages": [{"role": "system", "content": SYSTEM},
                         {"role": "user", "content": _prompt(question, evidence)}]}
    try:
        timeout = httpx.Timeout(settings.timeout, connect=min(5.0, settings.timeout))
        with httpx.Client(timeout=timeout) as client, client.stream(
                "POST", settings.endpoint, json=body,
                headers={"Authorization": f"Bearer {key}"} if key else {}) as r:
            data, deadline = bytearray(), time.monotonic() + settings.timeout
            for chunk in r.iter_bytes():
                data += chunk
                if time.monotonic() > deadline:  # a server dripping bytes gets no more than the total time
                    raise httpx.ReadTimeout("total time exceeded")
                if len(data) > MAX_BYTES:
                    raise ValueError(f"the answer exceeded {MAX_BYTES} bytes")
            if r.status_code >= 400:
                raise ValueError(f"HTTP {r.status_code}")
        text = httpx.Response(200, content=bytes(data)).json()["choices"][0]["message"]["content"]
        if not isinstance(text, str):
            raise ValueError("no text in the answer")
    except httpx.TimeoutException:
        out.error = f"the chat endpoint did not answer within {settings.timeout:g} s"
        return out
    except (httpx.HTTPError, ValueError, KeyError, IndexError, TypeError) as e:
        out.error = f"the chat endpoint failed: {e}"
        return out
    out.sentences = check(text, {e.id for e in evidence})
    return out
