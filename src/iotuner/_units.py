"""Byte counts for people, without rich: `iotuner logs clean` prints them too."""

__all__ = ["format_size"]


def format_size(nbytes: int) -> str:
    """A byte count with a binary unit, e.g. 12.3 MiB (plain bytes below 1 KiB)."""
    value, unit = float(nbytes), "B"
    for larger in ("KiB", "MiB", "GiB", "TiB"):
        if value < 1024:
            break
        value, unit = value / 1024, larger
    return f"{nbytes} B" if unit == "B" else f"{value:.1f} {unit}"
