"""Approximate scoring that narrows exact search: compact codes for many vectors.

    binary.py   sign bits of normalized vectors, Hamming shortlists
    scalar.py   int8 codes, scaled per row: a finer estimate of a shortlist
    clusters.py k-means clusters of unit means: a shortlist from the nearest clusters

A backend scores the compact codes of every vector, keeps a generous
shortlist, and re-scores only that shortlist exactly, so the ranking it
returns is the exact one wherever the shortlist holds the true top hits
(recall@100 against exact search is measured in `bench/vector_scale.py`).
"""
