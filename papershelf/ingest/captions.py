"""Moved to papershelf/captions.py (caption and label parsing is shared by the readers, the units and
search, so it lives below all three); kept importable from here."""

from ..captions import *  # noqa: F403
