"""The text of a page as printed: pdfium's glyphs repaired (ligatures, accents, symbol fonts, control
codes), gaps and hyphens, and the page's lines with their size and weight."""
