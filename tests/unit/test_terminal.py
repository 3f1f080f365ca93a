"""What iotuner prints on a rich console is the text it means: no emoji codes."""

import io

from iotuner._printable import terminal
from iotuner.measurement import Workload


def test_a_workload_with_100_byte_pieces_prints_as_written() -> None:
    # `bench --from-logs` printed large_dtype's case "strided:100:0.98" as "strided💯0.98":
    # rich read ":100:" as an emoji code, markup or not.
    out = io.StringIO()
    console = terminal(file=out, width=200)
    console.print("2 ranks collective write strided:100:0.980296, memory in 100-byte pieces")
    console.print(":thumbs_up: :100:", markup=False)
    assert out.getvalue().splitlines() == [
        "2 ranks collective write strided:100:0.980296, memory in 100-byte pieces",
        ":thumbs_up: :100:",
    ]
    workload = Workload(2, 1, "collective", "write", "strided", 10000, 100, 0.98)
    console.print(str(workload))
    assert "\U0001f4af" not in out.getvalue()
