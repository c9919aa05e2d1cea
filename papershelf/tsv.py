"""Tab-separated lines for scripts (`papers --format tsv`, `--format ids`): one record a line, one
field a column, so `cut -f3`, `awk -F'\\t'` and fzf read them.

A field's own tabs and line breaks (every character `str.splitlines` breaks at, CR and U+2028
included) are written as spaces: the IANA text/tab-separated-values format allows neither inside
a field, and a title holding one would otherwise add a column or start a row.
"""

from __future__ import annotations

import re

_BREAKS = re.compile("[\t\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def tsv_line(*fields: object) -> str:
    """One line (no newline at its end): the fields, each with tabs and line breaks as spaces."""
    return "\t".join(_BREAKS.sub(" ", "" if f is None else str(f)) for f in fields)
