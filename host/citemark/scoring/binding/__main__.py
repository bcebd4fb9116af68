"""The demonstration that ``python -m citemark.scoring.binding`` runs: four claims against one passage.

A package runs its ``__main__`` module, not the ``if __name__ == "__main__"`` block of its
``__init__``; the demonstration moved here when ``binding.py`` became a package.
"""

from citemark.scoring.binding import check, describe

if __name__ == "__main__":
    passage = ("Rust enforces memory safety without a garbage collector. Mount Everest rises 8,849 m; "
               "K2, the second-highest, reaches 8,611 m. Rust was designed by Graydon Hoare, with contributions "
               "from Brendan Eich.")
    for sentence in ("Rust uses a garbage collector.", "Mount Everest is 8,611 m tall.",
                     "Rust was designed by Brendan Eich.", "Rust was designed by Graydon Hoare."):
        print(sentence, "->", list(describe(check(sentence, passage))) or "nothing to object")
