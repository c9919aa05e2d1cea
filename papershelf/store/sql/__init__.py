"""The SQL both backends share: one core written once, a small dialect per backend.

SQLite and PostgreSQL hold the same tables (units, manifests, sources, labels, spaces, build
state) and answer the same questions about them in the same SQL, apart from placeholders,
``IN`` lists, collation, case-insensitive matching and batching.  `Dialect` says those;
`SqlPapers` (papers.py) and `SqlEmbeddings` (embeddings.py) are the shared methods.  Each backend
keeps only what really differs: its connection and migrations, its lexical index (FTS5 /
tsvector), how vectors are stored and searched, and how builders coordinate.
"""

from .dialect import Dialect, PostgresDialect, SqlConnection
from .embeddings import SqlEmbeddings
from .papers import SqlPapers

__all__ = ["Dialect", "PostgresDialect", "SqlConnection", "SqlEmbeddings", "SqlPapers"]
