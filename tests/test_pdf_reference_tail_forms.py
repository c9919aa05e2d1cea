"""What a list prints after an entry or after itself, in the forms of publishers no bench draws (refs18, issue #38):
an entry's link or identifier on a line of its own at the column's edge, in twenty forms, in a flush, a numbered
and a gapped list; a publisher's back-matter line straight after an author-year list in its size and pitch.
The link lines are read by the rules in place (`references._goes_on`): these tests hold them to forms they were
not written from.  The back-matter lines were joined to the last entry on 9487e87 (the count right, the entry not
whole); they end the list by their opening words now (`references._STATEMENT`).  PDFs made with reportlab."""

from __future__ import annotations

import pytest

from .pdf_fixtures import headed_page, read_references

SURNAMES = ["Abebe", "Brandt", "Chen", "Dubois", "Engel", "Fischer", "Garcia", "Haddad", "Ivanova", "Jansen"]
LINK_FORMS = ["https://doi.org/10.1000/xyz.{k}", "doi:10.1000/xyz.{k}", "DOI: 10.1000/xyz.{k}",
              "[DOI: 10.1000/xyz.{k}]", "(doi:10.1000/xyz.{k})", "http://www.example.org/paper{k}.pdf",
              "<http://example.org/{k}>", "Available: http://example.org/{k}",
              "[Online]. Available: http://example.org/{k}", "URL http://example.org/{k}", "PMID: 1234{k}",
              "10.1000/xyz.{k}", "arXiv preprint arXiv:1905.0{k}123.", "Preprint at https://arxiv.org/abs/1905.0{k}",
              "[cited 2020 May {k}]. Available from: http://example.org/{k}",
              "Retrieved May {k}, 2020, from http://example.org/", "doi.org/10.1000/xyz.{k}",
              "dx.doi.org/10.1000/xyz.{k}", "ISBN: 978-3-16-14841{k}-0", "Epub 2019 May {k}."]
STATEMENTS = [
    ["CRediT authorship contribution statement", "Ana Silva: Writing, review and editing. Kofi Brandt: Methodology."],
    ["Citation: Okafor M and Brandt K (2020) Observations on Soil and Thermal Response. Front. Synth. 12:101."],
    ["To cite this article: M. Okafor & K. Brandt (2020) Observations on soil, Synthetic Studies, 12:1, 101-140."],
    ["Rights and permissions", "Open Access This article is licensed under a Creative Commons Attribution License."],
    ["About this article", "Okafor, M., Brandt, K. Observations on soil. Synth Stud 12, 101 (2020)."],
    ["Edited by: Maria Rossi, University of Milan, Italy", "Reviewed by: Jan Jansen, Leiden University, Netherlands"],
    ["Address correspondence to Maria Okafor, Department of Soil Science, University of Lagos."],
    ["Financial disclosure: the authors have no financial interests to disclose."],
    ["Author Disclosure Statement", "No competing financial interests exist."],
    ["ORCID iDs", "Maria Okafor https://orcid.org/0000-0001-2345-6789"],
    ["Date of submission: 3 May 2019; date of acceptance: 12 August 2019."],
    ["Key words: soil, thermal response, sediment."],
    ["Institutional Review Board Statement: Not applicable.", "Informed Consent Statement: Not applicable."],
    ["Provenance and peer review: Not commissioned; externally peer reviewed."],
    ["Supplemental Information"],
    ["Appendix A. Supplementary data", "Supplementary data to this article can be found online."],
    ["Suggested citation: Okafor M, Brandt K. Observations on soil. Synth Stud. 2020;12:101-40."],
]


def _entry(k: int, label: str = "") -> str:
    name = SURNAMES[k % len(SURNAMES)]
    return f"{label}{name}, A. ({1990 + k}). Sediment transport in coastal systems {k}. J. Mol. Biol. 3, 10-20."


@pytest.mark.parametrize("layout", ["flush", "numbered", "gapped"])
def test_an_entrys_link_at_the_columns_edge_goes_on_with_its_entry(tmp_path, layout):
    path = tmp_path / f"links_{layout}.pdf"
    c, y = headed_page(path, paragraphs=1)
    c.setFont("Times-Roman", 8.5)
    for k, form in enumerate(LINK_FORMS):
        if y < 80:
            c.showPage()
            c.setFont("Times-Roman", 8.5)
            y = 720
        c.drawString(72, y, _entry(k, f"[{k + 1}] " if layout == "numbered" else ""))
        c.drawString(72, y - 10.5, form.format(k=k))  # at the edge the entry opens at, as a new entry would
        y -= 21 + (6 if layout == "gapped" else 0)
    refs = read_references(path, c)
    assert len(refs) == len(LINK_FORMS)
    assert all(r.text.endswith(form.format(k=k)) for k, (r, form) in enumerate(zip(refs, LINK_FORMS)))


@pytest.mark.parametrize("tail", STATEMENTS, ids=[t[0][:24] for t in STATEMENTS])
def test_a_publishers_back_matter_after_an_author_year_list_is_no_entry(tmp_path, tail):
    path = tmp_path / "tail.pdf"
    c, y = headed_page(path)
    c.setFont("Times-Roman", 8.5)
    for k in range(10):
        c.drawString(72, y, _entry(k))
        y -= 10.5
    for line in tail:  # the list's size, pitch and edge: only its words say it is no entry
        c.drawString(72, y, line)
        y -= 10.5
    refs = read_references(path, c)
    assert len(refs) == 10 and refs[-1].text == _entry(9)


def test_a_wrapped_title_opening_a_line_with_a_statements_words_stays_in_its_entry(tmp_path):
    path = tmp_path / "wrapped.pdf"
    c, y = headed_page(path)
    c.setFont("Times-Roman", 8.5)
    for k in range(8):
        c.drawString(72, y, f"{SURNAMES[k]}, A. ({1990 + k}). Barriers to written and verbal consent in trials and to")
        c.drawString(72, y - 10.5, ["informed consent in", "data sharing in", "trial registration of"][k % 3]
                     + f" coastal clinics {k}. J. Mol. Biol. 3, 10-20.")
        y -= 27
    refs = read_references(path, c)
    assert len(refs) == 8 and all(r.text.endswith("J. Mol. Biol. 3, 10-20.") for r in refs)
