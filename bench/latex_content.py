"""The words of bench/latex_papers.py's generated papers: names of many origins, affiliations,
research domains (titles, section names, body vocabulary), references.

Names carry what trips author readers: accents, particles ("van der", "de la", "dos"),
hyphenated given and family names, romanized Chinese and Korean names, initials, apostrophes.
"""

from __future__ import annotations

import random

NAMES = [
    ("Sofía", "Martínez"), ("Jan", "van der Berg"), ("María José", "de la Cruz"), ("Anne-Marie", "Dubois"),
    ("Wei", "Zhang"), ("Xiaoming", "Liu"), ("Ji-hoon", "Park"), ("Seo-yeon", "Kim"), ("J. R.", "Whitfield"),
    ("Maria K.", "Olsen"), ("Björn", "Åkesson"), ("Zoë", "Lefèvre"), ("Oluwaseun", "Adeyemi"),
    ("Priya", "Raghavan"), ("Thanh Huong", "Nguyen"), ("Hiroshi", "Tanaka"), ("Yuki", "Sato"),
    ("Łukasz", "Nowak"), ("Jiří", "Dvořák"), ("Ana", "García-López"), ("Pieter", "de Vries"),
    ("Ludwig", "von Stein"), ("Ahmed", "El-Sayed"), ("Fatima", "Al-Mansouri"), ("Siobhán", "O'Connor"),
    ("Chen", "Li"), ("Min-jun", "Lee"), ("D. A.", "Kowalczyk"), ("Erik", "Lindqvist"), ("Ngozi", "Okonkwo"),
    ("Rafael", "dos Santos"), ("Giulia", "De Luca"), ("Kwame", "Mensah"), ("Aleksandr", "Petrov"),
    ("Ingrid", "Bjørnstad"), ("Hannah", "Schäfer-Kühn"), ("Raj", "Patel"), ("Emily", "Carter"),
    ("Liang", "Chen"), ("Mei", "Lin"), ("Daniel", "Müller"), ("Marc-André", "Tremblay"),
    ("Isabel", "Fernández"), ("Kenji", "Watanabe"), ("Aisha", "Bello"), ("Tiago", "Ferreira"),
    ("Hye-jin", "Choi"), ("Sven", "Eriksson"), ("Lucía", "Romero"), ("Paul", "O'Neill"),
    ("Nikos", "Papadopoulos"), ("Arjun", "Mehta"), ("Yan", "Wang"), ("Jun", "Wu"), ("Grace", "Okafor"),
    ("Noah", "Fischer"), ("Laura", "Rossi"), ("Mateus", "Silva"), ("Sarah", "Cohen"), ("Dmitri", "Volkov"),
    ("Eun-ji", "Jung"), ("Thomas", "Wright"), ("A.", "Ramírez"), ("Zhi-Wei", "Huang"), ("Katarzyna", "Wójcik"),
    ("Mehdi", "Rahimi"), ("Leila", "Haddad"), ("Camille", "Moreau"), ("Olga", "Ivanova"), ("Tuan", "Tran"),
    ("Samuel", "Ndlovu"), ("Elena", "Popescu"), ("Javier", "Ortega"), ("Helga", "Sørensen"),
    ("Rohan", "Iyer"), ("Yasmin", "Khalil"), ("Francesca", "Bianchi"), ("Kai", "Schmidt"), ("Nadia", "Hussain"),
    ("M. L.", "Hartmann"), ("Benjamin", "Adler"), ("Chloé", "Girard"), ("Haruto", "Suzuki"), ("Xin", "Zhou"),
]

