"""What differs between the backends' SQL where the statements are otherwise the same."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any


class Dialect:
    """SQLite's spelling (the default); `PostgresDialect` overrides what PostgreSQL spells differently."""

    mark = "?"
    batch: int | None = 500  # ids per IN list (SQLite limits a statement's parameters); None: any number

    def marks(self, n: int) -> str:
        return ", ".join([self.mark] * n)

    def named(self, name: str) -> str:
        return f":{name}"

    def any(self, column: str, values: Sequence[Any]) -> tuple[str, list]:
        """`column` is one of `values`: the SQL and its parameters."""
        return f"{column} IN ({self.marks(len(values)) or 'NULL'})", list(values)

    def any_named(self, column: str, name: str, values: Sequence[Any]) -> tuple[str, dict]:
        """As `any`, with named parameters (`name0`, `name1`, ...)."""
        names = {f"{name}{i}": v for i, v in enumerate(values)}
        return f"{column} IN ({', '.join(self.named(n) for n in names) or 'NULL'})", names

    def batches(self, values: Sequence[Any]) -> Iterator[list]:
        if self.batch is None:
            if values:
                yield list(values)
            return
        for i in range(0, len(values), self.batch):
            yield list(values[i:i + self.batch])

    collation = ""  # the collation that orders by code point ("": SQLite's default, BINARY)

    def collate(self, column: str) -> str:
        """A column ordered by code point (SQLite's BINARY; PostgreSQL's "C", not the locale)."""
        return f"{column} COLLATE {self.collation}" if self.collation else column

    def nocase_equal(self, column: str) -> str:
        return f"{column} = {self.mark} COLLATE NOCASE"

    def nocase_like(self, column: str) -> str:
        return f"{column} LIKE {self.mark} ESCAPE '\\'"


    def json_elements(self, column: str, alias: str) -> tuple[str, str]:
        """A FROM item listing the text elements of the JSON array in text `column`, and the
        expression of one element."""
        return f"json_each({column}) AS {alias}", f"{alias}.value"

    def in_list(self, column: str, values: Sequence[Any]) -> tuple[str, list]:
        """`column` is one of `values`, however many: one parameter (a JSON array in SQLite)."""
        return f"{column} IN (SELECT value FROM json_each({self.mark}))", [json.dumps(list(values))]

    def json_text(self, column: str, *keys: str) -> str:
        """The text at `keys` inside the JSON object in text `column` (NULL when absent)."""
        return f"json_extract({column}, '$.{'.'.join(keys)}')"

    def clean(self, value: Any) -> Any:
        """A value as the backend can store it."""
        return value

    def upsert(self, table: str, columns: Sequence[str], key: Sequence[str],
               update: Sequence[str] | None = None) -> str:
        """INSERT one row, replacing the non-key columns of the row with the same key (or, with
        `update=()`, keeping that row).  Both backends understand ``ON CONFLICT``."""
        update = [c for c in columns if c not in key] if update is None else update
        action = ("DO UPDATE SET " + ", ".join(f"{c}=excluded.{c}" for c in update)) if update else "DO NOTHING"
        return (f"INSERT INTO {table}({', '.join(columns)}) VALUES ({self.marks(len(columns))}) "
                f"ON CONFLICT ({', '.join(key)}) {action}")

    def executemany(self, db: Any, sql: str, rows: list) -> None:
        if rows:
            db.executemany(sql, rows)


class SqlConnection:
    """What the shared SQL needs of a backend: its dialect, queries and transactions."""

    sql: Dialect

    def query(self, sql: str, params: Any = ()) -> list[Any]:
        raise NotImplementedError

    def transaction(self) -> AbstractContextManager[Any]:
        raise NotImplementedError


class PostgresDialect(Dialect):
    mark = "%s"
    batch = None
    collation = '"C"'

    def named(self, name: str) -> str:
        return f"%({name})s"

    def any(self, column: str, values: Sequence[Any]) -> tuple[str, list]:
        return f"{column} = ANY(%s)", [list(values)]

    def any_named(self, column: str, name: str, values: Sequence[Any]) -> tuple[str, dict]:
        return f"{column} = ANY(%({name})s)", {name: list(values)}

    def nocase_equal(self, column: str) -> str:
        return f"lower({column}) = lower(%s)"  # SQLite's NOCASE folds ASCII only; lower() folds all

    def nocase_like(self, column: str) -> str:
        return f"lower({column}) LIKE lower(%s)"


    def json_elements(self, column: str, alias: str) -> tuple[str, str]:
        return f"json_array_elements_text({column}::json) AS {alias}(value)", f"{alias}.value"

    def in_list(self, column: str, values: Sequence[Any]) -> tuple[str, list]:
        return self.any(column, values)

    def json_text(self, column: str, *keys: str) -> str:
        path = "".join(f"->'{k}'" for k in keys[:-1])
        return f"({column}::json){path}->>'{keys[-1]}'"

    def clean(self, value: Any) -> Any:
        """PostgreSQL text cannot hold NUL characters (SQLite can), so they are dropped on the way in;
        flags are integers, as in SQLite."""
        if isinstance(value, bool):
            return int(value)
        return value.replace("\x00", "") if isinstance(value, str) else value

    def executemany(self, db: Any, sql: str, rows: list) -> None:
        if rows:
            with db.cursor() as cur:
                cur.executemany(sql, rows)
