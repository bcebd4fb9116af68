"""The binding rows' mix joins the build's, so a model card lists every set its weights saw."""

from __future__ import annotations

from train.binding_rows import with_binding


def test_a_card_lists_each_set_of_both_builds_with_its_licence_and_rows() -> None:
    mix = {"sets": {"snli_dev_test": {"licence": "CC BY-SA 4.0", "stage1": 19086}}, "heldout_by": "premise hash"}
    binding = {"rows": 3, "labels": {"contradiction": 3}, "binding": {"antonym": 3},
               "sets": {"snli_dev_test": {"licence": "CC BY-SA 4.0", "rows": 1},
                        "mnli_dev": {"licence": "OANC / CC BY-SA 3.0 (MultiNLI)", "rows": 2}}}
    merged = with_binding(mix, binding)
    assert merged["sets"]["snli_dev_test"] == {"licence": "CC BY-SA 4.0", "stage1": 19086, "binding": 1}
    assert merged["sets"]["mnli_dev"] == {"licence": "OANC / CC BY-SA 3.0 (MultiNLI)", "binding": 2}
    assert merged["binding_rows"]["rows"] == 3 and merged["heldout_by"] == "premise hash"
    assert "binding" not in mix["sets"]["snli_dev_test"]  # the build's own mix is left as it was
