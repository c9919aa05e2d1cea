"""Figures and tables: their captions, the region each sits in on its page, and a table's cells."""