_A = [
    ("Department of Computer Science", "University of Toronto", "40 St. George Street", "Toronto", "M5S 2E4",
     "Canada", "cs.toronto.edu"),
    ("School of Physics and Astronomy", "University of Birmingham", "Edgbaston", "Birmingham", "B15 2TT",
     "United Kingdom", "bham.ac.uk"),
    ("Instituto de Biofísica", "Universidade de Lisboa", "Campo Grande", "Lisboa", "1749-016", "Portugal",
     "ulisboa.pt"),
    ("Faculty of Electrical Engineering", "Delft University of Technology", "Mekelweg 4", "Delft", "2628 CD",
     "The Netherlands", "tudelft.nl"),
    ("Department of Earth Sciences", "ETH Zürich", "Sonneggstrasse 5", "Zürich", "8092", "Switzerland",
     "erdw.ethz.ch"),
    ("School of Information Science", "Peking University", "5 Yiheyuan Road", "Beijing", "100871", "China",
     "pku.edu.cn"),
    ("Graduate School of Engineering", "Kyoto University", "Katsura", "Kyoto", "615-8540", "Japan",
     "kyoto-u.ac.jp"),
    ("Department of Statistics", "Seoul National University", "1 Gwanak-ro", "Seoul", "08826", "South Korea",
     "snu.ac.kr"),
    ("Centre for Marine Ecology", "University of Cape Town", "Rondebosch", "Cape Town", "7701", "South Africa",
     "uct.ac.za"),
    ("Laboratoire d'Informatique", "Université Paris-Saclay", "15 rue Georges Clemenceau", "Orsay", "91405",
     "France", "universite-paris-saclay.fr"),
    ("Max Planck Institute for Astronomy", "Max Planck Society", "Königstuhl 17", "Heidelberg", "69117",
     "Germany", "mpia.de"),
    ("Department of Mechanical Engineering", "Indian Institute of Technology Bombay", "Powai", "Mumbai",
     "400076", "India", "iitb.ac.in"),
    ("Instituto de Física", "Universidade de São Paulo", "Rua do Matão 1371", "São Paulo", "05508-090",
     "Brazil", "if.usp.br"),
    ("Research Division", "Nordic Institute for Climate Studies", "Allégaten 70", "Bergen", "5007", "Norway",
     "nics.no"),
    ("Department of Biomedical Engineering", "Johns Hopkins University", "3400 N. Charles Street",
     "Baltimore, MD", "21218", "USA", "jhu.edu"),
    ("School of Computing", "National University of Singapore", "13 Computing Drive", "Singapore", "117417",
     "Singapore", "comp.nus.edu.sg"),
    ("Department of Chemistry", "University of Warsaw", "Pasteura 1", "Warsaw", "02-093", "Poland", "uw.edu.pl"),
    ("Institute of Neuroinformatics", "University of Zagreb", "Unska 3", "Zagreb", "10000", "Croatia",
     "unizg.hr"),
    ("Department of Applied Mathematics", "Universidad de Chile", "Beauchef 851", "Santiago", "8370456",
     "Chile", "dim.uchile.cl"),
    ("Data Science Lab", "Aalto University", "Konemiehentie 2", "Espoo", "02150", "Finland", "aalto.fi"),
]
AFFILIATIONS = [dict(zip(("dept", "inst", "street", "city", "postcode", "country", "domain"), a, strict=True))
                for a in _A]

