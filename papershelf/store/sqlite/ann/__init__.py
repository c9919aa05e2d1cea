"""Approximate scoring that narrows exact search: compact codes for many vectors.

    binary.py   sign bits of normalized vectors, Hamming shortlists

A backend scores the compact codes of every vector, keeps a generous
shortlist, and re-scores only that shortlist exactly, so the ranking it
returns is the exact one wherever the shortlist holds the true top hits
(recall@100 against exact search is measured in `bench/vector_scale.py`).
"""
