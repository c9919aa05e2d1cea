"""Adding papers to a store: files, works (one paper, several source files), bibliographies and Zotero.

`Library` delegates here; nothing in this module knows a backend, only the `Store` contract.
A file is read, hashed, parsed and written as one transaction per paper; a file that cannot be
read is recorded as a failure, never raised, so one bad file does not stop an `add`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable

from . import works
from .document import Document
from .errors import IngestError, NotFound
from .ingest import content_hash, derive_paper_id, discover, load_source, parse_source
from .ingest.citekey import with_suffix
from .ingest.metadata import Meta, is_metadata_json, normalized_title, parse_bibtex, parse_csl_json, zotero_blocks
from .ingest.pdf.scan.ocr import may_help as ocr_may_help
from .ingest.zotero import Attachment, read_zotero_dirs
from .models import KIND_NAMES, PAPER_META_FIELDS, AddReport, FileResult, FileStatus, Paper, PaperSource
from .parsing import FileJob, Parser, _Begun
from .store import Store
from .units import Unit, build_units, make_manifest


def apply_metadata(doc: Document, meta: Meta) -> None:
    """A reference manager knows the bibliographic facts better than a parser."""
    for name in PAPER_META_FIELDS:
        setattr(doc, name, getattr(meta, name) or getattr(doc, name))
    doc.declared_id = meta.citekey or meta.zotero_key or doc.declared_id


class Importer:
    """Adds and removes the files of a library's papers through the `Store` contract."""

    def __init__(self, store: Store):
        self.store = store

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
        step = self._begin(path, retry_failed, max_bytes, meta, keep_id, force)
        return step if isinstance(step, FileResult) else self._finish(step, lambda: parse_source(step.src))

    def _begin(self, path: str, retry_failed: bool, max_bytes: int | None, meta: Meta | None,
               keep_id: str | None, force: bool) -> FileResult | _Begun:
        """Read and hash the file: its result when there is nothing to parse (unchanged, failed
        before, unreadable), else what parsing it needs.  Cheap: `add` runs it ahead of the parse."""
        path = os.path.abspath(path)
        src = None
        if meta is None and (remembered := self.store.remembered_metadata(path)):
            saved = json.loads(remembered)
            meta, keep_id = Meta(**saved["meta"]), keep_id or saved["paper_id"]
        try:
            src = load_source(path, max_bytes)
            if meta is not None:
                src.sha256 = content_hash(path, src.data, meta.to_json().encode())
            known = self.store.source_record(path)
            if known and known.hash == src.sha256 and not force:
                return FileResult(path, "unchanged", known.paper_id)
            failure = self.store.failure(path)
            if failure and failure.source_hash == src.sha256 and not retry_failed \
                    and not ocr_may_help(failure.reason):
                return FileResult(path, "failed", reason=f"{failure.reason} (unchanged since it failed; "
                                                         "--retry-failed tries again)")
            return _Begun(path, src, meta, keep_id, known)
        except IngestError as e:
            self.store.record_failure(path, src.sha256 if src else None, str(e))
            return FileResult(path, "failed", reason=str(e))

    def _finish(self, step: _Begun, parsed: Callable[[], Document],
                make_way: Callable[[Document, str], None] | None = None) -> FileResult:
        """The parsed file written as its paper (or as another source of one), or its failure recorded.
        `make_way`: told the final Document before its id is chosen (parsing.py: a tie goes by input order)."""
        path, src, meta, keep_id, known = step.path, step.src, step.meta, step.keep_id, step.known
        try:
            doc = parsed()
            if meta is not None:
                applied = self._item_meta(doc, meta)
                apply_metadata(doc, applied)
                doc.blocks += zotero_blocks(applied)
            if keep_id:
                doc.declared_id = keep_id
            if make_way is not None:
                make_way(doc, path)
            source = works.source_of(doc, path, src.sha256, len(src.data))
            mine = known.paper_id if known else None  # a derived id clashes only with another paper's
            source.paper_id = derive_paper_id(
                doc, path, lambda pid: pid != mine and self.store.get_paper(pid) is not None)
            if not keep_id and (not doc.declared_id or doc.declared_id == doc.doi):  # a name given is the paper
                source.paper_id = self._same_work(source, known.paper_id if known else None) or source.paper_id
            elif not keep_id and self._held_by_another_work(source.paper_id, doc, mine):
                source.paper_id = with_suffix(source.paper_id, lambda pid: self.store.get_paper(pid) is not None)
            if known and known.paper_id != source.paper_id:
                self._detach(path)  # the file became another work: its old paper re-picks or goes
            return self._write_source(doc, source, meta, known is not None and known.paper_id == source.paper_id)
        except IngestError as e:
            self.store.record_failure(path, src.sha256, str(e))
            return FileResult(path, "failed", reason=str(e))

    @staticmethod
    def _item_meta(doc: Document, meta: Meta) -> Meta:
        """The metadata a Zotero item's second (third, ...) PDF is added with: the item's own, so the file
        is another source of the item's paper, when the PDF's own reading (before the item's metadata
        overrides it) is the item's work (`works.same_work`: the same paper downloaded twice, a preprint
        with the item's title and first author); else its own id (`Meta.apart`): a supplement, another
        paper attached by mistake, or a file whose reading finds no title to tell (which keeps the item's
        title and authors: nothing says they are not its).  Decided by the file and the item alone, so a
        rerun or a re-parse decides the same."""
        if not meta.apart_id or works.same_work(doc, meta):
            return meta
        return meta.apart(read_as_another=bool(doc.title or doc.doi))

    def _held_by_another_work(self, paper_id: str, doc: Document, mine: str | None) -> bool:
        """A declared citekey that a different paper already holds as its readable id (made from its
        author, year and title): that paper is another work, never to be overwritten by this one."""
        other = self.store.get_paper(paper_id) if paper_id != mine else None
        return other is not None and bool(doc.citekey) and other.citekey != doc.citekey \
            and not other.zotero_attachment

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

    def _write_source(self, doc: Document, source: PaperSource, meta: Meta | None, was_source: bool) -> FileResult:
        """Record the file as a source of its paper; when it is the paper's best source, its units
        and metadata become the paper's (one transaction), which makes the paper pending for `embed`."""
        path, paper_id = source.path, source.paper_id
        current = self.store.get_paper(paper_id)
        others = [s for s in self.store.sources(paper_id) if s.path != path] if current else []
        provider = current.source_path if current else None
        chosen = works.best([source, *others], provider)  # on a tie with a non-provider, the file at hand
        status: FileStatus = "updated" if was_source else "added"
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
        remembered = {path: json.dumps({"meta": meta.__dict__, "paper_id": paper_id})} if meta is not None else None
        self.store.write_paper(paper, units, make_manifest(units), doc.references, [source], remembered)
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
            on_found: Callable[[list[tuple[str, str | None]]], None] | None = None, reread: bool = False) -> AddReport:
        """Add files and folders (recursively).  Idempotent: unchanged files are not parsed again,
        unless `reread` (what a newer reader finds in old files, e.g. their reference lists; a
        paper whose units come out the same keeps its vectors).  `on_found`: told every file found
        (and why it cannot be read, if it cannot) before any is read: the bar's total and the whole
        index's plan, from one walk of the inputs."""
        report = AddReport()
        zotero_dirs, attachments, unreadable = read_zotero_dirs(paths)
        report.files += [FileResult(d, "failed", reason=reason) for d, reason in unreadable]
        paths = [p for p in paths if p not in zotero_dirs]
        found = list(discover(paths)) if paths else []
        if on_found:
            on_found(found + [(a.path, None if a.exists else "missing") for a in attachments])
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
        jobs: list[FileJob] = [
            FileJob(path, problem, metadata.get(os.path.abspath(path)), force=reread) for path, problem in papers]
        jobs += [self._attachment_job(a, reread) for a in attachments]
        pdfs = sum(j.path.lower().endswith(".pdf") for j in jobs)
        with Parser(self, retry_failed, max_bytes, pdfs=pdfs) as parser:
            parser.run(jobs, report, progress)
            done = {os.path.abspath(p) for p, _ in papers} | {a.path for a in attachments}
            matches = self._bibliography_matches(metadata, all_entries, done)
            parser.run([FileJob(path, None, meta, paper_id, reread) for paper_id, path, meta in matches],
                       report, progress)
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

    @staticmethod
    def _attachment_job(a: Attachment, force: bool = False) -> FileJob:
        """One PDF of a Zotero library, with its item's metadata, labels, notes and annotations."""
        if not a.exists:
            return FileJob(a.path, f"file missing from Zotero storage (attachment {a.key} of "
                                   f"{a.meta.title or a.meta.zotero_key!r})")
        meta = Meta(**{**a.meta.__dict__, "collections": a.collections, "tags": a.tags, "notes": a.notes,
                       "annotations": [ann.__dict__ for ann in a.annotations], "attachment_key": a.link_key})
        return FileJob(a.path, None, meta, force=force)

    @staticmethod
    def _read_metadata(path: str, entries: list[Meta] | None = None):
        """Attachment map of a bibliography file, a failure, or None when the file is a paper.
        Every entry, with or without attachments, is appended to `entries`."""
        ext = os.path.splitext(path)[1].lower()
        if ext not in (".bib", ".json"):
            return None
        try:
            src = load_source(path)
            if ext == ".bib":
                return parse_bibtex(src.data.decode("utf-8", "replace"), os.path.dirname(path), entries)
            try:
                data = json.loads(src.data)
            except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
                return None  # the paper reader will report it
            return parse_csl_json(data, os.path.dirname(path), entries) if is_metadata_json(data) else None
        except (IngestError, ValueError, KeyError, TypeError) as e:
            return FileResult(path, "failed", reason=f"could not read bibliography: {e}")

    def add_document(self, paper: Paper, doc: Document) -> list[Unit]:
        """Add a parsed document directly (benchmarks and importers that have no file)."""
        units = build_units(doc, paper.id)
        self.store.write_paper(paper, units, make_manifest(units), doc.references)
        return units

