"""A computed field's expression over a CSV row's columns (the [computed] table of a CSV
mapping, iotuner.ingest.CsvMapping): parsed with `ast` and evaluated by walking only
numbers, column names and + - * / //; never eval."""

import ast
import math
import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from iotuner.ingest._common import IngestError
from iotuner.ingest._csv_cells import _Bad


def _number_text(value: int | float) -> str:
    """A computed value as cell text: integers (and whole floats) without a fraction."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


_OPERATORS: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
}

_SIGNS: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
}

_REFUSED = {
    ast.Pow: "**",
    ast.Mod: "%",
    ast.Call: "a function call",
    ast.Attribute: "an attribute",
    ast.Compare: "a comparison",
    ast.BoolOp: "and/or",
    ast.Subscript: "an index",
}

_ALLOWED = (ast.BinOp, ast.UnaryOp, ast.Load, *_OPERATORS, *_SIGNS)
"""The nodes a formula may have besides column names and numbers."""

_LONGEST_FORMULA = 1000
"""Characters a formula may have (evaluation recurses once per operator)."""

_BACKQUOTED = re.compile(r"`([^`]*)`")


@dataclass(frozen=True)
class Formula:
    """A computed field's expression over CSV columns: parsed with `ast`, evaluated by
    walking only the nodes it allows (numbers, column names, + - * / //, unary - and +);
    never eval. `columns` are the CSV columns it reads, each once."""

    text: str
    tree: ast.expr = field(compare=False)
    columns: tuple[str, ...]
    names: Mapping[str, str] = field(compare=False)
    """Identifier in the tree -> CSV column (backquoted names are renamed for `ast`)."""

    @staticmethod
    def parse(text: str, where: str) -> "Formula":
        """The formula of `text`; IngestError (starting with `where`) says what is wrong."""
        names: dict[str, str] = {}

        def rename(match: re.Match[str]) -> str:
            identifier = f"_column{len(names)}_"
            names[identifier] = match.group(1)
            return identifier

        source = _BACKQUOTED.sub(rename, text)
        expected = (
            "an expression of CSV columns and numbers with + - * / // and parentheses "
            '(e.g. "total_bytes / np")'
        )
        if len(text) > _LONGEST_FORMULA:
            raise IngestError(
                f"{where}: expected {expected} of at most {_LONGEST_FORMULA} characters, "
                f"got {len(text)}"
            )
        try:
            tree = ast.parse(source.strip(), mode="eval").body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            raise IngestError(f"{where}: expected {expected}, got {text!r}") from None
        columns: list[str] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                column = names.get(node.id, node.id)
                names.setdefault(node.id, column)
                columns.append(column)
            elif isinstance(node, ast.Constant):
                if isinstance(node.value, bool) or not isinstance(node.value, int | float):
                    raise IngestError(
                        f"{where}: expected {expected}, got the constant {node.value!r} in {text!r}"
                    )
            elif not isinstance(node, _ALLOWED):
                what = _REFUSED.get(type(node), type(node).__name__)
                raise IngestError(f"{where}: expected {expected}, got {what} in {text!r}")
        return Formula(text, tree, tuple(dict.fromkeys(columns)), names)

    def evaluate(self, cells: Mapping[str, int | float]) -> int | float:
        """The value for one row, given the numbers of its columns; _Bad for a division by
        zero or a result too large."""
        try:
            value = self._value(self.tree, cells)
        except ZeroDivisionError:
            raise _Bad(
                f"a division by a non-zero number, got a division by zero in {self.text!r}"
            ) from None
        except OverflowError:
            raise _Bad(f"a result of a sensible size from {self.text!r}, got an overflow") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise _Bad(f"a finite number from {self.text!r}, got {value}")
        return value

    def _value(self, node: ast.expr, cells: Mapping[str, int | float]) -> int | float:
        result: int | float
        if isinstance(node, ast.Constant):
            result = cast(int | float, node.value)  # parse let only numbers through
        elif isinstance(node, ast.Name):
            result = cells[self.names[node.id]]
        elif isinstance(node, ast.UnaryOp):
            result = _SIGNS[type(node.op)](self._value(node.operand, cells))
        elif isinstance(node, ast.BinOp):
            left, right = self._value(node.left, cells), self._value(node.right, cells)
            result = _OPERATORS[type(node.op)](left, right)
        else:
            raise AssertionError(f"parse let {type(node).__name__} through")
        return result