DOMAINS = {
    "ml": {
        "field": "Machine Learning", "journal": "Journal of Machine Intelligence",
        "titles": ["Learning {0} with {1}", "{0} for Robust {1}", "On the Limits of {0} in {1}",
                   "Scalable {0} via {1}"],
        "terms": ["Contrastive Pretraining", "Sparse Attention", "Domain Adaptation", "Retrieval Augmentation",
                  "Graph Neural Networks", "Low-Resource Translation", "Active Learning"],
        "sections": ["Related Work", "Problem Formulation", "Proposed Method", "Experimental Setup",
                     "Results and Analysis", "Ablation Studies", "Background"],
        "subsections": ["Datasets", "Baselines", "Implementation Details", "Evaluation Metrics", "Error Analysis",
                        "Training Objective", "Model Architecture", "Qualitative Examples"],
        "closing": ["Conclusion", "Conclusions", "Conclusion and Future Work", "Discussion"],
        "figure": "Accuracy of each model as the training set grows.",
        "table": "Results on the held-out test sets.", "columns": "Method & Precision & Recall & Time (s)",
        "methods": ["Baseline", "Ours (small)", "Ours (full)"],
        "nouns": ["model", "encoder", "objective", "benchmark", "representation", "classifier", "corpus",
                  "gradient", "embedding", "policy"],
        "verbs": ["improves", "reduces", "captures", "predicts", "regularizes", "aligns", "outperforms"],
        "adjs": ["sparse", "robust", "pretrained", "multilingual", "noisy", "latent", "efficient"],
    },
    "astro": {
        "field": "Astrophysics", "journal": "Astronomy Letters and Reports",
        "titles": ["{0} in the Outskirts of {1}", "Constraints on {0} from {1}", "A Survey of {0} and {1}"],
        "terms": ["Dwarf Galaxies", "Stellar Streams", "Cold Gas Accretion", "Radio Transients",
                  "Exoplanet Atmospheres", "Globular Clusters", "Weak Lensing"],
        "sections": ["Observations", "Data Reduction", "Sample Selection", "Modelling", "Results",
                     "Comparison with Previous Work", "Systematic Uncertainties"],
        "subsections": ["Photometry", "Spectroscopic Follow-up", "Source Extraction", "Mass Estimates",
                        "Dust Extinction", "Light Curves", "Completeness"],
        "closing": ["Summary", "Conclusions", "Summary and Outlook"],
        "figure": "Colour-magnitude diagram of the selected sources.",
        "table": "Properties of the observed fields.", "columns": "Field & Depth & Seeing & Exposure (h)",
        "methods": ["North", "South", "Deep"],
        "nouns": ["halo", "spectrum", "luminosity", "redshift", "cluster", "survey", "flux", "population"],
        "verbs": ["constrains", "traces", "dominates", "follows", "exceeds", "suppresses"],
        "adjs": ["faint", "metal-poor", "extended", "compact", "ionized", "young"],
    },
    "physics": {
        "field": "Condensed Matter Physics", "journal": "Physical Review Materials Letters",
        "titles": ["{0} in {1}", "Observation of {0} near {1}", "Tunable {0} in Layered {1}"],
        "terms": ["Topological Phases", "Spin Liquids", "Superconducting Films", "Moiré Heterostructures",
                  "Phonon Transport", "Quantum Criticality", "Magnetic Skyrmions"],
        "sections": ["Theoretical Model", "Experimental Methods", "Sample Preparation", "Results",
                     "Numerical Simulations", "Discussion of the Phase Diagram"],
        "subsections": ["Transport Measurements", "Band Structure", "Finite-Size Scaling", "Thermal Conductivity",
                        "Symmetry Analysis", "Device Fabrication"],
        "closing": ["Conclusion", "Summary", "Outlook"],
        "figure": "Resistance as a function of temperature for three samples.",
        "table": "Fitted parameters for each sample.", "columns": "Sample & T (K) & Gap (meV) & Error",
        "methods": ["A", "B", "C"],
        "nouns": ["lattice", "gap", "order parameter", "field", "susceptibility", "interface", "excitation"],
        "verbs": ["suppresses", "enhances", "induces", "breaks", "stabilizes", "shifts"],
        "adjs": ["anisotropic", "thin", "disordered", "twisted", "metallic", "insulating"],
    },
    "bio": {
        "field": "Computational Biology", "journal": "Journal of Cellular Systems",
        "titles": ["{0} Regulates {1}", "Mapping {0} across {1}", "The Role of {0} in {1}"],
        "terms": ["Macrophage Polarization", "Chromatin Accessibility", "Gut Microbiota", "Coral Bleaching",
                  "Neural Crest Migration", "Antibiotic Tolerance", "Root Development"],
        "sections": ["Materials and Methods", "Results", "Study Population", "Statistical Analysis",
                     "Background", "Experimental Design"],
        "subsections": ["Cell Culture", "Sequencing and Alignment", "Animal Models", "Imaging",
                        "Differential Expression", "Sample Collection", "Ethics Statement"],
        "closing": ["Discussion", "Conclusions", "Concluding Remarks"],
        "figure": "Expression of the marker genes over time after treatment.",
        "table": "Characteristics of the study cohorts.", "columns": "Cohort & Age & Female (pct) & Samples",
        "methods": ["Control", "Treated", "Recovered"],
        "nouns": ["expression", "tissue", "pathway", "cohort", "receptor", "phenotype", "strain", "marker"],
        "verbs": ["increases", "modulates", "inhibits", "correlates with", "promotes", "precedes"],
        "adjs": ["inflammatory", "transient", "conserved", "resistant", "mutant", "baseline"],
    },
    "systems": {
        "field": "Computer Systems", "journal": "Transactions on Distributed Computing",
        "titles": ["{0} for {1}", "Rethinking {0} in {1}", "Fast and Correct {0} under {1}"],
        "terms": ["Log-Structured Storage", "Consensus Protocols", "Serverless Functions", "Cache Coherence",
                  "Stream Processing", "Persistent Memory", "Edge Offloading"],
        "sections": ["Motivation", "Design", "Implementation", "Evaluation", "Related Work",
                     "System Overview", "Threat Model"],
        "subsections": ["Workloads", "Latency Breakdown", "Fault Tolerance", "Scalability",
                        "Microbenchmarks", "Recovery", "Memory Overhead"],
        "closing": ["Conclusion", "Conclusions", "Lessons Learned"],
        "figure": "Throughput as the number of clients grows.",
        "table": "Latency percentiles under the mixed workload.", "columns": "System & p50 (ms) & p99 (ms) & Ratio",
        "methods": ["Baseline", "Prototype", "Tuned"],
        "nouns": ["replica", "request", "scheduler", "log", "partition", "cache", "transaction", "node"],
        "verbs": ["batches", "amortizes", "replicates", "bounds", "tolerates", "saturates"],
        "adjs": ["durable", "concurrent", "remote", "skewed", "idle", "lock-free"],
    },
}


