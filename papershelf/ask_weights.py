"""`ask`'s learned weights, written by bench/ask_learn.py from the DEV half of bench/data/ask_questions.jsonl
(never the test half): `RANKER` orders the candidate sentences (ask_rank.py; None: ask's hand weights), `REFUSAL`
decides `no_confident_answer` (ask.refusal_features).  `VERSION` changes whenever the features' meaning does.
"""

VERSION = 1
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
        "length"
    ],
    "mean": [
        0.234298,
        -0.401169,
        -0.0,
        0.27814,
        0.038337,
        0.100009,
        0.346705,
        0.806515,
        0.249909,
        0.35338,
        2.908227
    ],
    "scale": [
        0.134909,
        0.142199,
        0.118207,
        0.148556,
        0.068039,
        0.136719,
        0.33977,
        0.39503,
        0.43296,
        0.478019,
        0.575614
    ],
    "coef": [
        0.72769,
        0.690384,
        0.190994,
        0.144284,
        0.28932,
        0.660544,
        0.217164,
        0.390363,
        0.921192,
        1.465298,
        -0.440272
    ]
}
REFUSAL: dict = {
    "features": [
        "best",
        "margin",
        "p_top",
        "cover_best",
        "paper_missing_rare",
        "relevance"
    ],
    "mean": [
        9.93739142,
        1.25899961,
        0.41573287,
        0.51791118,
        0.5748565,
        0.90067483
    ],
    "scale": [
        2.65955101,
        1.40543429,
        0.27516249,
        0.22951138,
        0.43786213,
        0.21163843
    ],
    "coef": [
        1.14431697,
        -0.25161579,
        0.609633,
        -0.22870953,
        -0.14638216,
        -0.20749229
    ],
    "intercept": 0.23923846,
    "cut": 0.29309069
}
