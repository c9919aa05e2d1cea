"""`Library`: the Python API that the CLI, the tests and the servers share.

    lib = Library("~/papers.db")
    lib.add(["~/Zotero/storage"])
    lib.embed()
    lib.search("IL-6 western blot", mode="hybrid")
"""

from __future__ import annotations

import functools
import json
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from . import ingest
from .embed.base import ProviderSpec, validate
from .embed.windows import cut, token_counter
from .errors import BadArgument, IngestError, NotFound, PapershelfError, VectorUnavailable
from .ingest.metadata import Meta, is_metadata_json, parse_bibtex, parse_csl_json
from .models import (
    KIND_NAMES,
    PAPER_META_FIELDS,
    AddReport,
    EmbeddingStatus,
    FileResult,
    Filters,
    LibraryStatus,
    ObjectView,
    Paper,
    PaperSummary,
    PaperView,
    SearchResponse,
    SectionView,
    Space,
    UnitView,
    VectorHit,
    VerifyReport,
)
from .search import SearchOptions, run_search
from .search.snippets import pages_of
from .store import is_url, open_store
from .units import Unit, build_units, embedding_parts, make_manifest

ENV_LIBRARY = "PAPERSHELF_LIBRARY"


def default_library_path() -> str:
    """``$PAPERSHELF_LIBRARY``, else ``library.db`` in the user's data dir (~/.local/share/papershelf)."""
    if os.environ.get(ENV_LIBRARY):
        return os.path.expanduser(os.environ[ENV_LIBRARY])
    from platformdirs import user_data_dir

    return os.path.join(user_data_dir("papershelf", appauthor=False), "library.db")


def apply_metadata(doc, meta: Meta) -> None:
    """A reference manager knows the bibliographic facts better than a parser."""
    for name in PAPER_META_FIELDS:
        setattr(doc, name, getattr(meta, name) or getattr(doc, name))
    doc.declared_id = meta.citekey or meta.zotero_key or doc.declared_id


