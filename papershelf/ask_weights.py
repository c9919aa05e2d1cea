"""`ask`'s learned weights, written by bench/ask_learn.py from the DEV half of bench/data/ask_questions.jsonl
(never the test half): `RANKER` orders the candidate sentences (ask_rank.py; None: ask's hand weights), `REFUSAL`
decides `no_confident_answer` (ask.refusal_features).  `VERSION` changes whenever the features' meaning does.
"""

VERSION = 3
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
        "focus",
        "kind"
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
        0.040486,
        0.001101
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
        0.166935,
        0.03317
    ],
    "coef": [
        0.908682,
        0.849001,
        0.182162,
        0.117334,
        0.086418,
        0.622884,
        0.330924,
        0.699242,
        1.070656,
        1.360603,
        -0.372882,
        0.642141,
        0.377424
    ]
}
REFUSAL: dict = {
    "features": [
        "best",
        "margin",
        "paper_missing_rare",
        "paper_agree",
        "kind_paper_miss"
    ],
    "mean": [
        11.39095706,
        1.39362059,
        0.55840054,
        0.80816327,
        0.02721088
    ],
    "scale": [
        3.19734022,
        1.68005891,
        0.4185052,
        0.27193192,
        0.16269743
    ],
    "coef": [
        0.66459774,
        0.89584837,
        -0.1755369,
        0.37368634,
        -0.50955629
    ],
    "intercept": 0.24756029,
    "cut": 0.35734595,
    "ranker": {
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
}
