"""Objects on real layouts (helper regions12, issue #38), from generated papers of the sixth set
(`object_pages`): a table continued into the next column of a two-column paper, text wrapped round an
object set ragged-right, and running text set smaller on a page of three narrow columns.  Each
generated object is checked as bench/synthetic_objects.py checks it (`test_pdf_region_pages._check`)."""

from __future__ import annotations

from .test_pdf_region_pages import _check


def test_a_table_continued_in_the_next_column_keeps_its_rows(tmp_path):
    """Seed 176: Table 2 runs past the foot of page 1's second column and goes on at the top of page 2's
    first; Table 4 runs past the foot of page 2's first column and goes on at the top of its second
    (on the base, the rows were looked for on the next page in the same column: lost)."""
    _check(tmp_path, 176, "Table 2", "continued_column", sixth=True)
    _check(tmp_path, 176, "Table 4", "continued_column", sixth=True)


def test_ragged_text_wrapped_round_an_object_is_no_part_of_it(tmp_path):
    """Seed 166: a table over its caption at a column's right, short ragged lines wrapped at its left
    (the base took them for the table); seed 274: a chart likewise."""
    _check(tmp_path, 166, "Table 1", "wrap_ragged", sixth=True)
    _check(tmp_path, 274, "Figure 1", "wrap_ragged", sixth=True)


def test_smaller_running_text_in_three_narrow_columns(tmp_path):
    """Seed 164 page 2: three columns, the running text set 1.5 pt smaller (7 pt in a column 19 ems
    wide: the base asked 20 ems of a justified measure): the picture above Figure 2's caption is its
    region, not the paragraph under it."""
    _check(tmp_path, 164, "Figure 2", "small_text", sixth=True)


def test_a_caption_beside_wrapped_text_on_the_title_page_keeps_its_region(tmp_path):
    """Seed 14 (and 292 of the sixth set): a figure at the right of the first page, its caption level
    with the text wrapped at its left; the title page's side strip took the caption for a sidebar, and
    the region was never attached."""
    _check(tmp_path, 14, "Figure 2", "wrap_text")
    _check(tmp_path, 292, "Figure 1", "wrap_text", sixth=True)


def test_a_paragraph_beside_a_middle_column_ends_a_table(tmp_path):
    """Seed 286 page 2 (three columns drawn turned, the third holding a few lines): the paragraph over
    Table 2 in the first column shares its baselines with the second column's lines; divided at the
    page's middle (inside the second column) they read as cells, and the table took the paragraph."""
    _check(tmp_path, 286, "Table 2", "label_caption")


def test_a_margin_caption_level_with_its_tables_foot(tmp_path):
    """Seed 262: Table 1's caption in the margin column, its first line a row under the table's last:
    the table beside it is its region (the base gave the blank margin under the caption)."""
    _check(tmp_path, 262, "Table 1", "margin_column")
