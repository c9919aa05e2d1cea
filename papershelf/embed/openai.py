"""Any OpenAI-compatible ``/v1/embeddings`` endpoint (OpenAI, Ollama, vLLM, TEI, LM Studio, ...).

Batches are capped, transient failures (429 honouring Retry-After, 5xx,
timeouts, refused or dropped connections) are retried with exponential
backoff, and every response is checked: one finite vector of the right
dimension per text.

An outage must cost seconds, not minutes per paper, so three things bound it:

* a circuit breaker shared by every instance talking to the same endpoint in
  this process: after `down_after` failed requests in a row the provider is
  *down* and every call raises `ProviderDown` at once (a build then stops
  taking papers) until `cooldown` seconds pass and one request may try again;
* cancellation: a build binds its cancel event (`bind_cancel`), and then each
  request runs in a daemon thread the caller stops waiting for on Ctrl-C, so a
  server that never answers cannot hold the build (or the interpreter) hostage;
* queries (`for_queries`) use a short timeout, no retries, and a small file
  that remembers a recent failure for `remember` seconds, so the next searches
  (other processes too) fall back to lexical at once instead of timing out again.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
import time

import httpx
import numpy as np

from ..errors import ProviderCancelled, ProviderDown, ProviderError
from .provider import Provider, validate

_TRANSIENT = (httpx.TimeoutException, httpx.TransportError)


_BAD_TEXTS: dict[str, set[str]] = {}  # per endpoint: texts it answers 5xx for while encoding others


def _key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class _Health:
    """Consecutive failures of one endpoint, shared by the providers (worker threads) of a process."""

    def __init__(self):
        self.lock = threading.Lock()
        self.failures = 0
        self.reason = ""
        self.tripped_at: float | None = None

    def succeeded(self) -> None:
        with self.lock:
            self.failures, self.reason, self.tripped_at = 0, "", None

    def failed(self, reason: str, down_after: int) -> bool:
        """Count one failed request; True when this makes (or keeps) the endpoint down."""
        with self.lock:
            self.failures += 1
            self.reason = reason
            if self.failures >= down_after:
                self.tripped_at = time.monotonic()
                return True
            return False

    def down_reason(self, cooldown: float) -> str | None:
        """Why the endpoint is down, while the breaker is open; None once a request may try again."""
        with self.lock:
            if self.tripped_at is None or time.monotonic() - self.tripped_at >= cooldown:
                return None
            return self.reason


_HEALTH: dict[str, _Health] = {}
_HEALTH_LOCK = threading.Lock()


def _health(base_url: str) -> _Health:
    with _HEALTH_LOCK:
        return _HEALTH.setdefault(base_url, _Health())


def reset_health() -> None:
    """Forget every endpoint's failures in this process (tests, long-lived servers after an outage)."""
    with _HEALTH_LOCK:
        _HEALTH.clear()


# -- the remembered failure, shared by processes (each `papershelf search` is one) --------------

def health_file() -> str:
    """Where recent endpoint failures are remembered: ``$PAPERSHELF_PROVIDER_HEALTH`` or a per-user temp file."""
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return os.environ.get("PAPERSHELF_PROVIDER_HEALTH") or \
        os.path.join(tempfile.gettempdir(), f"papershelf-provider-health-{uid}.json")


def _read_memory() -> dict:
    try:
        with open(health_file(), encoding="utf-8") as f:
            data = json.load(f)
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _write_memory(update) -> None:
    """Apply `update(data)` to the memory file; atomic replace, and never an error (it is only a hint)."""
    path = health_file()
    try:
        data = _read_memory()
        update(data)
        tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.replace(tmp, path)
    except OSError:
        pass


def remember_down(base_url: str, reason: str) -> None:
    _write_memory(lambda d: d.__setitem__(base_url, {"at": time.time(), "reason": reason}))


def forget_down(base_url: str) -> None:
    if base_url in _read_memory():
        _write_memory(lambda d: d.pop(base_url, None))


def recently_down(base_url: str, within: float) -> str | None:
    """The reason the endpoint failed less than `within` seconds ago, if it did."""
    entry = _read_memory().get(base_url)
    if isinstance(entry, dict) and time.time() - float(entry.get("at", 0)) < within:
        return str(entry.get("reason", "failed recently"))
    return None


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None