def _sentence(rng: random.Random, d: dict) -> str:
    n = d["nouns"]
    pattern = rng.choice([
        "The {a} {n1} {v} the {n2} of each {n3}",
        "In our experiments, a {a} {n1} {v} the {n2}",
        "We observe that the {n1} {v} the {a} {n2} across all settings",
        "This {n1} {v} the {n2} only when the {n3} is {a}",
        "Prior work suggests that the {a} {n1} {v} the {n2}",
        "Figure and table results show how the {n1} {v} the {n2} over {k} runs",
    ])
    return pattern.format(a=rng.choice(d["adjs"]), n1=rng.choice(n), n2=rng.choice(n), n3=rng.choice(n),
                          v=rng.choice(d["verbs"]), k=rng.randint(3, 40)) + "."


def body_paragraphs(rng: random.Random, d: dict, paragraphs: int, sentences: int) -> list[str]:
    return [" ".join(_sentence(rng, d) for _ in range(sentences + rng.randint(0, 3))) for _ in range(paragraphs)]


def bibliography(rng: random.Random, d: dict, author_year: bool = False) -> str:
    """A numbered reference list, or one with natbib's author-year labels for the classes that want them."""
    items = []
    for k in range(1, rng.randint(6, 12) + 1):  # the text cites r1..r6
        who = rng.sample(NAMES, rng.randint(1, 3))
        names = ", ".join(f"{g[0]}. {f}" for g, f in who)
        title = rng.choice(d["titles"]).format(*rng.sample(d["terms"], 2))
        year = rng.randint(1990, 2023)
        label = f"[{who[0][1]}{' et al.' if len(who) > 1 else ''}({year})]" if author_year else ""
        items.append(f"\\bibitem{label}{{r{k}}} {names}, ``{title},'' \\emph{{{d['journal']}}}, vol. {rng.randint(1, 60)}, "
                     f"pp. {rng.randint(1, 400)}--{rng.randint(401, 900)}, {year}.")
    return "\\begin{thebibliography}{99}\n" + "\n".join(items) + \
        "\n\\end{thebibliography}\n"
