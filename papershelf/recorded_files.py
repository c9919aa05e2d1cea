"""The one file a server hands out: a paper's recorded PDF source, and only while it still is.

A source path in the library is a fact about the past: since it was indexed the file may have been
replaced — by other bytes, or by a symbolic link to `/etc/passwd`.  A server serving "whatever is
at that path now" would hand out any file the user can read to anything allowed to ask.  So the
file is read once through one descriptor, must be a regular file of the recorded size whose
content hash is the recorded one (re-hashed whenever its size, mtime or inode changed), and must
not be a link leading out of its folder; the bytes served are the bytes checked.
"""

from __future__ import annotations

import json
import os
import stat

from .errors import NotFound, SourceChanged
from .models import Paper

_verified: dict[tuple, str] = {}  # (path, dev, inode, size, mtime_ns) -> the recorded hash it matched


def recorded_pdf(store, paper: Paper) -> tuple[str, bytes]:
    """(path, bytes) of the paper's PDF source if it is still the file that was indexed; else
    NotFound (no PDF, or gone) or SourceChanged (other content, another kind of file, a link out)."""
    path = paper.source_path
    if paper.source_format != "pdf" or not path:
        raise NotFound(f"paper {paper.id!r} has no PDF file")
    _refuse_link_out(paper.id, path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise NotFound(f"paper {paper.id!r}: its PDF is no longer at {path}") from None
    except OSError as e:
        raise NotFound(f"paper {paper.id!r}: its PDF cannot be read ({e.strerror or e})") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise SourceChanged(f"paper {paper.id!r}: {path} is no longer a regular file; not served")
    with os.fdopen(fd, "rb") as f:
        if paper.source_size is not None and st.st_size != paper.source_size:
            raise _changed(paper)
        data = f.read(st.st_size + 1)
    key = (path, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    if _verified.get(key) != paper.source_hash:
        if not _is_recorded(store, path, data, paper.source_hash):
            raise _changed(paper)
        if len(_verified) > 4096:
            _verified.clear()
        _verified[key] = paper.source_hash or ""
    return path, data


def _changed(paper: Paper) -> SourceChanged:
    return SourceChanged(f"paper {paper.id!r}: {paper.source_path} changed since it was indexed; not served "
                         "(`papershelf add` reads it again)")


def _refuse_link_out(paper_id: str, path: str) -> None:
    """A symbolic link is served only when it stays inside the folder it sits in."""
    if not os.path.islink(path):
        return
    folder = os.path.realpath(os.path.dirname(path))
    target = os.path.realpath(path)
    if os.path.commonpath([folder, target]) != folder:
        raise SourceChanged(f"paper {paper_id!r}: {path} is now a link out of its folder; not served")


def _is_recorded(store, path: str, data: bytes, recorded: str | None) -> bool:
    """The bytes hash to the recorded source hash: the file's own, or (for a file whose
    bibliography entry is part of its hash, as `add` computes it) with its remembered entry."""
    if recorded is None:
        return False
    from .ingest import content_hash

    if content_hash(path, data) == recorded:
        return True
    remembered = store.remembered_metadata(path)
    if not remembered:
        return False
    from .ingest.metadata import Meta

    meta = Meta(**json.loads(remembered)["meta"])
    return content_hash(path, data, meta.to_json().encode()) == recorded
