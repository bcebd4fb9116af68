"""The English vocabulary the checks share: the stop words, the months and the days.

Only lists that mean the same thing live here. Each check keeps its own list where it
needs a different one on purpose, and says why beside it: the binding checks' ``STOP``
(``binding/grammar``) keeps quantifiers, order and comparison words, which change who
did what; the alignment's ``SKIPPABLE`` (``align``) keeps them too, since they change
what a claim says; a comparison's sides (``comparisons``), a table's headings
(``tables``) and a sentence's first words (``guards``) each drop only what cannot name
the thing they look for.
"""

from __future__ import annotations

__all__ = ["MONTHS", "MONTH_ABBREVIATIONS", "STOP_WORDS", "WEEKDAYS"]

#: Words that carry no content for retrieval and coverage: function words, pronouns, auxiliaries,
#: and the hedges and connectives that any passage may hold ("according", "including", "however").
STOP_WORDS = frozenset(
    ["a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my", "myself", "nor", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "themselves", "then", "there", "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "very", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your", "yours", "yourself", "yourselves", "one", "ones", "s", "t", "d", "ll", "m", "re", "ve", "us", "may", "might", "must", "shall", "also", "according", "including", "include", "includes", "included", "many", "much", "several", "well", "like", "however", "since", "although", "though", "yet", "via", "per", "among", "within", "without", "upon", "onto", "whose"]
)

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
#: The abbreviations of month names in running text, and the month each names ("may" is its own).
MONTH_ABBREVIATIONS = {"jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june",
                       "jul": "july", "aug": "august", "sep": "september", "sept": "september", "oct": "october",
                       "nov": "november", "dec": "december"}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
