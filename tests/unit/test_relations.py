"""Relations stated as nouns or converse verbs are rewritten with the relation's verb, their parties in
the verb's roles; text without such a relation, or without both parties named, is left as it is."""

import pytest

from citemark.scoring.relations import as_verbs


@pytest.mark.parametrize(
    ("text", "rewritten"),
    [
        ("The Corvid 9 is the successor to the Corvid 8.", "The Corvid 9 replaced the Corvid 8."),
        ("The Corvid 8 was the predecessor of the Corvid 9.", "The Corvid 8 was replaced by the Corvid 9."),
        ("Pellow Mining took out a £40 million loan from Harth Bank.", "Harth Bank lent £40 million to Pellow Mining."),
        ("The acquisition of Brand & Lowe by Kesson Tools closed.", "Kesson Tools bought Brand & Lowe closed."),
        ("Kesson's takeover of Brand & Lowe closed.", "Kesson bought Brand & Lowe closed."),
        ("Osk Lines sold the Petrel to Marl Shipping.", "Marl Shipping bought the Petrel from Osk Lines."),
        ("The Harriers lost to the Ospreys.", "the Ospreys beat The Harriers."),
        ("Harlow's 3–1 win over Pellow United sealed it.", "Harlow beat Pellow United sealed it."),
        ("The Larks won a narrow victory over the Kites.", "The Larks beat the Kites."),
        ("Pellow suffered a heavy defeat to Harlow Town.", "Harlow Town beat Pellow."),
        ("Anna Roe was runner-up to Mia Tess.", "Mia Tess beat Anna Roe."),
        ("Vantor is a wholly owned subsidiary of Quell Group.", "Quell Group owned Vantor."),
        ("She took over as chief executive from Tom Hale.", "She replaced Tom Hale."),
    ],
)
def test_a_relation_is_rewritten_with_its_verb(text, rewritten):
    assert as_verbs(text) == rewritten


@pytest.mark.parametrize(
    "text",
    [
        "The successor to the throne was never named.",  # no party before the relation
        "The loan was repaid in 2019.",
        "Sales lost ground to imports.",  # "lost ground" has no named parties
        "Harth Bank lent £40 million to Pellow Mining.",
    ],
)
def test_text_without_a_readable_relation_is_left_alone(text):
    assert as_verbs(text) == text
