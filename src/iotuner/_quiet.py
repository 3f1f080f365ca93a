"""Library warnings as lines of ours. scikit-learn, numpy, pandas and scipy warn through
Python's warnings module, which prints each with its file, line and source line: a dump
that reads like a crash among a command's results. A command runs inside
`library_warnings`, which records them and says each kind once, in one line, at the end;
a model fit that stops before converging says so by name (`converging`)."""

import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import PurePath
from typing import Any

__all__ = ["NotConverged", "converging", "library_warnings"]

_LIBRARIES = {"sklearn": "scikit-learn", "numpy": "numpy", "pandas": "pandas", "scipy": "scipy"}


class NotConverged(UserWarning):
    """One model fit stopped at its iteration limit before its optimiser converged (one
    per fit, its message the model's name; scikit-learn's own warning has no name)."""


@contextmanager
def converging(estimator: Any) -> Iterator[None]:
    """Fit `estimator` inside: scikit-learn's ConvergenceWarnings become one NotConverged
    naming the model."""
    from sklearn.exceptions import ConvergenceWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        yield
    others = [w for w in caught if not issubclass(w.category, ConvergenceWarning)]
    for w in others:  # not ours to judge here: passed on as they came
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if len(others) < len(caught):
        warnings.warn(NotConverged(_model_name(estimator)), stacklevel=3)


@contextmanager
def library_warnings(say: Callable[[str], None], during: str) -> Iterator[None]:
    """Run the block with every warning recorded; after it (also after an error), call
    `say` with one line per kind: how many, from which library, the first message."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield
        finally:
            for line in _lines(caught, during):
                say(line)


def _lines(caught: list[warnings.WarningMessage], during: str) -> list[str]:
    models = Counter(str(w.message) for w in caught if issubclass(w.category, NotConverged))
    lines = []
    if models:
        names = ", ".join(f"{name} {n}x" if n > 1 else name for name, n in sorted(models.items()))
        total = sum(models.values())
        lines.append(
            f"{total} model fit{'s' if total > 1 else ''} stopped at the iteration limit before "
            f"converging ({names}); the figures are those of the fits as they stopped"
        )
    kinds: dict[tuple[str, str], list[warnings.WarningMessage]] = {}
    for w in caught:
        if not issubclass(w.category, NotConverged):
            first = str(w.message).strip().splitlines()[0] if str(w.message).strip() else ""
            kinds.setdefault((w.category.__name__, first), []).append(w)
    for (category, first), found in kinds.items():
        source = _source(found[0].filename)
        text = first if len(first) <= 120 else first[:119] + "…"
        times = f"{len(found)} times" if len(found) > 1 else "once"
        lines.append(f"{source} warned {times} during {during} ({category}): {text}")
    return lines


def _source(filename: str) -> str:
    """The library a warning came from, by the folder of the file that raised it."""
    parts = PurePath(filename).parts
    for part in reversed(parts):
        if part in _LIBRARIES:
            return _LIBRARIES[part]
        if part == "iotuner":
            return "iotuner"
    return PurePath(filename).name or "Python"


def _model_name(estimator: Any) -> str:
    """The class of the model inside a pipeline or target transformer."""
    seen = 0
    while seen < 10:
        seen += 1
        if hasattr(estimator, "steps"):
            estimator = estimator.steps[-1][1]
        elif hasattr(estimator, "regressor"):
            estimator = estimator.regressor
        elif hasattr(estimator, "estimator") and not hasattr(estimator, "predict_std"):
            estimator = estimator.estimator
        else:
            break
    return type(estimator).__name__
