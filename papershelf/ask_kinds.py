"""What kind of detail a question asks for, beyond a quantity: the compute a paper ran on, the software it was
written in, who funded it, its license.  Papers report these in a few stock ways ("on two RTX A6000 GPUs",
"implemented in Python", "supported by ... grant", "released under the MIT license"), and the answering sentence
often shares no word with the question ("On what hardware...?" - "Intel Core i7 3.4 GHz").  A sentence of the
asked kind is marked for the ranker (ask_rank's `kind`), and a question of a kind whose best evidence holds no
sentence of it is a near miss the refusal should see (ask_refusal's `kind_miss`): "Which GPU trained X?" about
a paper that names no GPU.

The classic answer types of question answering, as ask_pool's number mark is for quantity questions.
"""

from __future__ import annotations

import re

# kind -> (the question asks for it, a sentence states one)
KINDS: dict[str, tuple[re.Pattern, re.Pattern]] = {
    "compute": (re.compile(r"\b(?:hardware|gpus?|cpus?|tpus?|computer|memory|processors?|ram)\b", re.I),
                re.compile(r"\b(?:GPUs?|CPUs?|TPUs?|GHz|\d+ ?[GT]B|RAM|NVIDIA|Intel|AMD|Tesla|Xeon|Titan|RTX|GTX|"
                           r"[VAHPK]\d{2,4}|processors?|cores?|cluster|desktop|workstation|laptop)\b")),
    "software": (re.compile(r"\b(?:programming language|framework|implemented|implementation|written in|toolkit|"
                            r"software|package)\b", re.I),
                 re.compile(r"\b(?:implemented|implementation|written in|coded in|Python|Java|C\+\+|MATLAB|Matlab|"
                            r"PyTorch|TensorFlow|Keras|JAX|Theano|Caffe|WEKA|Weka|scikit-learn|toolkit|library|"
                            r"package)\b")),
    "funding": (re.compile(r"\b(?:grants?|fund(?:ed|ing|s)?|sponsor(?:ed|s)?|financ\w+)\b", re.I),
                re.compile(r"\b(?:grants?|supported by|funded|funding|sponsored|Foundation|NSF|DARPA|NIH|ERC|"
                           r"Agency|Council)\b")),
    "license": (re.compile(r"\blicen[cs]\w*", re.I),
                re.compile(r"\b(?:licen[cs]\w*|MIT|Apache|GPL|Creative Commons|CC[- ]BY)\b")),
}
NAMES = tuple(KINDS)


def question_kind(question: str) -> str | None:
    """The first kind the question asks for (KINDS' order), or None."""
    return next((k for k, (asks, _) in KINDS.items() if asks.search(question)), None)


def sentence_kinds(sentence: str) -> tuple[bool, ...]:
    """Which kinds the sentence states (NAMES' order)."""
    return tuple(bool(states.search(sentence)) for _, states in KINDS.values())