class Library:
    """A library of papers: add, embed, search, look.  Thread-safe for concurrent searches."""

    def __init__(self, path: str | None = None, create: bool = True):
        location = path or default_library_path()
        self.path = location if is_url(location) else os.path.abspath(os.path.expanduser(location))
        self.store = open_store(self.path, create=create)
        self._query_providers: dict[str, object] = {}
        self._provider_lock = threading.Lock()
        # Runs a query's embedding beside its BM25 search; created on first search.
        self._pool: ThreadPoolExecutor | None = None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self.store.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- adding and removing papers ---------------------------------------------

    def add_file(self, path: str, retry_failed: bool = False, max_bytes: int | None = None,
                 meta: Meta | None = None) -> FileResult:
        """Add or update one file; never raises for a bad file, returns why it failed.

        `meta` (from a .bib or Zotero/CSL export naming this file) supplies the id,
        title, authors, year, venue and DOI; it is part of the source hash, so an
        edited bibliography entry updates the paper.
        """
        path = os.path.abspath(path)
        src = None
        try:
            src = ingest.load_source(path, max_bytes)
            if meta is not None:
                src.sha256 = ingest.sha256_hex(src.data, meta.to_json().encode())
            known = self.store.source_record(path)
            if known and known[1] == src.sha256:
                return FileResult(path, "unchanged", known[0])
            failure = self.store.failure(path)
            if failure and failure["source_hash"] == src.sha256 and not retry_failed:
                return FileResult(path, "failed", reason=f"{failure['reason']} (unchanged since it failed; "
                                                         "--retry-failed tries again)")
            doc = ingest.parse_source(src)
            if meta is not None:
                apply_metadata(doc, meta)
            paper_id = ingest.derive_paper_id(doc, path)
            units = build_units(doc, paper_id)
            if not units and not doc.title:
                raise IngestError("no text found")
            paper = Paper(id=paper_id, **{f: getattr(doc, f) for f in PAPER_META_FIELDS},
                          source_path=path, source_hash=src.sha256, source_format=doc.source_format,
                          source_size=len(src.data))
            paper.title = paper.title or os.path.splitext(os.path.basename(path))[0]
            existed = self.store.get_paper(paper_id) is not None
            self.store.write_paper(paper, units, make_manifest(units))
            counts = {k: sum(u.kind == k for u in units) for k in KIND_NAMES}
            return FileResult(path, "updated" if existed else "added", paper_id, units=counts)
        except IngestError as e:
            self.store.record_failure(path, src.sha256 if src else None, str(e))
            return FileResult(path, "failed", reason=str(e))

    def add(self, paths: list[str], retry_failed: bool = False, max_bytes: int | None = None,
            progress: Callable[[FileResult], None] | None = None,
            on_total: Callable[[int], None] | None = None) -> AddReport:
        """Add files and folders (recursively).  Idempotent: unchanged files are not parsed again."""
        report = AddReport()
        found = list(ingest.discover(paths))
        if on_total:
            on_total(len(found))
        # Bibliographies first: they name the files the papers come from.
        metadata: dict[str, Meta] = {}
        papers: list[tuple[str, str | None]] = []
        for path, problem in found:
            entries = None if problem else self._read_metadata(path)
            if entries is None:
                papers.append((path, problem))
                continue
            if isinstance(entries, FileResult):
                report.files.append(entries)
            else:
                metadata.update(entries)
                report.files.append(FileResult(path, "metadata", units={"entries": len(entries)}))
            if progress:
                progress(report.files[-1])
        for path, problem in papers:
            result = FileResult(path, "failed", reason=problem) if problem else \
                self.add_file(path, retry_failed, max_bytes, metadata.get(os.path.abspath(path)))
            report.files.append(result)
            if progress:
                progress(result)
        return report

    @staticmethod
    def _read_metadata(path: str):
        """Attachment map of a bibliography file, a failure, or None when the file is a paper."""
        ext = os.path.splitext(path)[1].lower()
        if ext not in (".bib", ".json"):
            return None
        try:
            src = ingest.load_source(path)
            if ext == ".bib":
                return parse_bibtex(src.data.decode("utf-8", "replace"), os.path.dirname(path))
            try:
                data = json.loads(src.data)
            except ValueError:
                return None  # the paper reader will report it
            return parse_csl_json(data, os.path.dirname(path)) if is_metadata_json(data) else None
        except (IngestError, ValueError, KeyError, TypeError) as e:
            return FileResult(path, "failed", reason=f"could not read bibliography: {e}")

    def add_document(self, paper: Paper, doc) -> list[Unit]:
        """Add a parsed document directly (benchmarks and importers that have no file)."""
        units = build_units(doc, paper.id)
        self.store.write_paper(paper, units, make_manifest(units))
        return units

    def remove(self, paper_id: str) -> None:
        if not self.store.remove_paper(paper_id):
            raise NotFound(f"no paper with id {paper_id!r}")

    # -- looking at things ---------------------------------------------------------

    def show(self, item_id: str) -> PaperView | UnitView:
        """A paper with its sections and objects, or a single unit."""
        paper = self.store.get_paper(item_id)
        if paper is None:
            unit = self.store.get_units([item_id]).get(item_id)
            if unit is None:
                raise NotFound(f"no paper or unit with id {item_id!r}")
            return UnitView(unit, self.store.get_paper(unit.paper_id))
        units = self.store.paper_units(item_id)
        sections = [SectionView(u.id, u.source, u.section_path, u.part, pages_of(u), u.token_estimate)
                    for u in units if u.kind != "object"]
        objects = [ObjectView(u.id, u.object_kind, u.object_label, u.caption_text, pages_of(u), u.section_path,
                              u.indexable, u.veto_reason, u.nearby_body_text, u.table_text)
                   for u in units if u.kind == "object"]
        return PaperView(paper, self.store.manifest(item_id), sections, objects)

    def papers(self, limit: int | None = None) -> list[PaperSummary]:
        return self.store.list_papers(limit)

    def status(self) -> LibraryStatus:
        st = self.store.stats()
        st.embedding = self.embedding_status()
        return st

    def verify(self) -> VerifyReport:
        """Does the library hold what it says?  Index consistency, and for every
        embedding space, vectors checked unit by unit against current content."""
        return VerifyReport(self.store.verify_index(), [self.store.verify_space(s) for s in self.store.spaces()])

    # -- embeddings ------------------------------------------------------------------

    def configured_spec(self) -> ProviderSpec:
        """What `embed` builds when not told otherwise: the library's last choice, else the default."""
        saved = self.store.get_setting("embed.spec")
        return ProviderSpec.from_json(saved) if saved else ProviderSpec()

    def target_space(self) -> Space | None:
        """The space `embed` builds (set by the last build), which status describes."""
        target_id = self.store.get_setting("embed.space_id")
        return self.store.get_space(int(target_id)) if target_id else None

    def embedding_status(self) -> EmbeddingStatus:
        spec = self.configured_spec()
        target, active = self.target_space(), self.store.active_space()
        holder = self.store.lock_holder()
        out = EmbeddingStatus(configured={"provider": spec.provider, "model": spec.model_name},
                              active_space=active, target_space=target, collections=None, pending_papers=0,
                              build_running=holder if holder and holder.get("alive") else None)
        space = target or active
        if space is None:
            out.pending_papers = len(self.store.manifest_paper_ids(with_indexable_units=True))
            return out
        pending = self.store.pending(space.id)
        cols = self.store.collection_status(space.id, pending)
        failures = self.store.embed_failures(space.id)
        out.collections = cols
        out.stored_total = sum(c.stored for c in cols.values())
        out.expected_total = sum(c.expected for c in cols.values())
        out.pending_papers = len(pending)
        out.pending_reasons = {r: sum(1 for _, x in pending if x == r) for r in ("new", "changed", "damaged")}
        out.failed_papers = len(failures)
        out.failures = failures[:20]
        return out

    def embed(self, spec: ProviderSpec | None = None, *, workers: int = 1, force: bool = False,
              paper_ids: list[str] | None = None, cancel: threading.Event | None = None,
              on_event=None, provider_factory=None, **kw):
        from .embed.build import build

        spec = spec or self.configured_spec()
        self.store.set_setting("embed.spec", spec.to_json())
        return build(self.store, spec, workers=workers, force=force, paper_ids=paper_ids, cancel=cancel,
                     on_event=on_event, provider_factory=provider_factory, **kw)

    def pending(self, paper_ids: list[str] | None = None) -> list[tuple[str, str]]:
        """Pending papers in the space `embed` builds (the very predicate the build uses).

        Before any build every paper with indexable units is pending ("new").
        """
        target = self.target_space()
        if target is not None:
            return self.store.pending(target.id, paper_ids)
        wanted = set(paper_ids) if paper_ids is not None else None
        return [(p, "new") for p in self.store.manifest_paper_ids(with_indexable_units=True)
                if wanted is None or p in wanted]

    def query_provider(self, space: Space):
        """The provider that embeds queries for a space (cached; created on first use)."""
        with self._provider_lock:
            if space.fingerprint not in self._query_providers:
                spec = self.configured_spec()
                same_model = (spec.provider, spec.model_name) == (space.provider, space.model)
                settings = spec.settings if same_model else ()
                options = tuple(sorted(space.options.items()))
                self._query_providers[space.fingerprint] = ProviderSpec(space.provider, space.model, options,
                                                                        settings).create()
            return self._query_providers[space.fingerprint]

    # -- search ----------------------------------------------------------------------

    def _query_vector(self, space: Space, query: str) -> np.ndarray:
        try:
            provider = self.query_provider(space)
            return validate(provider.encode([query]), 1, space.dimension)[0]
        except PapershelfError as e:
            raise VectorUnavailable(f"embedding provider unavailable ({e})") from None
        except Exception as e:  # noqa: BLE001 - a broken provider must not break search
            raise VectorUnavailable(f"embedding provider failed ({type(e).__name__}: {e})") from None

    def _vector_search(self, space: Space | None, query: str, depth: int, filters: Filters) -> list[VectorHit]:
        if space is None:
            raise VectorUnavailable("no embeddings yet: run `papershelf embed` for meaning-based search")
        return self.store.vector_search(space, self._query_vector(space, query), depth, filters)

    def _passage(self, space: Space, unit: Unit, paper: Paper, window: int) -> str | None:
        """The body text of one of a unit's windows, cut exactly as the build cut it."""
        if not space.window_tokens:
            return None
        try:
            count = token_counter(self.query_provider(space))
            _, parts = cut(*embedding_parts(unit, paper.title), space.window_tokens, count)
        except Exception:  # noqa: BLE001 - a snippet must never break search
            return None
        return parts[window] if window < len(parts) else None

    def _search_pool(self) -> ThreadPoolExecutor:
        with self._provider_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="papershelf-query")
            return self._pool

    def search(self, query: str, opts: SearchOptions | None = None, *, space_id: int | None = None,
               **kw) -> SearchResponse:
        """Search the library; vectors come from the newest complete space, or from
        `space_id` (e.g. to compare two models or window sizes on the same queries)."""
        opts = opts or SearchOptions(**kw)
        if not query or not query.strip():
            raise BadArgument("empty query: say what to search for")
        opts.validate()
        # One space per search: the vectors and the passages cut for snippets both come from it.
        if space_id is None:
            space = self.store.active_space() if opts.mode != "lexical" else None
        else:
            space = self.store.get_space(space_id)
            if space is None:
                raise NotFound(f"no embedding space {space_id}")
        resp = run_search(self.store, query, opts, self._search_pool(),
                          functools.partial(self._vector_search, space),
                          functools.partial(self._passage, space) if space else None)
        if not resp.results and self.store.count_papers() == 0:
            resp.notices.append("the library is empty: add papers with `papershelf add PATH`")
        return resp
