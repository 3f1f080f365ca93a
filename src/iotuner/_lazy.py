"""Names a package imports on first use (PEP 562's module __getattr__)."""

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(
    package: str, namespace: dict[str, Any], where: Mapping[str, str]
) -> Callable[[str], Any]:
    """A module __getattr__ for `package` that imports each name of `where` (name: module)
    when first asked for, and keeps it in the package's `namespace`."""

    def getattr_(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    return getattr_
