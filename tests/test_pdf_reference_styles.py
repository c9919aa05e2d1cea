"""Reference lists read by their own style (issue #38): AMS's list of names written out before a comma
and the title, a rule standing for the authors of the entry before, and an entry's label set a hair
lower than the rest of its row.  PDFs are made here with reportlab."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.references import parsed_entries

from .pdf_fixtures import _wrap, read_drawn, title_and_body

W, H = letter

ENTRIES = [
    ("Lars Allermann and Johannes Rau", "First steps in tropical intersection theory, Math. Z. 264 (2010), 633–670."),
    ("David Bayer and Ian Morrison", "Standard bases and geometric invariant theory, J. Symbolic Comput. 6 (1988)."),
    ("Grigory Mikhalkin", "Introduction to tropical geometry, notes from the IMPA lectures, 2007."),
    (None, "Tropical geometry and its applications, International Congress of Mathematicians, 2006."),
    ("Louis J. Billera, Susan P. Holmes, and Karen Vogtmann", "Geometry of the space of phylogenetic trees, "
     "Adv. in Appl. Math. 27 (2001), 733–767."),
    ("Peter Butkovic", "Max-linear systems: theory and algorithms, Springer Monographs in Mathematics, 2010."),
]



def _list_page(path, title: str, paragraphs: int, head: str, head_size: int, gap: int, size: int):
    """A page opening with a title and body text, then a list heading: the canvas and where the list
    starts, its font set."""
    c = canvas.Canvas(str(path), pagesize=letter)
    y = title_and_body(c, title, paragraphs)
    c.setFont("Times-Bold", head_size)
    c.drawString(72, y - 10, head)
    c.setFont("Times-Roman", size)
    return c, y - gap

def test_an_ams_list_with_a_rule_for_repeated_authors_and_labels_set_low(tmp_path):
    """Each entry's names written out, a comma, then the title; the fourth entry's authors printed as a
    rule (a drawn line, so its text opens with the comma), its label "4." a third of a point lower
    than the text beside it.  Six entries; each gets its own authors and title, the fourth those of
    the entry before."""
    path = tmp_path / "ams.pdf"
    c, y = _list_page(path, "Tropical Varieties for Beginners", 6, "References", 11, 30, 8)
    for n, (names, rest) in enumerate(ENTRIES, start=1):
        if names is None:
            c.drawString(72, y - 0.3, f"{n}.")
            c.line(92, y + 3, 130, y + 3)
            lines = _wrap(", " + rest, 100)
            c.drawString(132, y, lines[0])
        else:
            c.drawString(72, y, f"{n}.")
            lines = _wrap(f"{names}, {rest}", 100)
            c.drawString(88, y, lines[0])
        for more in lines[1:]:
            y -= 10
            c.drawString(88, y, more)
        y -= 12
    refs = read_drawn(path, c).references
    assert len(refs) == 6
    assert [r.authors for r in refs] == [["Lars Allermann", "Johannes Rau"], ["David Bayer", "Ian Morrison"],
                                         ["Grigory Mikhalkin"], ["Grigory Mikhalkin"],
                                         ["Louis J. Billera", "Susan P. Holmes", "Karen Vogtmann"], ["Peter Butkovic"]]
    assert refs[3].title == "Tropical geometry and its applications"
    assert refs[0].title == "First steps in tropical intersection theory"


def test_a_list_of_surnames_and_initials_is_no_list_of_names_written_out():
    """"Smith, J., Doe, A.: Title" and "Smith J, Doe A. Title" lists keep their own reading."""
    refs = parsed_entries(["[1] Nassar, A., Lysak, M.: A study of graphs. In: Proc. GD, pp. 1–10 (2019)",
                           "[2] Mori H, Takio K. Protein kinases in the cell. J Biol Chem. 2001;12:1-5.",
                           "[3] Smith, J. (2001). A title of a study. Journal 3, 4–5.",
                           "[4] ——— (2003). Another title. Journal 5, 1–2.",
                           "[5] Lee, K., Park, S.: Yet another title. Nature 5, 1–2 (2004)"])
    assert [r.authors[:1] for r in refs] == [["Nassar, A"], ["Mori, H"], ["Smith, J"], ["Smith, J"], ["Lee, K"]]


def test_a_title_in_capitals_after_a_lone_name_is_no_second_author():
    """In a list of names written out, the last of several names follows "and": a title in capitals
    after one name ("Peter Butkovic, Max-Linear Systems, …") is the title."""
    refs = parsed_entries([f"{n}. {names}, {rest}" for n, (names, rest) in enumerate(
        [(a or "Grigory Mikhalkin", r) for a, r in ENTRIES[:3] + ENTRIES[4:]]
        + [("Peter Butkovic", "Max-Linear Systems, Springer Monographs in Mathematics, 2010.")], start=1)])
    assert refs[-1].authors == ["Peter Butkovic"]
    assert refs[-1].title == "Max-Linear Systems"


KEYED = [
    ("ABTZ13", "Haim Avron, Christos Boutsidis, Sivan Toledo, and Anastasios Zouzias. Efficient dimensionality "
     "reduction for canonical correlation analysis. In Proceedings of ICML, 2013."),
    ("AC09", "Nir Ailon and Bernard Chazelle. The fast Johnson-Lindenstrauss transform and approximate nearest "
     "neighbors. SIAM J. Comput., 39(1):302-322, 2009."),
    ("Ach03", "Dimitris Achlioptas. Database-friendly random projections. J. Comput. Syst. Sci., 66(4), 2003."),
    ("BBDS12", "Jeremiah Blocki, Avrim Blum, Anupam Datta, and Or Sheffet. The Johnson-Lindenstrauss transform "
     "itself preserves differential privacy. In FOCS, pages 410-419, 2012."),
    ("CW13", "Kenneth L. Clarkson and David P. Woodruff. Low rank approximation and regression in input sparsity "
     "time. In STOC, pages 81-90, 2013."),
    ("Kle05", "Jon Kleinberg. An impossibility theorem for clustering. In NIPS, 2005."),
    ("WZ13", "David P. Woodruff and Qin Zhang. Subspace embeddings and regression using exponential random "
     "variables. In COLT, 2013."),
]


def test_a_list_keyed_by_bracketed_labels_set_flush_right_is_cut_at_each_key(tmp_path):
    """An alphabetic list ("[ABTZ13] Haim Avron, …"): each key set flush right in a column of its own,
    the entries' text at one indent, so neither a hanging indent nor a gap tells the entries apart;
    the keys, sorted as such a list is, do."""
    path = tmp_path / "keyed.pdf"
    c, y = _list_page(path, "Sparse Sketches for Beginners", 4, "References", 12, 32, 10)
    for key, text in KEYED:
        c.drawRightString(126, y, f"[{key}]")
        for ln in _wrap(text, 80):
            c.drawString(130, y, ln)
            y -= 12
    refs = read_drawn(path, c).references
    assert [r.text.split("]")[0] for r in refs] == [f"[{key}" for key, _ in KEYED]
    assert refs[1].authors == ["Nir Ailon", "Bernard Chazelle"] and refs[1].year == 2009


FLUSH = [
    ["World Health Organization. Global report on diabetes. Geneva: WHO; 2016.",
     "Available from: https://www.who.int/publications/i/item/9789241565257."],
    ["Ahmed S, Brown T. Foot ulcers in rural clinics. Int Wound J. 2019;16(2):101-9.",
     "doi 10.1111/iwj.13001"],
    ["Chen L, Diaz M, Evans R. Offloading and healing time. Diabet Med. 2020;37:55-62. https://doi.org/10.1111/",
     "dme.14120"],
    ["Fischer K. Dressings for chronic wounds: a review. Adv Skin Care. 2021;34(5):240-8."],
]


def test_a_flush_lists_links_go_on_with_their_entry_and_statements_after_it_are_no_entries(tmp_path):
    """A list set flush left, entries apart by a gap: a line opening "Available from:", a DOI on its own
    line and the rest of a link broken at a line's end go on with their entry; the statements printed
    after the list (ethical approval, consent, availability of data) are no entries."""
    path = tmp_path / "flush.pdf"
    c, y = _list_page(path, "Wound Care in Rural Clinics", 4, "References", 12, 32, 10)
    for entry in FLUSH:
        for ln in entry:
            c.drawString(72, y, ln)
            y -= 12
        y -= 6
    for ln in ("Ethical approval", "Not applicable; no patient data were used.", "Consent for publication",
               "All authors agreed to publication.", "Availability of data and materials",
               "The data are available from the corresponding author."):
        c.drawString(72, y, ln)
        y -= 12
    refs = read_drawn(path, c).references
    assert len(refs) == 4
    assert refs[0].text.endswith("9789241565257.") and refs[1].text.endswith("iwj.13001")
    assert refs[2].text.endswith("10.1111/dme.14120") and refs[3].text.startswith("Fischer K.")


def test_a_list_headed_in_spanish_as_literatura_citada_is_found(tmp_path):
    """"Literatura citada" (Spanish and Portuguese journals) heads the list as "References" does."""
    path = tmp_path / "es.pdf"
    c, y = _list_page(path, "Manejo de heridas en clínicas rurales", 4, "Literatura citada", 12, 32, 10)
    for entry in FLUSH[1:]:
        for k, ln in enumerate(_wrap(" ".join(entry), 80)):
            c.drawString(72 if k == 0 else 84, y, ln)
            y -= 12
    refs = read_drawn(path, c).references
    assert [r.text[:6] for r in refs] == ["Ahmed ", "Chen L", "Fische"]


def test_a_key_alone_on_its_line_or_broken_by_a_raised_mark_still_opens_an_entry():
    """"[BJ03]" alone on its line (a rule stands for the authors after it) and "[H^+" | "92] Paul …" (a
    raised mark broke the key over two lines) open entries of a keyed list."""
    from papershelf.ingest.references import split_keyed

    texts = ["[Ada93] Stephen Adams. Efficient sets. J. Funct. Programming, 1993.", "[BJ00] D. Bisch and V. Jones,",
             "Planar algebras, Duke Math. J., 2000.", "[BJ03]", ", Planar algebras II, Adv. Math., 2003.", "[H^+",
             "92] Paul Hudak et al. Report on Haskell. SIGPLAN Notices, 1992.",
             "[Jon92] Richard Jones. Tail recursion.", "[Ram92] Rajeev Raman. Eliminating amortization. 1992."]
    entries = split_keyed(texts)
    assert entries is not None
    assert [e.split("]")[0] for e in entries] == ["[Ada93", "[BJ00", "[BJ03", "[H^+ 92", "[Jon92", "[Ram92"]
