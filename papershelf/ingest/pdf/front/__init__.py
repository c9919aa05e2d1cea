"""Page 1's front matter: the printed title, the authors of the byline, the year, the DOI and the
document's own metadata."""
