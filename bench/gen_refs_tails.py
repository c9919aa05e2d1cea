"""The fifth stream of `gen_references.py` (`--tails`, refs12): what follows an entry or the list set with no
gap and in the list's own size, in the forms of papers from other publishers and languages.

- `statement_flush`: one to three statement lines straight after the last entry, at the column's edge, in the
  list's size and line pitch (no wider gap, no other size): dates, rights, "how to cite" lines, statements, in
  English, Portuguese, Spanish, German and French;
- `link_lines`: each entry's link on a line of its own, in the forms other journals print ("doi.org/…",
  "<https://…>", "Disponível em: <…>. Acesso em: …", "Disponible en: …", "Recuperado de …", "URL: …",
  "Online: …").

Truth by construction: the entries as drawn (a link line is its entry's), the tail no entry.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gen_references import Paper

TAILS = ["statement_flush", "link_lines"]
TAIL_STATEMENTS = [
    "Recebido em 3 de maio de 2019; aceito em 12 de agosto de 2019.",
    "Recibido: 3 de mayo de 2019. Aceptado: 12 de agosto de 2019.",
    "How to cite this article: Okafor M, Brandt K. Observations on soil and thermal response. Synthetic Studies. "
    "2020;12:101–40.",
    "Como citar este artigo: Okafor M, Brandt K. Observações sobre o solo. Estudos Sintéticos. 2020;12:101-40.",
    "Conflict of Interest Statement",
    "The authors declare that the research was conducted in the absence of any commercial or financial "
    "relationships that could be construed as a potential conflict of interest.",
    "Copyright © 2020 Okafor and Brandt. This is an open-access article distributed under the terms of the "
    "Creative Commons Attribution License.",
    "Eingegangen am 3. Mai 2019, angenommen am 12. August 2019.",
    "Reçu le 3 mai 2019 ; accepté le 12 août 2019.",
    "Conflito de interesses: os autores declaram não haver conflito de interesses.",
    "Submitted 3 May 2019 · Accepted 12 August 2019 · Published online 1 September 2019",
    "Correspondence and requests for materials should be addressed to M. Okafor.",
]
LINK_FORMS = ["doi.org/{bare}", "<{doi}>", "Disponível em: <{doi}>. Acesso em: 3 maio 2020.",
              "Disponible en: {doi}", "Recuperado de {doi}", "URL: {doi}", "Online: {doi}"]


def tails(p: Paper, seed: int, entry) -> None:
    """The paper's class of the fifth stream, drawn on top of the first stream's list."""
    rng = random.Random(seed + 4_000_003)
    p.layout = TAILS[(seed // 2) % len(TAILS)]
    p.running = rng.random() < 0.4
    if p.layout == "statement_flush":
        p.statement = None
        p.tail = rng.sample(TAIL_STATEMENTS, rng.randint(1, 3))
    if p.layout == "link_lines":
        p.doi_line, p.doi_form = True, rng.choice(LINK_FORMS)
        for e in p.entries:
            e.doi = e.doi or f"https://doi.org/10.{rng.randint(1000, 9999)}/x{rng.randint(10000, 99999)}"
    if len(p.entries) < 8:
        p.entries += [entry(rng) for _ in range(8)]
        if p.style in ("hanging", "gapped", "flush"):
            p.entries.sort(key=lambda e: (e.authors[0][0], e.year))
