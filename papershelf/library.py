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
from dataclasses import dataclass, field

from . import ingest
from .document import Paper
from .embed.base import ProviderSpec, space_options, validate
from .embed.windows import cut, token_counter
from .errors import NotFound, PapershelfError
from .ingest import IngestError
from .ingest.metadata import Meta, is_metadata_json, parse_bibtex, parse_csl_json
from .search import SearchOptions, SearchResponse, VectorUnavailable, pages_of, run_search
from .store import Filters, open_store
from .units import build_units, embedding_parts, make_manifest
from .vector_index import VectorIndex

ENV_LIBRARY = "PAPERSHELF_LIBRARY"


def default_library_path() -> str:
    """``$PAPERSHELF_LIBRARY``, else ``library.db`` in the user's data dir (~/.local/share/papershelf)."""
    if os.environ.get(ENV_LIBRARY):
        return os.path.expanduser(os.environ[ENV_LIBRARY])
    from platformdirs import user_data_dir

    return os.path.join(user_data_dir("papershelf", appauthor=False), "library.db")


@dataclass
class FileResult:
    path: str
    status: str  # added | updated | unchanged | failed
    paper_id: str | None = None
    reason: str | None = None
    units: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v not in (None, {})}


@dataclass
class AddReport:
    files: list[FileResult] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(f.status == status for f in self.files)

    @property
    def failed(self) -> list[FileResult]:
        return [f for f in self.files if f.status == "failed"]

    def to_dict(self) -> dict:
        return {"added": self.count("added"), "updated": self.count("updated"),
                "metadata_files": self.count("metadata"),
                "unchanged": self.count("unchanged"), "failed": self.count("failed"),
                "files": [f.to_dict() for f in self.files]}


def apply_metadata(doc, meta: Meta) -> None:
    """A reference manager knows the bibliographic facts better than a parser."""
    doc.title = meta.title or doc.title
    doc.authors = meta.authors or doc.authors
    doc.year = meta.year or doc.year
    doc.venue = meta.venue or doc.venue
    doc.doi = meta.doi or doc.doi
    doc.citekey = meta.citekey or doc.citekey
    doc.declared_id = meta.citekey or meta.zotero_key or doc.declared_id