class OpenAIProvider(Provider):
    name = "openai"

    def __init__(self, model: str, base_url: str | None = None, api_key_env: str = "OPENAI_API_KEY",
                 batch_size: int = 64, max_retries: int = 5, timeout: float = 60.0, backoff: float = 0.5,
                 dimension: int | None = None, window_tokens: int | None = None, down_after: int = 4,
                 cooldown: float = 5.0, max_wait: float = 20.0, query_timeout: float = 0.4,
                 remember: float = 30.0, connect_timeout: float = 5.0, **_):
        self.model = model
        # API models read thousands of tokens, a whole unit: windows only when asked for.
        self.window_tokens = int(window_tokens) if window_tokens else None
        self.base_url = (base_url or os.environ.get("PAPERSHELF_OPENAI_BASE_URL")
                         or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1").rstrip("/")
        self.api_key_env = api_key_env
        self.batch_size = max(1, int(batch_size))
        self.preferred_batch = self.batch_size
        self.max_retries = int(max_retries)
        self.backoff = float(backoff)
        self.timeout = float(timeout)
        self.connect_timeout = min(float(connect_timeout), self.timeout)
        self.down_after = max(1, int(down_after))
        self.cooldown = float(cooldown)
        self.max_wait = float(max_wait)
        # Search must fall back to lexical within a second of a hung endpoint, start-up included.
        self.query_timeout = float(os.environ.get("PAPERSHELF_QUERY_TIMEOUT") or query_timeout)
        self.remember = float(remember)
        self.is_query = False
        self._dimension = int(dimension) if dimension else None
        self._cancel: threading.Event | None = None
        self._health = _health(self.base_url)
        self._bad_texts: set[str] = _BAD_TEXTS.setdefault(self.base_url, set())
        key = os.environ.get(api_key_env, "")
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self._client = httpx.Client(base_url=self.base_url, headers=headers,
                                    timeout=httpx.Timeout(self.timeout, connect=self.connect_timeout))

    # -- set-up ---------------------------------------------------------------------

    def bind_cancel(self, cancel: threading.Event) -> None:
        """Abandon requests and backoff waits once `cancel` is set (the build's Ctrl-C)."""
        self._cancel = cancel

    def for_queries(self) -> OpenAIProvider:
        """A twin for search: short timeout, no retries, and a recent failure means "down" at once."""
        twin = OpenAIProvider(self.model, self.base_url, self.api_key_env, batch_size=self.batch_size,
                              max_retries=0, timeout=self.query_timeout, backoff=self.backoff,
                              dimension=self._dimension, window_tokens=self.window_tokens, down_after=1,
                              cooldown=0.0, remember=self.remember, connect_timeout=self.query_timeout)
        twin.is_query = True
        return twin

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self._dimension = int(self._post(["dimension probe"])[0].shape[0])
        return self._dimension

    # -- requests -------------------------------------------------------------------

    def _sleep(self, seconds: float) -> None:
        if self._cancel is None:
            time.sleep(seconds)
        elif self._cancel.wait(seconds):
            raise ProviderCancelled("cancelled while waiting to retry")

    def _send(self, texts: list[str]) -> httpx.Response:
        """One POST; with a bound cancel event it runs in a daemon thread that Ctrl-C stops waiting for."""
        payload = {"model": self.model, "input": texts}
        if self._cancel is None:
            return self._client.post("/embeddings", json=payload)
        if self._cancel.is_set():
            raise ProviderCancelled("cancelled before the request was sent")
        box: dict = {}
        done = threading.Event()

        def run():
            try:
                box["response"] = self._client.post("/embeddings", json=payload)
            except BaseException as e:  # noqa: BLE001 - handed to the waiting thread
                box["error"] = e
            finally:
                done.set()

        threading.Thread(target=run, name="papershelf-http", daemon=True).start()
        while not done.wait(0.05):
            if self._cancel.is_set():
                raise ProviderCancelled("cancelled while waiting for the provider")
        if "error" in box:
            raise box["error"]
        return box["response"]

    def _parse(self, r: httpx.Response, n_texts: int) -> np.ndarray:
        try:
            data = r.json()["data"]
            data = sorted(data, key=lambda d: d.get("index", 0))
            vectors = [d["embedding"] for d in data]
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise ProviderError(f"{self.base_url} sent a malformed embeddings response ({e})") from None
        dim = self._dimension or (len(vectors[0]) if vectors and isinstance(vectors[0], list) else 0)
        return validate(vectors, n_texts, dim)

    def _attempt(self, texts: list[str]) -> tuple[np.ndarray | None, str, str, float | None]:
        """One request: (vectors, "", "", None) on success, else (None, what went wrong, detail, Retry-After)."""
        try:
            r = self._send(texts)
        except _TRANSIENT as e:
            return None, "unreachable", f": {type(e).__name__} {e}".rstrip(), None
        if r.status_code == 429 or r.status_code >= 500:
            return None, f"answered HTTP {r.status_code}", "", _retry_after(r.headers.get("retry-after"))
        if r.status_code >= 400:
            raise ProviderError(f"{self.base_url} answered HTTP {r.status_code}: {r.text[:200]}")
        return self._parse(r, len(texts)), "", "", None

    def _down(self, reason: str) -> ProviderDown:
        if self.is_query:
            remember_down(self.base_url, reason)
        return ProviderDown(f"{self.base_url} is down: {reason}")

    def _post(self, texts: list[str]) -> np.ndarray:
        if self.is_query:
            reason = recently_down(self.base_url, self.remember)
            if reason:
                raise ProviderDown(f"{self.base_url} failed moments ago ({reason})")
        attempt, isolated = 0, False
        while True:
            attempt += 1
            reason = self._health.down_reason(self.cooldown)
            if reason is not None:
                raise ProviderDown(f"{self.base_url} is down: {reason} on {self.down_after} requests in a row")
            vectors, problem, detail, retry_after = self._attempt(texts)
            if problem.startswith("answered HTTP 5") and not self.is_query and not isolated:
                isolated = True  # once per request: in an outage its retries cost no more than before
                vectors = self._isolate(texts, problem)  # the texts' fault, or an outage after all
            if vectors is not None:
                self._health.succeeded()
                if self.is_query:
                    forget_down(self.base_url)
                return vectors
            if self._health.failed(problem, self.down_after):
                in_a_row = f" on {self.down_after} requests in a row" if self.down_after > 1 else ""
                raise self._down(f"{problem}{detail}{in_a_row}")
            if attempt > self.max_retries:
                if self.is_query:
                    remember_down(self.base_url, problem)
                raise ProviderError(f"{self.base_url} {problem} after {attempt} attempts{detail}")
            wait = self.backoff * 2 ** (attempt - 1)
            if retry_after is not None:
                wait = max(wait, retry_after)
            self._sleep(min(wait, self.max_wait))

    def _isolate(self, texts: list[str], problem: str) -> np.ndarray | None:
        """A 5xx may be an outage, or a server that fails on some texts only (every time).  Before
        it counts toward "down", the texts are sent again in two halves; if the endpoint encodes
        one of them it is up (the failing half's texts are then tried one by one to remember which
        fail), and the request fails as those texts' own
        (ProviderError: the build's batch isolation then fails only their paper).  All halves
        failing is an outage after all (None: counted and retried as before).  A text once found
        failing alone while others encode fails at once from then on."""
        if all(_key(t) in self._bad_texts for t in texts):
            raise ProviderError(f"{self.base_url} {problem} for this text every time while it encodes others: "
                                "the text, not an outage")
        if len(texts) == 1:
            return None
        mid = len(texts) // 2
        parts: list[np.ndarray] = []
        failed: list[str] = []
        for half in (texts[:mid], texts[mid:]):
            got = self._quiet(half)
            if got is None:
                failed += half
            else:
                parts.append(got)
        if not failed:
            return np.vstack(parts)
        if len(failed) == len(texts):
            return None
        self._bad_texts.update(_key(t) for t in failed if len(failed) == 1 or self._quiet([t]) is None)
        raise ProviderError(f"{self.base_url} {problem} for {len(failed)} of these {len(texts)} texts while it "
                            "encoded the others: those texts, not an outage")

    def _quiet(self, texts: list[str]) -> np.ndarray | None:
        """One uncounted, unretried request (while isolating); None when it fails with a 5xx."""
        vectors, _, _, _ = self._attempt(texts)
        if vectors is not None:
            self._health.succeeded()
        return vectors

    def encode(self, texts: list[str]) -> np.ndarray:
        parts = [self._post(texts[i:i + self.batch_size]) for i in range(0, len(texts), self.batch_size)]
        return np.vstack(parts) if parts else np.zeros((0, self.dimension), np.float32)
