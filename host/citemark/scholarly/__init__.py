"""Scholarly references: does the cited paper exist, has it been retracted, where is its open full text.

One module per concern: ``records`` (the canonical metadata every service is read
into), ``service`` (the polite, rate-limited, cached HTTP client the three service
clients share), ``crossref`` / ``arxiv`` / ``openalex`` (one client each),
``references`` (BibTeX, Markdown / plain References lists, LaTeX ``\\bibitem``),
``matching`` (does a record match a reference), ``checker`` (one status per
reference and a grade for the list) and ``fulltext`` (a cited DOI or arXiv id →
the paper's readable text, with its retraction record).

What leaves the machine is the reference (a DOI, an arXiv id, or a title with its
first author and year), never the answer it was cited in.
"""
