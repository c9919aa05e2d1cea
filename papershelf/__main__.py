from .frontends.cli import app

app(prog_name="papershelf")