class Library:
    def __init__(self, path: str | None = None, create: bool = True):
        self.path = os.path.abspath(os.path.expanduser(path or default_library_path()))
        self.store = open_store(self.path, create=create)
        self.vectors = VectorIndex(self.store)
        self._query_providers: dict[str, object] = {}
        self._provider_lock = threading.Lock()

    def close(self) -> None:
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
            paper = Paper(id=paper_id, title=doc.title or os.path.splitext(os.path.basename(path))[0],
                          authors=doc.authors, year=doc.year, venue=doc.venue, doi=doc.doi, citekey=doc.citekey,
                          source_path=path, source_hash=src.sha256, source_format=doc.source_format,
                          source_size=len(src.data))
            existed = self.store.get_paper(paper_id) is not None
            self.store.write_paper(paper, units, make_manifest(units))
            counts = {k: sum(u.kind == k for u in units) for k in ("body", "object", "chunk")}
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
            except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
                return None  # the paper reader will report it
            return parse_csl_json(data, os.path.dirname(path)) if is_metadata_json(data) else None
        except (IngestError, ValueError, KeyError, TypeError) as e:
            return FileResult(path, "failed", reason=f"could not read bibliography: {e}")

    def add_document(self, paper: Paper, doc) -> list:
        """Add a parsed document directly (benchmarks and importers that have no file)."""
        units = build_units(doc, paper.id)
        self.store.write_paper(paper, units, make_manifest(units))
        return units

    def remove(self, paper_id: str) -> None:
        if not self.store.remove_paper(paper_id):
            raise NotFound(f"no paper with id {paper_id!r}")

    # -- looking at things ---------------------------------------------------------

    def show(self, item_id: str) -> dict:
        """A paper with its sections and objects, or a single unit."""
        paper = self.store.get_paper(item_id)
        if paper is not None:
            units = self.store.paper_units(item_id)
            paper["manifest"] = self.store.manifest(item_id)
            paper["sections"] = [
                {"unit_id": u.id, "source": u.source, "section_path": u.section_path, "part": u.part,
                 "pages": pages_of(u), "tokens": u.token_estimate}
                for u in units if u.kind in ("body", "chunk")]
            paper["objects"] = [
                {"unit_id": u.id, "object_kind": u.object_kind, "label": u.object_label,
                 "caption": u.caption_text, "pages": pages_of(u), "section_path": u.section_path,
                 "indexable": u.indexable, "veto_reason": u.veto_reason,
                 "cited_by": u.nearby_body_text, "table_text": u.table_text}
                for u in units if u.kind == "object"]
            return {"type": "paper", **paper}
        unit = self.store.get_unit(item_id)
        if unit is None:
            raise NotFound(f"no paper or unit with id {item_id!r}")
        d = {k: v for k, v in unit.__dict__.items()}
        d["source"] = unit.source
        d["paper"] = self.store.get_paper(unit.paper_id)
        return {"type": "unit", **d}

    def status(self) -> dict:
        st = self.store.stats()
        st["embedding"] = self.embedding_status()
        return st

    def verify(self) -> dict:
        """Does the library hold what it says?  Index consistency, and for every
        embedding space, vectors checked unit by unit against current content."""
        out = {"index": self.store.verify_index(), "spaces": []}
        for space in self.store.spaces():
            check = self.store.verify_space(space["id"], space["dimension"])
            out["spaces"].append({"id": space["id"], "provider": space["provider"], "model": space["model"],
                                  "complete": space["completed_at"] is not None, **check})
        out["ok"] = out["index"]["ok"] and all(s["ok"] for s in out["spaces"])
        return out

    # -- embeddings ------------------------------------------------------------------

    def configured_spec(self) -> ProviderSpec:
        """What `embed` builds when not told otherwise: the library's last choice, else the default."""
        saved = self.store.get_setting("embed.spec")
        return ProviderSpec.from_json(saved) if saved else ProviderSpec()

    def embedding_status(self) -> dict:
        target_id = self.store.get_setting("embed.space_id")
        target = self.store.get_space(int(target_id)) if target_id else None
        active = self.store.active_space()
        out: dict = {"configured": dict(provider=self.configured_spec().provider,
                                        model=self.configured_spec().model_name),
                     "active_space": _space_summary(active), "target_space": _space_summary(target)}
        space = target or active
        if space is None:
            papers_with_units = len(self.store.manifest_paper_ids(with_indexable_units=True))
            out.update(collections=None, pending_papers=papers_with_units, failed_papers=0,
                       stored_total=0, expected_total=None)
            return out
        pending = self.store.pending(space["id"])
        cols = self.store.collection_status(space["id"], pending)
        failures = self.store.embed_failures(space["id"])
        out.update(
            collections=cols,
            stored_total=sum(c["stored"] for c in cols.values()),
            expected_total=sum(c["expected"] for c in cols.values()),
            pending_papers=len(pending),
            pending_reasons={r: sum(1 for _, x in pending if x == r) for r in ("new", "changed", "damaged")},
            failed_papers=len(failures),
            failures=failures[:20],
        )
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
        target_id = self.store.get_setting("embed.space_id")
        if target_id:
            return self.store.pending(int(target_id), paper_ids)
        wanted = set(paper_ids) if paper_ids is not None else None
        return [(p, "new") for p in self.store.manifest_paper_ids(with_indexable_units=True)
                if wanted is None or p in wanted]

    def query_provider(self, space: dict):
        """The provider that embeds queries for a space (cached; created on first use)."""
        key = space["fingerprint"]
        with self._provider_lock:
            if key not in self._query_providers:
                spec = self.configured_spec()
                settings = spec.settings if (spec.provider, spec.model_name) == (space["provider"], space["model"]) \
                    else ()
                options = tuple(sorted(space_options(space).items()))
                provider = ProviderSpec(space["provider"], space["model"], options, settings).create()
                # A query must not wait out a build's timeouts and retries (openai: short timeout).
                self._query_providers[key] = getattr(provider, "for_queries", lambda: provider)()
            return self._query_providers[key]

    def set_query_provider(self, space: dict, provider) -> None:
        with self._provider_lock:
            self._query_providers[space["fingerprint"]] = provider

    # -- search ----------------------------------------------------------------------

    def _vector_search(self, space: dict | None, query: str, depth: int, filters: Filters):
        if space is None:
            raise VectorUnavailable("no embeddings yet: run `papershelf embed` for meaning-based search")
        try:
            provider = self.query_provider(space)
            qvec = validate(provider.encode([query]), 1, space["dimension"])[0]
        except PapershelfError as e:
            raise VectorUnavailable(f"embedding provider unavailable ({e})") from None
        except Exception as e:  # noqa: BLE001 - a broken provider must not break search
            raise VectorUnavailable(f"embedding provider failed ({type(e).__name__}: {e})") from None
        return self.vectors.search(space, qvec, depth, filters)

    def _passage(self, space: dict, unit, paper: dict, window: int) -> str | None:
        """The body text of one of a unit's windows, cut exactly as the build cut it."""
        budget = space_options(space).get("window_tokens")
        if not budget:
            return None
        try:
            count = token_counter(self.query_provider(space))
            _, parts = cut(*embedding_parts(unit, paper["title"]), budget, count)
        except Exception:  # noqa: BLE001 - a snippet must never break search
            return None
        return parts[window] if window < len(parts) else None

    def search(self, query: str, opts: SearchOptions | None = None, *, space_id: int | None = None,
               **kw) -> SearchResponse:
        """Search the library; vectors come from the newest complete space, or from
        `space_id` (e.g. to compare two models or window sizes on the same queries)."""
        opts = (opts or SearchOptions(**kw)).validate()
        if not query or not query.strip():
            raise PapershelfError("empty query: say what to search for")
        # One space per search: the vectors and the passages cut for snippets both come from it.
        if space_id is None:
            space = self.store.active_space() if opts.mode != "lexical" else None
        else:
            space = self.store.get_space(space_id)
            if space is None:
                raise NotFound(f"no embedding space {space_id}")
        resp = run_search(self.store, query, opts, functools.partial(self._vector_search, space),
                          functools.partial(self._passage, space) if space else None)
        if not resp.results and self.store.count_papers() == 0:
            resp.notices.append("the library is empty: add papers with `papershelf add PATH`")
        return resp


def _space_summary(space: dict | None) -> dict | None:
    if space is None:
        return None
    summary = {k: space[k] for k in ("id", "provider", "model", "dimension", "fingerprint", "completed_at")}
    summary["window_tokens"] = space_options(space).get("window_tokens")
    return summary
