"""The one source classifier and the local-file policies every door applies."""

from __future__ import annotations

import os

import pytest

from citemark.errors import InputError, LocalFileRefused
from citemark.sources.classify import SourceKind, citation_for, classify
from citemark.sources.localfiles import LocalFilePolicy


@pytest.mark.parametrize(
    ("source", "kind", "field", "value"),
    [
        ("https://example.org/a?b=1", SourceKind.URL, "url", "https://example.org/a?b=1"),
        ("http://example.org", SourceKind.URL, "url", "http://example.org"),
        ("docs.python.org/3/library", SourceKind.URL, "url", "https://docs.python.org/3/library"),
        ("example.com", SourceKind.URL, "url", "https://example.com"),
        ("ftp://example.org/x", SourceKind.URL, "url", "ftp://example.org/x"),
        ("doi:10.1000/xyz.123", SourceKind.DOI, "url", "https://doi.org/10.1000/xyz.123"),
        ("10.1038/nature12373", SourceKind.DOI, "url", "https://doi.org/10.1038/nature12373"),
        ("https://doi.org/10.1038/nature12373", SourceKind.DOI, "url", "https://doi.org/10.1038/nature12373"),
        ("2607.22693", SourceKind.ARXIV, "url", "https://arxiv.org/pdf/2607.22693"),
        ("arXiv:2101.00001v2", SourceKind.ARXIV, "url", "https://arxiv.org/pdf/2101.00001v2"),
        ("arxiv:hep-th/9901001", SourceKind.ARXIV, "url", "https://arxiv.org/pdf/hep-th/9901001"),
        ("https://arxiv.org/abs/2607.22693", SourceKind.ARXIV, "url", "https://arxiv.org/pdf/2607.22693"),
        ("./x", SourceKind.PATH, "path", "x"),
        ("../secret/secret.txt", SourceKind.PATH, "path", "../secret/secret.txt"),
        ("dir/x.pdf", SourceKind.PATH, "path", "dir/x.pdf"),
        ("notes.md", SourceKind.PATH, "path", "notes.md"),
        ("/etc/hosts", SourceKind.PATH, "path", "/etc/hosts"),
        ("C:\\papers\\a.pdf", SourceKind.PATH, "path", "C:\\papers\\a.pdf"),
        ("file:///tmp/a%20b.txt", SourceKind.FILE_URL, "path", "/tmp/a b.txt"),
        ("The tower is 330 m tall.", SourceKind.TEXT, "text", "The tower is 330 m tall."),
        ("2024.12345", SourceKind.TEXT, "text", "2024.12345"),  # not a month: a number, not an arXiv id
        ("hello", SourceKind.TEXT, "text", "hello"),
        ("line one\nhttps://x.example", SourceKind.TEXT, "text", "line one\nhttps://x.example"),
    ],
)
def test_every_kind_of_source_string(source, kind, field, value):
    assert classify(source) is kind
    citation = citation_for(source)
    assert getattr(citation, field) == value
    assert sum(getattr(citation, f) is not None for f in ("url", "path", "text")) == 1


def test_a_link_target_is_never_inline_text_and_an_empty_source_is_an_input_error(tmp_path):
    assert classify("page", inline_text=False) is SourceKind.PATH
    assert citation_for("./a.html", base=tmp_path).path == str(tmp_path / "a.html")
    assert citation_for("/abs/a.html", base=tmp_path).path == "/abs/a.html"
    with pytest.raises(InputError):
        classify("   ")


def test_answer_paths_are_read_only_under_the_answer_folder_and_allowed_folders(tmp_path):
    answer_dir, secret, extra = tmp_path / "answer", tmp_path / "secret", tmp_path / "extra"
    for folder in (answer_dir, secret, extra):
        folder.mkdir()
    (secret / "secret.txt").write_text("s3cret")
    (answer_dir / "page.html").write_text("<p>x</p>")
    policy = LocalFilePolicy.under(answer_dir)
    assert policy.check(str(answer_dir / "page.html")) == answer_dir / "page.html"
    for escape in (str(answer_dir / "../secret/secret.txt"), str(secret / "secret.txt"), str(answer_dir / "nope/../../secret")):
        with pytest.raises(LocalFileRefused, match="outside its folder"):
            policy.check(escape)
    os.symlink(secret / "secret.txt", answer_dir / "link.txt")
    with pytest.raises(LocalFileRefused):
        policy.check(str(answer_dir / "link.txt"))  # a symbolic link cannot lead out
    assert LocalFilePolicy.under(answer_dir, extra).check(str(extra / "f.txt")) == extra / "f.txt"
    assert LocalFilePolicy.cli().check(str(secret / "secret.txt")) == secret / "secret.txt"  # typed by the user
    with pytest.raises(LocalFileRefused, match="not allowed here"):
        LocalFilePolicy().check(str(answer_dir / "page.html"))  # the browser host reads none


def test_a_link_target_stays_a_link_however_long():
    long_url = "https://example.org/" + "a" * 3000
    assert classify(long_url, inline_text=False) is SourceKind.URL
    assert classify(long_url) is SourceKind.URL
    assert citation_for("https://arxiv.org/abs/2607.22693", inline_text=False).url == "https://arxiv.org/pdf/2607.22693"
