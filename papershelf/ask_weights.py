"""`ask`'s learned weights, written by bench/ask_learn.py from the DEV half of bench/data/ask_questions.jsonl
(never the test half): `RANKER` orders the candidate sentences (ask_rank.py; None: ask's hand weights), `REFUSAL`
decides `no_confident_answer` (ask.refusal_features).  `VERSION` changes whenever the features' meaning does.
"""

VERSION = 1
RANKER: dict | None = None
REFUSAL: dict = {
    "features": ["best", "relevance", "paper_missing_rare"],
    "mean": [0.57955898, 0.85145455, 0.59963877],
    "scale": [0.13182748, 0.26565288, 0.43892981],
    "coef": [1.4679427, -0.87432755, -0.36620418],
    "intercept": 0.16584192,
    "cut": 0.32747546,
}
