"""Readable `--help` for every command: a placeholder that says what to type and a word of help for
every option (Typer's own placeholders are `<list[str]>`, `{query}`)."""

from __future__ import annotations

from typer.core import TyperArgument, TyperCommand, TyperOption

# Placeholders by parameter name, then by type.
METAVARS = {"library": "PATH|URL", "year_from": "YEAR", "year_to": "YEAR", "paper": "PAPER", "collection": "NAME",
            "tag": "TAG", "author": "NAME", "source": "SOURCE", "kind": "figure|table", "mode": "MODE",
            "fusion": "convex|rrf", "model": "NAME", "provider": "NAME", "base_url": "URL", "rerank_url": "URL",
            "host": "ADDRESS", "token": "TOKEN", "max_size": "MIB", "debounce": "SECONDS", "rerank_timeout": "SECONDS",
            "stop_after": "SECONDS", "queries": "FILE", "qrels": "FILE", "keep": "PATH", "title": "TEXT",
            "backend": "onnx|torch", "quantize": "int8|none", "fmt": "table|tsv|ids", "item_id": "ID",
            "paper_id": "PAPER", "source_path": "PATH", "destination": "LIBRARY", "folder": "FOLDER", "paths": "PATH",
            "query": "QUERY", "zotero_library": "NAME"}
# Help for options that repeat across commands, so none is shown without a word.
HELP = {"as_json": "Print JSON instead of text.", "workers": "Encoding threads.", "model": "Model name or path.",
        "limit": "At most this many."}


class ReadableCommand(TyperCommand):
    """A command whose every option has help and a readable placeholder."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for p in self.params:
            if p.metavar is None and not getattr(p, "is_flag", False):
                kind = p.bare_type() if isinstance(p, (TyperArgument, TyperOption)) else ""
                by_type = "N" if "int" in kind else "NUMBER" if "float" in kind else "TEXT"
                p.metavar = p.name.upper() if isinstance(p, TyperArgument) and p.name in ("source", "destination") \
                    else METAVARS.get(p.name or "", by_type)
            if isinstance(p, TyperArgument):  # `QUERY`, `PATH...` rather than `{query} <str>`
                shown = f"{p.metavar}{'...' if p.nargs != 1 else ''}"
                setattr(p, "_usage_display_name", lambda shown=shown: shown)  # noqa: B010 - per instance
                setattr(p, "_rich_display_name", lambda shown=shown: shown)  # noqa: B010
                setattr(p, "display_type_rich", lambda ctx: "")  # noqa: B010
            if isinstance(p, TyperOption) and not p.help and p.name in HELP:
                p.help = HELP[p.name]
