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
        0.22256,
        -0.404582,
        0.0,
        0.263677,
        0.042363,
        0.101343,
        0.30952,
        0.668698,
        0.195627,
        0.368511,
        2.925375,
        0.031891,
        0.000748,
        0.056625
    ],
    "scale": [
        0.132597,
        0.141564,
        0.113516,
        0.144879,
        0.080318,
        0.141678,
        0.348684,
        0.470681,
        0.396682,
        0.482401,
        0.577489,
        0.149579,
        0.027339,
        0.231125
    ],
    "coef": [
        0.701595,
        0.657154,
        0.18865,
        -0.008804,
        0.260774,
        0.519924,
        0.369177,
        0.726488,
        1.05659,
        1.024604,
        -0.277274,
        0.556805,
        0.290454,
        0.355527
    ]
}
REFUSAL: dict = {
    "features": [
        "best",
        "margin",
        "paper_missing_rare",
        "paper_agree",
        "sent_cover"
    ],
    "mean": [
        10.3498415,
        1.32816662,
        0.51493236,
        0.82328042,
        0.49847645
    ],
    "scale": [
        3.09050792,
        1.50152956,
        0.41476695,
        0.26405032,
        0.21658231
    ],
    "coef": [
        0.54130314,
        0.73521098,
        -0.17516932,
        0.46130186,
        0.16704096
    ],
    "intercept": 0.25175011,
    "cut": 0.29342948,
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
            0.22256,
            -0.404582,
            0.0,
            0.263677,
            0.042363,
            0.101343,
            0.30952,
            0.668698,
            0.195627,
            0.368511,
            2.925375,
            0.031891
        ],
        "scale": [
            0.132597,
            0.141564,
            0.113516,
            0.144879,
            0.080318,
            0.141678,
            0.348684,
            0.470681,
            0.396682,
            0.482401,
            0.577489,
            0.149579
        ],
        "coef": [
            0.655532,
            0.614009,
            0.207747,
            0.023135,
            0.271148,
            0.533663,
            0.332934,
            0.676794,
            1.125441,
            1.202776,
            -0.316074,
            0.558458
        ]
    }
}
