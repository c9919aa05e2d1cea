"""`Library`: the Python API that the CLI, the tests and the servers share.

    lib = Library("~/papers.db")
    lib.add(["~/Zotero/storage"])
    lib.embed()
    lib.search("IL-6 western blot", mode="hybrid")

A thin facade: adding papers is `importer.py`, looking things up `lookup.py`, the embedding
configuration `embed/config.py`, query embedding `embed/queries.py`, search `search/`.  Front ends
use only this module (this class and the names in `__all__`), never its store.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from . import lookup, resolve
from .embed import config
from .embed.base import DEFAULT_MODELS, Provider, ProviderSpec
from .embed.config import quantize_options
from .embed.queries import QueryEmbedder
from .errors import BadArgument, NotFound, VectorUnavailable
from .models import (
    AddReport,
    EmbeddingStatus,
    FileResult,
    Filters,
    LibraryStatus,
    Neighbour,
    Paper,
    PaperSource,
    PaperSummary,
    PaperView,
    Passage,
    PendingReason,
    Query,
    SearchResponse,
    Space,
    UnitView,
    VerifyReport,
)
from .paper_vectors import PaperVectors, query_vector
from .search import SearchOptions, run_search
from .store import is_url, open_store
from .store.name_fold import fold_text

if TYPE_CHECKING:  # loaded when first used: a search needs none of them (tests/test_cold_imports.py)
    from . import ask as asking
    from . import citations
    from . import related as relatedness
    from .graph import GraphCache
    from .importer import Importer
    from .index_eta import IndexEta
    from .ingest.metadata import Meta
    from .ingest.pdf.scan.ocr import OcrSettings
    from .llm import LlmSettings
    from .units import Unit

ENV_LIBRARY = "PAPERSHELF_LIBRARY"
# What front ends need of the layers below besides Library itself, named here so that they import
# only this module, the operations and the models (tests/test_layers.py).  OCR_MODES and OcrSettings
# come from the module's __getattr__ (the PDF reader, loaded only when a command adds).
__all__ = [  # noqa: F822
    "DEFAULT_MODELS", "OCR_MODES", "Library", "OcrSettings", "ProviderSpec", "default_library_path", "is_url",
    "migrate_library", "quantize_options"]


def __getattr__(name: str):
    """`OCR_MODES` and `OcrSettings`, re-exported for front ends, loaded only when asked: the OCR
    module pulls in the PDF reader, which a search never needs."""
    if name in ("OCR_MODES", "OcrSettings"):
        from .ingest.pdf.scan import ocr

        return ocr.MODES if name == "OCR_MODES" else ocr.OcrSettings
    raise AttributeError(name)


def migrate_library(source: str, destination: str):
    """Copy a library to another backend with its vectors (store/migrate.py): its report."""
    from .store.migrate import migrate

    return migrate(source, destination)


def default_library_path() -> str:
    """``$PAPERSHELF_LIBRARY``, else ``library.db`` in the user's data dir (~/.local/share/papershelf)."""
    if os.environ.get(ENV_LIBRARY):
        return os.path.expanduser(os.environ[ENV_LIBRARY])
    from platformdirs import user_data_dir

    return os.path.join(user_data_dir("papershelf", appauthor=False), "library.db")


