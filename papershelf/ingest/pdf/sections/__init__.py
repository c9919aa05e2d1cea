"""The paper's section structure: headings and their levels (rules, the paper's own heading styles,
a learned second opinion), run-in headings, numbering, the PDF outline, contents pages."""
