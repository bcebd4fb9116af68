#!/usr/bin/env python3
"""Self-check for bench/contrast_real (stdlib only).

Validates every line of claims.jsonl: valid UTF-8 JSON object, required fields
present, known kind and label (and a label the kind allows), page file exists,
ids unique and of the form <page>-<nn>, `changed` a substring of `claim` for false
kinds. Also checks each page is a UTF-8 HTML5 document with <main><article>, an
<h1> and a <footer>. Prints counts per kind and label; exits non-zero on a problem.
"""
import collections
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIELDS = ["id", "page", "claim", "kind", "label", "fact", "note", "changed", "page_says"]
TRUE_KINDS = {"verbatim", "paraphrase", "numeric_equivalent", "multi_sentence"}
KIND_LABELS = {
    "verbatim": {"supported"},
    "paraphrase": {"supported"},
    "numeric_equivalent": {"supported"},
    "multi_sentence": {"supported"},
    "polarity": {"contradicted"},
    "antonym": {"contradicted"},
    "neighbour_figure": {"contradicted"},
    "other_role": {"contradicted"},
    "role_reversal": {"contradicted"},
    "quantifier": {"unsupported", "contradicted"},
    "ordinal_superlative": {"unsupported", "contradicted"},
    "date_shift": {"contradicted"},
    "added_detail": {"unsupported"},
    "unaddressed": {"unsupported"},
}


def main():
    problems = []
    path = os.path.join(HERE, "claims.jsonl")
    raw = open(path, "rb").read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        print("claims.jsonl is not UTF-8: %s" % e)
        return 1
    ids = set()
    kinds = collections.Counter()
    labels = collections.Counter()
    kind_label = collections.Counter()
    pages = collections.Counter()
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            problems.append("line %d: empty line" % n)
            continue
        try:
            c = json.loads(line)
        except ValueError as e:
            problems.append("line %d: bad JSON: %s" % (n, e))
            continue
        if not isinstance(c, dict):
            problems.append("line %d: not an object" % n)
            continue
        missing = [f for f in FIELDS if f not in c]
        if missing:
            problems.append("line %d: missing %s" % (n, ", ".join(missing)))
            continue
        extra = set(c) - set(FIELDS)
        if extra:
            problems.append("line %d: unknown fields %s" % (n, ", ".join(sorted(extra))))
        for f in ["id", "page", "claim", "kind", "label", "fact", "note"]:
            if not isinstance(c[f], str) or not c[f].strip():
                problems.append("line %d: %s must be a non-empty string" % (n, f))
        cid, page, claim, kind, label = c["id"], c["page"], c["claim"], c["kind"], c["label"]
        if cid in ids:
            problems.append("line %d: duplicate id %s" % (n, cid))
        ids.add(cid)
        if not re.fullmatch(re.escape(str(page)) + r"-\d{2}", str(cid)):
            problems.append("line %d: id %s is not <page>-<nn>" % (n, cid))
        if not os.path.isfile(os.path.join(HERE, "pages", "%s.html" % page)):
            problems.append("line %d: no page file pages/%s.html" % (n, page))
        if kind not in KIND_LABELS:
            problems.append("line %d: unknown kind %r" % (n, kind))
        elif label not in KIND_LABELS[kind]:
            problems.append("line %d: label %r not allowed for kind %s" % (n, label, kind))
        if kind in TRUE_KINDS:
            if c["changed"] is not None or c["page_says"] is not None:
                problems.append("line %d: true claim should have changed/page_says null" % n)
        elif kind in KIND_LABELS:
            ch = c["changed"]
            if not isinstance(ch, str) or not ch:
                problems.append("line %d: false claim needs `changed`" % n)
            elif ch not in claim:
                problems.append("line %d: changed %r is not in the claim" % (n, ch))
            if c["page_says"] is not None and not isinstance(c["page_says"], str):
                problems.append("line %d: page_says must be a string or null" % n)
        if isinstance(claim, str) and not claim.rstrip().endswith((".", "?", "!")):
            problems.append("line %d: claim should be one full sentence" % n)
        kinds[kind] += 1
        labels[label] += 1
        kind_label[(kind, label)] += 1
        pages[page] += 1
    pdir = os.path.join(HERE, "pages")
    for fn in sorted(os.listdir(pdir)):
        if not fn.endswith(".html"):
            continue
        try:
            h = open(os.path.join(pdir, fn), "rb").read().decode("utf-8")
        except UnicodeDecodeError:
            problems.append("pages/%s: not UTF-8" % fn)
            continue
        low = h.lower()
        if not low.lstrip().startswith("<!doctype html>"):
            problems.append("pages/%s: no HTML5 doctype" % fn)
        for tag in ["<main>", "<article>", "<h1>", "<footer>", "</html>"]:
            if tag not in low:
                problems.append("pages/%s: no %s" % (fn, tag))
        npar = low.count("<p>") - low.split("<footer>")[-1].count("<p>")
        if not 5 <= npar <= 12:
            problems.append("pages/%s: %d article paragraphs" % (fn, npar))
        if fn[:-5] not in pages:
            problems.append("pages/%s: no claims" % fn)
    print("%d claims, %d pages" % (sum(kinds.values()), len(pages)))
    print("labels: " + ", ".join("%s %d" % kv for kv in sorted(labels.items())))
    for k in KIND_LABELS:
        if kinds[k]:
            by = ", ".join("%s %d" % (l, kind_label[(k, l)]) for l in sorted(KIND_LABELS[k]) if kind_label[(k, l)])
            print("  %-20s %3d  (%s)" % (k, kinds[k], by))
    if problems:
        print("\n%d problem(s):" % len(problems))
        for p in problems:
            print("  " + p)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
