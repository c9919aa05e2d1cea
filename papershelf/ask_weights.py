"""`ask`'s learned weights, written by bench/ask_learn.py from the DEV half of bench/data/ask_questions.jsonl
(never the test half): `RANKER` orders the candidate sentences (ask_rank.py; None: ask's hand weights), `REFUSAL`
decides `no_confident_answer` (ask.refusal_features).  `VERSION` changes whenever the features' meaning does.
"""

VERSION = 2
RANKER: dict | None = {
    "features": [
        "cosine",
        "cos_gap",
        "unit_margin",
        "neighbour",
        "lexical",
        "rare_window",
        "prior",
        "best_paper",
        "typed",
        "number",
        "length",
        "focus"
    ],
    "mean": [
        0.226799,
        -0.406604,
        -0.0,
        0.268832,
        0.038513,
        0.098953,
        0.326631,
        0.662466,
        0.251239,
        0.355073,
        2.918958,
        0.040486
    ],
    "scale": [
        0.132038,
        0.14132,
        0.113953,
        0.144896,
        0.069067,
        0.135758,
        0.347609,
        0.472869,
        0.433726,
        0.478535,
        0.57193,
        0.166935
    ],
    "coef": [
        0.77565,
        0.724706,
        0.210237,
        0.140783,
        0.129769,
        0.609263,
        0.268537,
        0.652107,
        1.052555,
        1.38033,
        -0.395519,
        0.672066
    ]
}
REFUSAL: dict = {
    "features": [
        "best",
        "margin",
        "paper_missing_rare"
    ],
    "mean": [
        11.38812583,
        1.37667931,
        0.55383839
    ],
    "scale": [
        3.23366297,
        1.68132915,
        0.42090529
    ],
    "coef": [
        0.79409468,
        0.83691056,
        -0.19365297
    ],
    "intercept": 0.29471519,
    "cut": 0.30862208
}
