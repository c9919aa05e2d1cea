"""`Library`: the Python API that the CLI, the tests and the servers share.

    lib = Library("~/papers.db")
    lib.add(["~/Zotero/storage"])
    lib.embed()
    lib.search("IL-6 western blot", mode="hybrid")
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from . import ingest, resolve, works
from .embed.base import ProviderSpec, validate
from .embed.windows import cut, token_counter
from .errors import BadArgument, IngestError, NotFound, PapershelfError, VectorUnavailable
from .ingest.metadata import Meta, is_metadata_json, normalized_title, parse_bibtex, parse_csl_json, zotero_blocks
from .ingest.zotero import Attachment, is_zotero_dir, read_zotero
from .models import (
    KIND_NAMES,
    PAPER_META_FIELDS,
    AddReport,
    EmbeddingStatus,
    FileResult,
    Filters,
    LibraryStatus,
    Neighbour,
    ObjectView,
    Paper,
    PaperSource,
    PaperSummary,
    PaperView,
    Passage,
    SearchResponse,
    SectionView,
    Space,
    UnitView,
    VectorHit,
    VerifyReport,
)
from .passages import read_passage
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
                 meta: Meta | None = None, keep_id: str | None = None, force: bool = False) -> FileResult:
        """Add or update one file; never raises for a bad file, returns why it failed.

        `meta` (from a .bib or Zotero/CSL export naming this file) supplies the id,
        title, authors, year, venue and DOI; it is part of the source hash, so an
        edited bibliography entry updates the paper.  Metadata once applied is
        remembered: the file added again alone keeps it, and keeps its id.
        `keep_id`: the paper keeps this id whatever the metadata declares (and the file
        joins no other work).  `force`: parse even an unchanged file.
        A file of a work already in the library becomes another source of that paper (works.py).
        """
        path = os.path.abspath(path)
        src = None
        if meta is None and (remembered := self.store.remembered_metadata(path)):
            saved = json.loads(remembered)
            meta, keep_id = Meta(**saved["meta"]), keep_id or saved["paper_id"]
        try:
            src = ingest.load_source(path, max_bytes)
            if meta is not None:
                src.sha256 = ingest.sha256_hex(src.data, meta.to_json().encode())
            known = self.store.source_record(path)
            if known and known[1] == src.sha256 and not force:
                return FileResult(path, "unchanged", known[0])
            failure = self.store.failure(path)
            if failure and failure["source_hash"] == src.sha256 and not retry_failed:
                return FileResult(path, "failed", reason=f"{failure['reason']} (unchanged since it failed; "
                                                         "--retry-failed tries again)")
            doc = ingest.parse_source(src)
            if meta is not None:
                apply_metadata(doc, meta)
                doc.blocks += zotero_blocks(meta)
            if keep_id:
                doc.declared_id = keep_id
            source = works.source_of(doc, path, src.sha256, len(src.data))
            source.paper_id = ingest.derive_paper_id(doc, path)
            if not keep_id and (not doc.declared_id or doc.declared_id == doc.doi):  # a name given is the paper
                source.paper_id = self._same_work(source, known[0] if known else None) or source.paper_id
            if known and known[0] != source.paper_id:
                self._detach(path)  # the file became another work: its old paper re-picks or goes
            return self._write_source(doc, source, meta, known is not None and known[0] == source.paper_id)
        except IngestError as e:
            self.store.record_failure(path, src.sha256 if src else None, str(e))
            return FileResult(path, "failed", reason=str(e))

    def _same_work(self, source: PaperSource, known: str | None) -> str | None:
        """The paper this file is another source of: the id it declares, else DOI / arXiv id / title key,
        else the paper it already is the only source of (`known`), so a changed file keeps its id.
        Zotero papers are left alone (Zotero decides which item a PDF belongs to)."""
        if self.store.get_paper(source.paper_id) is not None:
            return source.paper_id
        found = [s for s in self.store.find_sources(source.doi, source.arxiv_id, source.title_key)
                 if s.path != source.path]
        zotero = {p.id for p in self.store.get_papers([s.paper_id for s in found]).values() if p.zotero_attachment}
        match = works.matching_paper(source, [s for s in found if s.paper_id not in zotero])
        if match is None and known and not [s for s in self.store.sources(known) if s.path != source.path]:
            return known
        return match

    def _write_source(self, doc, source: PaperSource, meta: Meta | None, was_source: bool) -> FileResult:
        """Record the file as a source of its paper; when it is the paper's best source, its units
        and metadata become the paper's (one transaction), which makes the paper pending for `embed`."""
        path, paper_id = source.path, source.paper_id
        current = self.store.get_paper(paper_id)
        others = [s for s in self.store.sources(paper_id) if s.path != path] if current else []
        provider = current.source_path if current else None
        chosen = works.best([source, *others], provider)  # on a tie with a non-provider, the file at hand
        status = "updated" if was_source else "added"
        if chosen is not source:
            self.store.save_source(source)
            if provider == path:  # it was the best and no longer is: the best one takes over
                self._repick(paper_id)
            return FileResult(path, status, paper_id, joined=not was_source)
        units = build_units(doc, paper_id)
        if not units and not doc.title:
            raise IngestError("no text found")
        paper = Paper(id=paper_id, **{f: getattr(doc, f) for f in PAPER_META_FIELDS},
                      source_path=path, source_hash=source.hash, source_format=doc.source_format,
                      source_size=source.size)
        paper.title = paper.title or os.path.splitext(os.path.basename(path))[0]
        paper.doi = paper.doi or next((s.doi for s in others if s.doi), None)
        paper.year = paper.year or next((s.year for s in others if s.year), None)
        if meta is not None:
            paper.tags, paper.collections = meta.tags, meta.collections
            paper.zotero_attachment = meta.attachment_key
        self.store.write_paper(paper, units, make_manifest(units))
        self.store.save_source(source)
        if meta is not None:
            self.store.remember_metadata(path, json.dumps({"meta": meta.__dict__, "paper_id": paper_id}))
        counts = {k: sum(u.kind == k for u in units) for k in KIND_NAMES}
        return FileResult(path, status, paper_id, units=counts, joined=current is not None and not was_source)

    def _repick(self, paper_id: str) -> bool:
        """Give the paper's units to its best remaining source; a source that cannot be read any
        more is forgotten.  With no source left the paper is removed.  True when the paper remains."""
        for source in self.store.sources(paper_id):
            result = self.add_file(source.path, keep_id=paper_id, force=True)
            if result.status != "failed":
                return True
            self.store.drop_source(source.path)
        self.store.remove_paper(paper_id)
        return False

    def _detach(self, path: str) -> tuple[str, bool] | None:
        """Forget `path` as a source; its paper re-picks its best source if `path` was it.
        Returns (paper id, whether the paper remains), or None when `path` was no source."""
        source = self.store.drop_source(path)
        if source is None:
            return None
        paper = self.store.get_paper(source.paper_id)
        if paper is None:
            return source.paper_id, False
        if paper.source_path != path:
            return source.paper_id, True
        return source.paper_id, self._repick(source.paper_id)

    def remove_source(self, path: str) -> tuple[str, bool]:
        """Remove one file from the library: (its paper's id, whether the paper remains with its
        other sources).  The paper goes only with its last source."""
        detached = self._detach(os.path.abspath(os.path.expanduser(path)))
        if detached is None:
            raise NotFound(f"{path} is not a source of any paper")
        return detached

    def add(self, paths: list[str], retry_failed: bool = False, max_bytes: int | None = None,
            progress: Callable[[FileResult], None] | None = None,
            on_total: Callable[[int], None] | None = None) -> AddReport:
        """Add files and folders (recursively).  Idempotent: unchanged files are not parsed again."""
        report = AddReport()
        zotero_dirs = [p for p in paths if is_zotero_dir(os.path.expanduser(p))]
        paths = [p for p in paths if p not in zotero_dirs]
        attachments = [a for d in zotero_dirs for a in read_zotero(d)]
        found = list(ingest.discover(paths)) if paths else []
        if on_total:
            on_total(len(found))
        # Bibliographies first: they name the files the papers come from.
        metadata: dict[str, Meta] = {}
        all_entries: list[Meta] = []
        papers: list[tuple[str, str | None]] = []
        for path, problem in found:
            entries = None if problem else self._read_metadata(path, all_entries)
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
        for a in attachments:
            report.files.append(self._add_attachment(a, retry_failed, max_bytes))
            if progress:
                progress(report.files[-1])
        done = {os.path.abspath(p) for p, _ in papers} | {a.path for a in attachments}
        for paper_id, path, meta in self._bibliography_matches(metadata, all_entries, done):
            report.files.append(self.add_file(path, retry_failed, max_bytes, meta, keep_id=paper_id))
            if progress:
                progress(report.files[-1])
        return report

    def _bibliography_matches(self, by_path: dict[str, Meta], entries: list[Meta],
                              skip: set[str]) -> list[tuple[str, str, Meta]]:
        """Papers added before that a bibliography in this `add` describes: (id, file, entry).

        Matched by the file an entry names, else its DOI, else its normalized title (only when that
        title names one paper and has at least three words).  Zotero papers keep Zotero's metadata."""
        papers = [s.paper for s in self.store.list_papers()
                  if s.paper.source_path and s.paper.source_path not in skip and not s.paper.zotero_attachment]
        dois = {p.doi.lower(): p for p in papers if p.doi}
        titles: dict[str, list[Paper]] = {}
        for p in papers:
            titles.setdefault(normalized_title(p.title), []).append(p)
        out: list[tuple[str, str, Meta]] = []
        seen: set[str] = set()

        def take(paper: Paper | None, meta: Meta) -> None:
            if paper is not None and paper.id not in seen and paper.source_path:
                seen.add(paper.id)
                out.append((paper.id, paper.source_path, meta))

        for p in papers:
            if p.source_path in by_path:
                take(p, by_path[p.source_path])
        for meta in entries:
            title = normalized_title(meta.title)
            same_title = titles.get(title, []) if len(title.split()) >= 3 else []
            take(dois.get((meta.doi or "").lower()) or (same_title[0] if len(same_title) == 1 else None), meta)
        return out

    def _add_attachment(self, a: Attachment, retry_failed: bool, max_bytes: int | None) -> FileResult:
        """One PDF of a Zotero library, with its item's metadata, labels, notes and annotations."""
        if not a.exists:
            return FileResult(a.path, "failed", reason=f"file missing from Zotero storage (attachment {a.key} of "
                                                       f"{a.meta.title or a.meta.zotero_key!r})")
        meta = Meta(**{**a.meta.__dict__, "collections": a.collections, "tags": a.tags, "notes": a.notes,
                       "annotations": [ann.__dict__ for ann in a.annotations], "attachment_key": a.key})
        return self.add_file(a.path, retry_failed, max_bytes, meta)

    @staticmethod
    def _read_metadata(path: str, entries: list[Meta] | None = None):
        """Attachment map of a bibliography file, a failure, or None when the file is a paper.
        Every entry, with or without attachments, is appended to `entries`."""
        ext = os.path.splitext(path)[1].lower()
        if ext not in (".bib", ".json"):
            return None
        try:
            src = ingest.load_source(path)
            if ext == ".bib":
                return parse_bibtex(src.data.decode("utf-8", "replace"), os.path.dirname(path), entries)
            try:
                data = json.loads(src.data)
            except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
                return None  # the paper reader will report it
            return parse_csl_json(data, os.path.dirname(path), entries) if is_metadata_json(data) else None
        except (IngestError, ValueError, KeyError, TypeError) as e:
            return FileResult(path, "failed", reason=f"could not read bibliography: {e}")

    def add_document(self, paper: Paper, doc) -> list[Unit]:
        """Add a parsed document directly (benchmarks and importers that have no file)."""
        units = build_units(doc, paper.id)
        self.store.write_paper(paper, units, make_manifest(units))
        return units

    def remove(self, paper_id: str) -> str:
        """Remove a paper named by id, unique id prefix, citekey or DOI, with all its sources; returns
        its id.  (One file of a paper: `remove_source`.)"""
        paper_id = self.resolve_paper(paper_id)
        if not self.store.remove_paper(paper_id):
            raise NotFound(f"no paper with id {paper_id!r}")
        return paper_id

    def resolve_paper(self, ref: str) -> str:
        """The id of the paper `ref` names: id, unique prefix, citekey, DOI or Zotero key (resolve.py)."""
        return resolve.resolve_paper(self.store, ref)

    # -- looking at things ---------------------------------------------------------

    def show(self, item_id: str) -> PaperView | UnitView:
        """A paper with its sections and objects, or a single unit."""
        what, found = resolve.resolve_item(self.store, item_id)
        if what == "unit":
            unit = self.store.get_units([found])[found]
            return UnitView(unit, self.store.get_paper(unit.paper_id))
        paper = self.store.get_paper(found)
        if paper is None:
            raise NotFound(f"no paper with id {found!r}")
        units = self.store.paper_units(paper.id)
        sections = [SectionView(u.id, u.source, u.section_path, u.part, pages_of(u), u.token_estimate)
                    for u in units if u.kind != "object"]
        objects = [ObjectView(u.id, u.object_kind, u.object_label, u.caption_text, pages_of(u), u.section_path,
                              u.indexable, u.veto_reason, u.nearby_body_text, u.table_text)
                   for u in units if u.kind == "object"]
        sources = sorted(self.store.sources(paper.id), key=lambda s: not s.provides)
        return PaperView(paper, self.store.manifest(paper.id), sections, objects, sources)

    def paper(self, paper_id: str) -> Paper:
        """One paper's record, named in any form resolve.py takes (servers use its source_path to
        serve the PDF itself)."""
        paper = self.store.get_paper(self.resolve_paper(paper_id))
        if paper is None:
            raise NotFound(f"no paper with id {paper_id!r}")
        return paper

    def neighbours(self, unit_id: str) -> list[Neighbour]:
        """The text units of a unit's section in reading order (for an object, the section
        it sits in), the unit itself marked: the context a hit is read in."""
        unit_id = resolve.resolve_unit(self.store, unit_id)
        unit = self.store.get_units([unit_id])[unit_id]
        same = [u for u in self.store.paper_units(unit.paper_id)
                if u.kind != "object" and u.section_path == unit.section_path]
        return [Neighbour(u.id, u.source, u.section_path, u.part, pages_of(u), u.text, u.id == unit_id)
                for u in same]

    def passage(self, paper_id: str, section: str | None = None, pages: tuple[int, int] | None = None,
                budget_chars: int = 8000, cursor: str | None = None) -> Passage:
        """A paper's text by section (and its subsections) or page range, at most
        `budget_chars` at a time; `next_cursor` continues where this stretch ends."""
        paper = self.paper(paper_id)
        return read_passage(paper, self.store.paper_units(paper.id), section, pages, budget_chars, cursor)

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
                provider = ProviderSpec(space.provider, space.model, options, settings).create()
                # A query must not wait out a build's timeouts and retries (openai: short timeout).
                self._query_providers[space.fingerprint] = getattr(provider, "for_queries", lambda: provider)()
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
        opts = (opts or SearchOptions(**kw)).validate()
        if not query or not query.strip():
            raise BadArgument("empty query: say what to search for")
        opts.validate()
        if opts.filters.papers:  # ids, prefixes, citekeys or DOIs -> ids (the caller's options untouched)
            papers = [self.resolve_paper(p) for p in opts.filters.papers]
            opts = dataclasses.replace(opts, filters=dataclasses.replace(opts.filters, papers=papers))
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
