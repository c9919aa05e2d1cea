"""Front ends: thin adapters over `papershelf.Library`, one module each.

    cli.py   the `papershelf` command (Typer + Rich)

Each front end turns its input into `Library` calls and serializes the typed
models it gets back with their `to_dict()`; errors map through
`PapershelfError.exit_code` / `.http_status`.  No front end talks to a store.
"""
