"""`ask`'s learned weights, written by bench/ask_learn.py from the DEV half of bench/data/ask_questions.jsonl
(never the test half): `RANKER` orders the candidate sentences (ask_rank.py; None: ask's hand weights), `REFUSAL`
decides `no_confident_answer` (ask.refusal_features).  `VERSION` changes whenever the features' meaning does.
"""

VERSION = 4
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
        "kind",
        "measure"
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
        0.001101,
        0.054035
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
        0.03317,
        0.226087
    ],
    "coef": [
        0.897372,
        0.838433,
        0.124921,
        0.130367,
        0.131056,
        0.563274,
        0.328513,
        0.713272,
        1.001447,
        1.156842,
        -0.343353,
        0.66457,
        0.349654,
        0.37515
    ]
}
REFUSAL: dict = {
    "features": [
        "best",
        "margin",
        "paper_missing_rare",
        "paper_agree",
        "kind_paper_miss",
        "paper_missing"
    ],
    "mean": [
        11.39095706,
        1.39362059,
        0.55840054,
        0.80816327,
        0.02721088,
        0.24709032
    ],
    "scale": [
        3.19734022,
        1.68005891,
        0.4185052,
        0.27193192,
        0.16269743,
        0.22294494
    ],
    "coef": [
        0.65269461,
        0.76205538,
        0.32623814,
        0.22684776,
        -0.52290915,
        -0.72410221
    ],
    "intercept": 0.23267368,
    "cut": 0.40616283,
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
