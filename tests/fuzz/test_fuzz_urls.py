"""Property tests of what iotuner prints about a URL or a name (issue 24, items 2 and 7):
display_url and mask_secrets never raise and never give back a password put into the URL,
whatever the URL looks like; printable and markup_safe never give back a control
character, and markup_safe's output, read by rich, is the printable text itself.

The examples per test come from the fuzz profile of conftest.py ($IOTUNER_FUZZ_EXAMPLES);
each input is counted for the run's summary (count_input).
"""

import string
from collections.abc import Callable
from urllib.parse import quote

from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text

from iotuner._printable import CONTROL, markup_safe, printable
from iotuner._secrets import display_url, mask_secrets

SCHEMES = st.sampled_from(
    ["postgresql", "postgres", "postgresql+psycopg", "sqlite", "mysql", "PostgreSQL", "x"]
)
SECRET_KEYS = st.sampled_from(
    ["password", "PASSWORD", "Password", "sslpassword", "pass%77ord", "db_password", "token"]
)
WORDS = st.text(alphabet=string.ascii_lowercase + "-_.", min_size=1, max_size=12)
"""Users, hosts, databases, query keys and values: never holding "Pw9", the passwords' start."""
CountInput = Callable[[str], None]
"""conftest.py's count_input: one more input given to the named function."""
HOSTS = st.one_of(WORDS, st.just("[::1]"), st.just("[bad"), st.just(""), WORDS.map("{}:99x".format))

PASSWORDS = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"), max_size=20
).map(lambda tail: f"Pw9{tail}")
"""A password: "Pw9" (so that it appears nowhere else in the URL by chance), then anything."""


@given(st.text())
def test_any_text_is_shown_without_raising(count_input: CountInput, text: str) -> None:
    count_input("display_url")
    assert isinstance(display_url(text), str)
    assert isinstance(mask_secrets(text, text), str)


@given(SCHEMES, WORDS, PASSWORDS, HOSTS, WORDS, st.booleans())
def test_a_password_in_the_user_part_is_never_shown(
    count_input: CountInput,
    scheme: str,
    user: str,
    password: str,
    host: str,
    database: str,
    encoded: bool,
) -> None:
    count_input("display_url")
    given_password = quote(password, safe="") if encoded else password
    url = f"{scheme}://{user}:{given_password}@{host}/{database}"
    shown = display_url(url)
    assert given_password not in shown
    assert "***" in shown
    # A driver's message quoting the URL, or the host SQLAlchemy read from the password.
    message = f"cannot connect to {url}; host {host!r}; user {user} password {password}"
    assert password not in mask_secrets(message, url)


@given(
    SCHEMES,
    HOSTS,
    SECRET_KEYS,
    st.text(alphabet=string.printable.replace("&", "").replace("#", ""), max_size=20),
    st.lists(st.tuples(WORDS, WORDS), max_size=3),
)
def test_a_password_in_the_query_is_never_shown(
    count_input: CountInput,
    scheme: str,
    host: str,
    key: str,
    tail: str,
    others: list[tuple[str, str]],
) -> None:
    count_input("display_url")
    password = quote(f"Pw9{tail}", safe="")
    query = "&".join([f"{k}={v}" for k, v in others] + [f"{key}={password}"])
    url = f"{scheme}://user@{host}/db?{query}"
    assert password not in display_url(url)
    assert f"Pw9{tail}" not in mask_secrets(f"error: {url} (password {password})", url)


@given(st.text())
def test_printable_leaves_no_control_character(count_input: CountInput, text: str) -> None:
    count_input("printable")
    shown = printable(text)
    assert CONTROL.search(shown) is None
    # A text without them comes back as it is.
    if CONTROL.search(text) is None:
        assert shown == text


@given(st.text())
def test_markup_safe_prints_the_text_literally(count_input: CountInput, text: str) -> None:
    count_input("markup_safe")
    # Inside a tag, as the commands print names (rich.markup.escape doubles a trailing
    # backslash so that it cannot escape the tag that follows).
    shown = Text.from_markup(f"[bold]{markup_safe(text)}[/bold]").plain
    assert shown == printable(text)
