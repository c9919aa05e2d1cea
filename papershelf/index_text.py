"""The text a lexical index reads: CJK runs as overlapping character bigrams.

Chinese and Japanese are written without spaces, so a word tokenizer (FTS5's unicode61,
PostgreSQL's parsers) makes a whole run of Han, kana or Hangul one token, and a search for a
word inside that run finds nothing.  The standard remedy in IR (Lucene's CJKBigramFilter,
Elasticsearch's ``cjk`` analyzer) is to index each run as its overlapping two-character
pieces: "深度学习模型" -> "深度 度学 学习 习模 模型".  Applying the same function to the query
turns a CJK word into the bigrams it is made of, so a word matches every run that contains
it, a phrase of bigrams matches exactly that substring, and BM25 ranks by how many of the
query's bigrams a unit holds.  A run of one character stays one token.

Everything that is not CJK passes through unchanged (English is indexed exactly as before),
except full-width ASCII ("ＢＥＲＴ", "１２"), which CJK text often uses and which becomes
plain ASCII.  A CJK run and a Latin word written together ("BERT模型") are split apart.

This is the one place the rule lives: both backends' write paths and every query go
through `index_text` (or `index_tokens`, for a backend that keeps its own postings).
"""

from __future__ import annotations

import re

# Han (CJK Unified Ideographs, extension A, compatibility), Hiragana, Katakana (and its
# phonetic extensions, the prolonged sound mark), Hangul syllables and jamo.
_CJK_CLASS = (r"\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
              r"\u1100-\u11ff\u3130-\u318f\uac00-\ud7af\uff66-\uff9f")
CJK_CHAR = f"[{_CJK_CLASS}]"  # a regular-expression class, for patterns that must tell CJK apart
CJK_RUN = re.compile(f"[{_CJK_CLASS}]+")
_HAS_CJK = re.compile(f"[{_CJK_CLASS}]")
_FULL_WIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}
_SPECIAL = re.compile(f"[{_CJK_CLASS}\uff01-\uff5e]")
_WORD = re.compile(r"\w+")


def has_cjk(text: str) -> bool:
    return bool(_HAS_CJK.search(text or ""))


def bigrams(run: str) -> list[str]:
    """A CJK run's overlapping two-character pieces (the run itself when it is one character)."""
    if len(run) < 2:
        return [run] if run else []
    return [run[i:i + 2] for i in range(len(run) - 1)]


def index_text(text: str) -> str:
    """`text` as the index reads it: CJK runs replaced by their bigrams, set apart by spaces."""
    if not text or text.isascii() or not _SPECIAL.search(text):
        return text  # the common case, English: one scan of the text, nothing changed
    text = text.translate(_FULL_WIDTH)
    if not _HAS_CJK.search(text):
        return text
    return CJK_RUN.sub(lambda m: " " + " ".join(bigrams(m.group())) + " ", text)


def index_tokens(text: str) -> list[str]:
    """The lower-cased word tokens of `index_text(text)`, for a backend that builds its own postings
    (stemming, if any, is that backend's business)."""
    return [w.lower() for w in _WORD.findall(index_text(text))]
