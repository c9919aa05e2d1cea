"""A seventh set of generated object classes: how a paper prints its objects' labels.

A paper (40 % of them, drawn by a generator of its own, `random.Random(f"labels {seed}")`, so the other
draws stay as they were) prints every label in one style seen on real papers outside English-language
journals and in older ones: Portuguese ("Figura 2.", "Tabela 1 –"), Spanish ("Tabla 1."), German
("Abbildung 2:", "Tabelle 1:"), tables numbered in capitals' roman numerals ("TABLE II."), figures as
plates ("Plate 3." — a series of its own, the reader keeps its name), or a figure's caption opening with
its first panel's capital letter ("Fig. 3A - …", the panels being one figure).  The truth's label is what
the reader should give the object: "Figure 2" for a "Figura 2", "Table II", "Plate 3".
"""

from __future__ import annotations

import random

SHARE = 0.4
STYLES = ("portuguese", "spanish", "german", "roman", "plate", "panel")
_FORMS = {  # (figure, table): None keeps the paper's English form
    "portuguese": ("Figura {n}.", "Tabela {n} –"), "spanish": ("Figura {n}.", "Tabla {n}."),
    "german": ("Abbildung {n}:", "Tabelle {n}:"), "roman": (None, "TABLE {n}."), "plate": ("Plate {n}.", None),
    "panel": ("Fig. {n}A -", None),
}
_ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")


def label_style(seed: int) -> str | None:
    """The paper's label style, or None (its labels printed in English as the other sets draw them)."""
    rng = random.Random(f"labels {seed}")
    return rng.choice(STYLES) if rng.random() < SHARE else None


def styled_label(style: str | None, kind: str, n: int) -> str:
    """The label the reader should give the paper's `n`th object of `kind`."""
    if style == "roman" and kind == "table" and n <= len(_ROMAN):
        return f"Table {_ROMAN[n - 1]}"
    if style == "plate" and kind == "figure":
        return f"Plate {n}"
    return f"{'Table' if kind == 'table' else 'Figure'} {n}"


def printed_label(style: str | None, label: str, printed: str) -> str:
    """The label as the paper prints it (`printed`: the English form the other sets drew)."""
    kind = 0 if label.startswith(("Figure", "Plate")) else 1
    form = _FORMS[style][kind] if style else None
    return form.format(n=label.split()[1]) if form else printed