class Library:
    """A library of papers: add, embed, search, look.  Thread-safe for concurrent searches."""

    def __init__(self, path: str | None = None, create: bool = True):
        location = path or default_library_path()
        self.path = location if is_url(location) else os.path.abspath(os.path.expanduser(location))
        self.store = open_store(self.path, create=create)
        self._queries = QueryEmbedder(self.store)
        self._paper_vectors = PaperVectors(self.store)  # derived too, redone per paper when its vectors change
        self._pool_lock = threading.Lock()
        # Runs a query's embedding beside its BM25 search; created on first search.
        self._pool: ThreadPoolExecutor | None = None

    @functools.cached_property
    def _importer(self) -> Importer:
        """Adding papers (the ingest pipeline: PDF, OCR, Markdown), loaded on first add."""
        from .importer import Importer

        return Importer(self.store)

    @functools.cached_property
    def _graph(self) -> GraphCache:
        """The citation graph, derived and rebuilt when papers change; loaded on first use."""
        from .graph import GraphCache

        return GraphCache(self.store)

    def close(self) -> None:
        # A search still running in the pool reads the store: wait for it before the store closes
        # (closing under a running query crashed the SQLite driver).
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        self.store.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- adding and removing papers (ingest/importer.py) --------------------------

    def add(self, paths: list[str], retry_failed: bool = False, max_bytes: int | None = None,
            progress: Callable[[FileResult], None] | None = None,
            on_found: Callable[[list[tuple[str, str | None]]], None] | None = None, ocr: OcrSettings | None = None,
            reread: bool = False) -> AddReport:
        """Add files and folders (recursively).  Idempotent: unchanged files are not parsed again
        (`reread`: parse them anyway, for what a newer reader finds in them).
        `ocr`: when PDF pages are read by OCR (default: pages without a text layer; ingest/ocr.py)."""
        from .ingest.pdf.scan.ocr import OcrSettings
        from .ingest.pdf.scan.ocr import settings as ocr_settings

        with ocr_settings(ocr or OcrSettings()):
            return self._importer.add(paths, retry_failed, max_bytes, progress, on_found, reread)

    def index_eta(self, files: list[tuple[str, str | None]], spec: ProviderSpec | None = None) -> IndexEta:
        """A whole `index`'s time left, planned from the pages of the files an `add` found (its
        `on_found`), before they are read, and the spec's last build's rate here (index_eta.py)."""
        from .index_eta import planned, recall

        return planned(files, recall(self.store, (spec or self.configured_spec()).to_json()))

    def remember_encoder_rate(self, spec: ProviderSpec, rate: float | None, per_typed: float | None) -> None:
        """Keep a build's encoder rate (windows a second) for the next `index`'s time left."""
        from .index_eta import remember

        remember(self.store, spec.to_json(), rate, per_typed)

    def trial_encode(self, spec: ProviderSpec, paper_id: str) -> tuple[Provider, tuple[float, float] | None]:
        """`index`'s trial encode (embed/trial.py): the spec's provider, made now, and its rate on the
        paper's first windows as (windows per second, seconds), None without windows."""
        from .embed.build import space_options
        from .embed.trial import trial_rate, trial_windows

        provider = spec.create()
        fmt = int(space_options(self.store, spec, provider).get("window_format", 1))
        texts = trial_windows(self.store, paper_id, provider.window_tokens, provider, window_format=fmt)
        return provider, trial_rate(texts, provider)

    def prepare_search(self) -> bool:
        """Build the derived files a fast search reads (a large SQLite library's postings file) when
        they are missing or stale; True when something was built.  A long-running process gets them
        in the background after its first search; a one-shot CLI search never lived long enough, so
        `add` and `index` call this at their end."""
        return self.store.prepare_search()

    def add_file(self, path: str, retry_failed: bool = False, max_bytes: int | None = None,
                 meta: Meta | None = None, keep_id: str | None = None, force: bool = False) -> FileResult:
        """Add or update one file; never raises for a bad file, returns why it failed."""
        return self._importer.add_file(path, retry_failed, max_bytes, meta, keep_id, force)

    def add_document(self, paper: Paper, doc) -> list[Unit]:
        """Add a parsed document directly (benchmarks and importers that have no file)."""
        return self._importer.add_document(paper, doc)

    def remove_source(self, path: str) -> tuple[str, bool]:
        """Remove one file from the library: (its paper's id, whether the paper remains with its
        other sources).  The paper goes only with its last source."""
        return self._importer.remove_source(path)

    def remove(self, paper_id: str) -> str:
        """Remove a paper named by id, unique id prefix, citekey or DOI, with all its sources; returns
        its id.  (One file of a paper: `remove_source`.)"""
        paper_id = self.resolve_paper(paper_id)
        if not self.store.remove_paper(paper_id):
            raise NotFound(f"no paper with id {paper_id!r}")
        return paper_id

    def is_source(self, path: str) -> bool:
        """Is this file (absolute path) a source of some paper?"""
        return self.store.source_record(path) is not None

    def sources(self, paper_id: str | None = None) -> list[PaperSource]:
        """The source files of one paper, or of every paper."""
        return self.store.sources(paper_id)

    # -- looking at things (lookup.py) ---------------------------------------------

    def resolve_paper(self, ref: str) -> str:
        """The id of the paper `ref` names: id, unique prefix, citekey, DOI or Zotero key (resolve.py)."""
        return resolve.resolve_paper(self.store, ref)

    def show(self, item_id: str) -> PaperView | UnitView:
        """A paper with its sections and objects, or a single unit."""
        return lookup.show(self.store, item_id)

    def neighbours(self, unit_id: str) -> list[Neighbour]:
        """The text units of a unit's section in reading order, the unit itself marked."""
        return lookup.neighbours(self.store, unit_id)

    def references(self, paper_id: str) -> citations.ReferenceList:
        """The paper's reference list, each entry with the library paper it names (citations.py)."""
        from . import citations

        return citations.references(self.store, self.resolve_paper(paper_id))

    def citing(self, paper_id: str) -> citations.Citing:
        """The library papers citing this one: whose reference lists name it (citations.py)."""
        from . import citations

        return citations.citing(self.store, self.resolve_paper(paper_id))

    def cited_by(self, paper_id: str) -> citations.Citing:
        """The old name of `citing`."""
        return self.citing(paper_id)

    def related(self, ref: str, *, limit: int = 10, filters: Filters | None = None,
                text: bool = False) -> relatedness.RelatedResponse:
        """Library papers related to a paper or a unit (any form resolve.py takes), or to words (`text`):
        meaning and citations fused, each hit saying why (related.py)."""
        from . import related as relatedness

        if not ref or not ref.strip():
            raise BadArgument("related: name a paper, a unit or some words")
        if not 1 <= limit <= 1000:
            raise BadArgument("limit: between 1 and 1000")
        query = Query(text=ref.strip()) if text else self._named(ref)

        def by_meaning(q: Query, f: Filters, depth: int) -> list:
            return self.search(q, SearchOptions(mode="vector", limit=depth, per_paper=1, filters=f,
                                                objects_per_paper=1, snippets=False)).results

        return relatedness.related_to(self.store, self._graph.get(), self._paper_vectors, self.store.active_space(),
                                      query, limit, filters or Filters(), by_meaning)

    def reading_list(self, *, limit: int = 20, papers: list[str] | None = None,
                     filters: Filters | None = None) -> relatedness.ReadingList:
        """Works the library's papers cite that it does not hold, most cited first; only those cited by
        `papers` (any form) or by the papers passing `filters` when given (related.py)."""
        from . import related as relatedness

        if not 1 <= limit <= 10_000:
            raise BadArgument("limit: between 1 and 10000")
        scope: set[str] | None = {self.resolve_paper(p) for p in papers} if papers else None
        if filters is not None and relatedness.filtered(filters):
            passing = set(self.store.filtered_paper_ids(filters))
            scope = passing if scope is None else scope & passing
        return relatedness.reading_list(self.store, self._graph.get(), scope, limit)

    def ask(self, question: str, *, limit: int = 5, filters: Filters | None = None,
            llm: LlmSettings | None = None) -> asking.AskResponse:
        """The library's sentences that answer `question`, quoted verbatim with paper, section and page
        (ask.py); with `llm` (the user's configured chat endpoint) also a short answer whose every
        sentence is checked against the evidence ids it cites (llm.py)."""
        from . import ask as asking
        from .llm import synthesize
        from .search.snippets import zotero_link

        if not question or not question.strip():
            raise BadArgument("ask: say what you want to know")
        if not 1 <= limit <= 8:
            raise BadArgument("limit: between 1 and 8")
        space = self.store.active_space()
        question = question.strip()[:2000]
        opts = SearchOptions(mode="hybrid" if space else "lexical", limit=asking.PASSAGES, per_paper=asking.PER_PAPER,
                             filters=filters or Filters(), snippets=False)  # ask quotes sentences, not snippets
        # The question is encoded once: the search ranks by that vector and the sentences are scored against it.
        vector = self._question_vector(space, question)
        query = Query.encoded(question, vector) if vector is not None else Query.of(question)
        hits = self.search(query, opts).results
        units = self.store.get_units([h.unit_id for h in hits])
        passages = [(units[h.unit_id], h.relevance if h.relevance is not None else 1 / (1 + h.rank))
                    for h in hits if h.unit_id in units]
        if passages and not (opts.filters.sources or opts.filters.object_kind):  # filters on units: theirs only
            passages += asking.neighbours_of_best(passages, self.store.paper_units(passages[0][0].paper_id))
        papers = self.store.get_papers(sorted({u.paper_id for u, _ in passages}))

        def pdf_path(paper_id: str) -> str | None:
            p = papers.get(paper_id)
            return p.source_path if p and p.source_format == "pdf" else None

        def link(paper_id: str, page: int | None) -> str | None:
            return f"/papers/{paper_id}/pdf" + (f"#page={page}" if page else "") if pdf_path(paper_id) else None

        encode = asking.Encoder(space.fingerprint, self.query_provider(space).encode, vector) \
            if space and vector is not None else None
        resp = asking.evidence_for(question, passages, papers, encode, limit, pdf_path, link)
        for e in resp.evidence:
            if (p := papers.get(e.paper_id)) and p.zotero_attachment:
                e.zotero_link = zotero_link(p.zotero_attachment, str(e.page) if e.page else None)
        if llm is not None and resp.evidence:
            resp.answer = synthesize(llm, resp.question, resp.evidence)
        return resp

    def _question_vector(self, space: Space | None, question: str):
        """The question in the space's meaning (None without a space, or when its provider fails: ask then
        scores sentences by their words and the search says why it has no vector list)."""
        try:
            return self._queries.vector(space, question) if space else None
        except VectorUnavailable:
            return None

    def paper(self, paper_id: str) -> Paper:
        """One paper's record, named in any form resolve.py takes (servers use its source_path to
        serve the PDF itself)."""
        paper = self.store.get_paper(self.resolve_paper(paper_id))
        if paper is None:
            raise NotFound(f"no paper with id {paper_id!r}")
        return paper

    def source_pdf(self, paper_id: str) -> tuple[str, bytes]:
        """(path, bytes) of the paper's PDF, only while it is still the file indexed (recorded_files.py)."""
        from .recorded_files import recorded_pdf

        return recorded_pdf(self.store, self.paper(paper_id))

    def passage(self, paper_id: str, section: str | None = None, pages: tuple[int, int] | None = None,
                budget_chars: int = 8000, cursor: str | None = None) -> Passage:
        """A paper's text by section (and its subsections) or page range, at most
        `budget_chars` at a time; `next_cursor` continues where this stretch ends."""
        from .passages import read_passage

        paper = self.paper(paper_id)
        return read_passage(paper, self.store.paper_units(paper.id), section, pages, budget_chars, cursor)

    def papers(self, limit: int | None = None) -> list[PaperSummary]:
        return self.store.list_papers(limit)

    def find_papers(self, filters: Filters | None = None, title: str | None = None,
                    limit: int | None = None) -> tuple[list[PaperSummary], int]:
        """The papers passing `filters` (author, years, tags, collections: the filters search uses)
        whose title holds `title`, at most `limit`, and how many pass in all."""
        filters = filters or Filters()
        filters.validate()
        wanted = fold_text(title) if title else None
        matched = [s for s in self.store.list_papers(None, filters)
                   if wanted is None or wanted in fold_text(s.paper.title)]
        return matched[:limit] if limit is not None else matched, len(matched)

    def status(self) -> LibraryStatus:
        st = self.store.stats()
        st.embedding = self.embedding_status()
        return st

    def verify(self) -> VerifyReport:
        """Does the library hold what it says?  Index consistency, and for every
        embedding space, vectors checked unit by unit against current content."""
        index = self.store.verify_index()
        if any(p.startswith("database:") for p in index.problems):  # a damaged file: that is the report
            return VerifyReport(index, [])
        if partial := self.store.get_setting("migrate.partial"):  # store/migrate.py: a copy cut short
            index.ok = False
            index.problems.insert(0, f"a migration from {partial} did not finish: run it again to copy everything")
        return VerifyReport(index, [self.store.verify_space(s) for s in self.store.spaces()])

    # -- embeddings (embed/) ----------------------------------------------------------

    def configured_spec(self) -> ProviderSpec:
        """What `embed` builds when not told otherwise: the library's last choice, else the default."""
        return config.configured_spec(self.store)

    def target_space(self) -> Space | None:
        """The space `embed` builds (set by the last build), which status describes."""
        return config.target_space(self.store)

    def embedding_status(self) -> EmbeddingStatus:
        return config.embedding_status(self.store)

    def quantize_notice(self, spec: ProviderSpec) -> str | None:
        """A note when PAPERSHELF_QUANTIZE asks for other weights than this library's space uses (it keeps
        its space; only `embed --quantize` switches)."""
        from .embed.config import quantize_notice

        return quantize_notice(self.store, spec)

    def embed(self, spec: ProviderSpec | None = None, *, workers: int = 1, force: bool = False,
              paper_ids: list[str] | None = None, cancel: threading.Event | None = None,
              on_event=None, provider_factory=None, **kw):
        from .embed.build import build

        spec = spec or self.configured_spec()
        config.remember_spec(self.store, spec)
        return build(self.store, spec, workers=workers, force=force, paper_ids=paper_ids, cancel=cancel,
                     on_event=on_event, provider_factory=provider_factory, **kw)

    def pending(self, paper_ids: list[str] | None = None) -> list[tuple[str, PendingReason]]:
        """Pending papers in the space `embed` builds (the very predicate the build uses)."""
        return config.pending(self.store, paper_ids)

    def query_provider(self, space: Space) -> Provider:
        """The provider that embeds queries for a space (cached; created on first use)."""
        return self._queries.provider(space)

    # -- search ----------------------------------------------------------------------

    def _query(self, query: str | Query) -> Query:
        """A query checked: words not empty, a paper or a unit named by any form resolve.py takes (in each
        part of a query of several)."""
        q = Query.of(query or "")
        if q.kind == "several":
            return Query.together([self._query(p) for p in q.parts])
        if q.kind == "text" and not q.text.strip():
            raise BadArgument("empty query: say what to search for")
        return self._named(q.text) if q.kind in ("paper", "unit") else q

    def _named(self, ref: str) -> Query:
        """The paper or the unit `ref` names, in any form resolve.py takes, as a query."""
        what, ident = resolve.resolve_item(self.store, ref)
        return Query.paper(ident) if what == "paper" else Query.unit(ident)

    def _vector_hits(self, space: Space | None, query: Query, depth: int, filters: Filters) -> list:
        """Units by meaning for a query: its vector (paper_vectors.query_vector) searched in the space."""
        if space is None:
            raise VectorUnavailable("no embeddings yet: run `papershelf embed` for meaning-based search")
        vector = query_vector(self.store, self._paper_vectors, space, query, self._queries.vector)
        return self.store.vector_search(space, vector, depth, filters)

    def _search_pool(self) -> ThreadPoolExecutor:
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="papershelf-query")
            return self._pool

    def search(self, query: str | Query, opts: SearchOptions | None = None, *, space_id: int | None = None,
               **kw) -> SearchResponse:
        """Search the library for words or a `Query` (a paper or unit in any form resolve.py takes, or a
        vector: more like it, by meaning); vectors come from the newest complete space, or from
        `space_id` (e.g. to compare two models or window sizes on the same queries)."""
        opts = (opts or SearchOptions(**kw)).validate()
        query = self._query(query)
        if opts.filters.papers:  # ids, prefixes, citekeys or DOIs -> ids (the caller's options untouched)
            papers = [self.resolve_paper(p) for p in opts.filters.papers]
            opts = dataclasses.replace(opts, filters=dataclasses.replace(opts.filters, papers=papers))
        if opts.filters.citing or opts.filters.references_of:  # the citation graph -> the papers searched
            from . import citations

            f = opts.filters
            scope = citations.citation_scope(self.store, f.citing and self.resolve_paper(f.citing),
                                             f.references_of and self.resolve_paper(f.references_of))
            opts = dataclasses.replace(opts, filters=dataclasses.replace(f, citation_scope=scope))
        # author, collections, tags -> the papers they name, decided once for every list this search reads
        opts = dataclasses.replace(opts, filters=self.store.resolve_filters(opts.filters))
        # One space per search: the vectors and the passages cut for snippets both come from it.
        if space_id is None:
            space = self.store.active_space() if opts.mode != "lexical" else None
        else:
            space = self.store.get_space(space_id)
            if space is None:
                raise NotFound(f"no embedding space {space_id}")
        resp = run_search(self.store, query, opts, self._search_pool(), functools.partial(self._vector_hits, space),
                          functools.partial(self._queries.passage, space) if space else None,
                          model=space.model if space else None)
        if not resp.results and self.store.count_papers() == 0:
            resp.notices.append("the library is empty: add papers with `papershelf add PATH`")
        return resp
