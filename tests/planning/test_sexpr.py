"""The s-expression reader behind plan files and problem rewriting."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stratpol.planning import sexpr

atoms = st.text(alphabet="abcxyz-_0123456789?", min_size=1, max_size=6)
trees = st.recursive(atoms, lambda children: st.lists(children, max_size=4), max_leaves=12)


def _write(tree) -> str:
    return tree if isinstance(tree, str) else "(" + " ".join(_write(t) for t in tree) + ")"


@given(st.lists(trees, max_size=4))
def test_parse_inverts_writing(forest):
    text = " ; comment\n".join(_write(tree) for tree in forest)
    assert sexpr.parse(text) == forest


@given(st.lists(st.lists(atoms, min_size=1, max_size=3), max_size=5))
def test_top_level_spans_cover_each_expression(expressions):
    text = "  ".join("(" + " ".join(e) + ")" for e in expressions)
    spans = sexpr.top_level_spans(text)
    assert [sexpr.parse(text[s.start:s.end])[0] for s in spans] == expressions


def test_keyword_block_skips_comments():
    text = "; (:init fake)\n(define (problem p) ; (:init no)\n (:init (a) (b)) (:goal (a)))"
    span = sexpr.keyword_block(text, ":init")
    assert text[span.start:span.end] == "(:init (a) (b))"


@pytest.mark.parametrize("text", ["(a", "a)", "(a))"])
def test_unbalanced_text_is_rejected(text):
    with pytest.raises(ValueError, match="unbalanced"):
        sexpr.parse(text)
