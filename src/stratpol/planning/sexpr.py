"""A small reader for PDDL s-expressions: plan files and the blocks of problem files."""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(r";[^\n]*|\(|\)|[^\s()]+")


@dataclass(frozen=True)
class Span:
    """Character range [start, end) of one parenthesised expression in a text."""

    start: int
    end: int


def parse(text: str) -> list:
    """All top-level expressions of `text`, atoms lower-cased, comments dropped."""
    stack: list[list] = [[]]
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token.startswith(";"):
            continue
        if token == "(":
            stack.append([])
        elif token == ")":
            if len(stack) == 1:
                raise ValueError(f"unbalanced ')' at character {match.start()}")
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(token.lower())
    if len(stack) != 1:
        raise ValueError("unbalanced '(': the text ends inside an expression")
    return stack[0]


def top_level_spans(text: str, start: int = 0, end: int | None = None) -> list[Span]:
    """Spans of the parenthesised expressions directly inside text[start:end], comments skipped."""
    end = len(text) if end is None else end
    spans, depth, opened = [], 0, -1
    for match in _TOKEN.finditer(text, start, end):
        token = match.group()
        if token == "(":
            if depth == 0:
                opened = match.start()
            depth += 1
        elif token == ")":
            depth -= 1
            if depth == 0:
                spans.append(Span(opened, match.end()))
            if depth < 0:
                raise ValueError(f"unbalanced ')' at character {match.start()}")
    return spans


def keyword_block(text: str, keyword: str) -> Span:
    """Span of the block `(keyword ...)` directly inside the single `(define ...)` of a PDDL file."""
    defines = [s for s in top_level_spans(text) if _head(text, s) == "define"]
    if len(defines) != 1:
        raise ValueError(f"expected one (define ...) expression, found {len(defines)}")
    define = defines[0]
    for span in top_level_spans(text, define.start + 1, define.end - 1):
        if _head(text, span) == keyword:
            return span
    raise ValueError(f"no ({keyword} ...) block")


def _head(text: str, span: Span) -> str:
    match = _TOKEN.search(text, span.start + 1, span.end)
    while match is not None and match.group().startswith(";"):
        match = _TOKEN.search(text, match.end(), span.end)
    return "" if match is None else match.group().lower()
