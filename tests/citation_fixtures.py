"""Small Markdown papers that cite each other, for the citation-graph tests."""

from __future__ import annotations

from pathlib import Path

ATTENTION = """\
---
title: Graph Attention for Citation Recommendation
authors: [Ada Lovelace, Charles Babbage]
year: 2019
doi: 10.5555/graph.2019
---
# Introduction

Recommending citations with attention over the citation graph of a field.
"""

SPARSE = """\
---
title: Sparse Retrieval at Scale
authors: [Grace Hopper]
year: 2020
---
# Introduction

Inverted indexes over learned sparse weights answer queries in milliseconds.
"""

SURVEY = """\
---
title: A Survey of Scholarly Search
authors: [Mary Somerville]
year: 2021
---
# Introduction

Scholarly search engines combine lexical retrieval and citation signals.

# References

1. Lovelace, A., Babbage, C. (2019). A title the authors later changed. Journal of Graphs 4, 1-9. doi:10.5555/GRAPH.2019
2. Grace Hopper. 2020. Sparse retrieval at scale. In Proceedings of SIGIR.
3. Alan Turing. 2020. Sparse Retrieval at Scale. In Proceedings of Imitation.
4. Hinton, G., Salakhutdinov, R. (2006). Reducing the dimensionality of data with neural networks. Science 313, 504-507.
5. Hopper, G. (2021). Sparse retrieval at scale. Journal of Retrieval 2, 3-4.
"""

HINTON = """\
---
title: Reducing the Dimensionality of Data with Neural Networks
authors: [Geoffrey Hinton, Ruslan Salakhutdinov]
year: 2006
---
# Introduction

Deep autoencoders learn low-dimensional codes that work much better than principal components.
"""


def write_papers(folder: Path, *names: str) -> dict[str, Path]:
    texts = {"attention": ATTENTION, "sparse": SPARSE, "survey": SURVEY, "hinton": HINTON}
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for name in names or texts:
        out[name] = folder / f"{name}.md"
        out[name].write_text(texts[name], encoding="utf-8")
    return out
