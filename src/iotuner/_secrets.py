"""Database and storage URLs as messages may show them: without their secrets.

A knowledge base (--db, $IOTUNER_DB) or an Optuna storage (--storage) may be a URL with a
password, in its user part (postgresql://user:PASSWORD@host/db) or in its query
(?password=PASSWORD). Every message, log line, report and repr that names such a URL
goes through display_url; a database driver's own message about it goes through
mask_secrets with the URL, since it may quote the URL or a piece of it.

Secret in a query: a key whose name (any case, percent-decoded) contains password,
passwd, pwd, secret or token: password, sslpassword, PGPASSWORD, client_secret, ...
RATIONALE: keys that name a file holding a secret (passfile, sslkey) are not masked:
the file's path is no secret, and knowing which file is what the reader needs. The list
is short on purpose; a key that is not on it is shown.
"""

import re
from urllib.parse import unquote, unquote_plus

__all__ = ["MASK", "display_url", "mask_secrets", "url_secrets"]

MASK = "***"
"""What stands for a secret (SQLAlchemy's render_as_string(hide_password=True) form)."""

_SECRET_KEY = re.compile(r"password|passwd|pwd|secret|token", re.IGNORECASE)

_USER_PASSWORD = re.compile(
    r"^(?P<head>[A-Za-z][\w+.\-]*:(?://)?[^:/@?#]*):(?P<password>.*)@", re.DOTALL
)
"""scheme://user:PASSWORD@: the password runs to the last "@" in the text.
RATIONALE: SQLAlchemy ends the password at the first "@" and takes the rest as the host,
so an unencoded "@" in a password puts its tail into the host (and into the driver's
"cannot resolve host" message); masking to the last "@" hides that tail too, at the cost
of hiding a host or a query value after it."""

_KEY_VALUE = re.compile(
    r"(?P<key>[\w.%\-]*?(?:password|passwd|pwd|secret|token)[\w.%\-]*)"
    r"(?P<equals>\s*=\s*)"
    r"(?P<value>'(?:[^'\\]|\\.)*'?|\"(?:[^\"\\]|\\.)*\"?|[^&;\s#]*)",
    re.IGNORECASE | re.DOTALL,
)
"""key=VALUE anywhere in the text: a query, a libpq conninfo string, a driver's message."""

_QUERY_PART = re.compile(r"(?P<key>[^&;=]*)=(?P<value>[^&;]*)")


def display_url(url: str) -> str:
    """`url` with its password and the values of its secret query keys as ***.

    Works on the raw text, so a URL that does not parse (a bad port, a bracket, an unknown
    scheme) is masked as well, and never raises. A path without secrets comes back as is.
    """
    text = str(url)
    text = _USER_PASSWORD.sub(lambda m: f"{m['head']}:{MASK}@", text, count=1)
    if "?" in text:
        # Percent-encoded keys (pass%77ord=) are what the drivers decode: read them so.
        base, _, query = text.partition("?")
        query = _QUERY_PART.sub(_masked_query_part, query)
        text = f"{base}?{query}"
    return _KEY_VALUE.sub(lambda m: f"{m['key']}{m['equals']}{MASK}", text)


def _masked_query_part(match: re.Match[str]) -> str:
    if _SECRET_KEY.search(unquote_plus(match["key"])):
        return f"{match['key']}={MASK}"
    return match.group(0)


def url_secrets(url: str) -> set[str]:
    """The secrets `url` holds as they may appear elsewhere: raw and percent-decoded, and
    the pieces of a password that SQLAlchemy would split at an "@"."""
    text = str(url)
    found: set[str] = set()
    user = _USER_PASSWORD.match(text)
    if user is not None:
        password = user["password"]
        found.update({password, *password.split("@")})
    if "?" in text:
        for part in _QUERY_PART.finditer(text.partition("?")[2]):
            if _SECRET_KEY.search(unquote_plus(part["key"])):
                found.add(part["value"])
    for part in _KEY_VALUE.finditer(text):
        found.add(part["value"].strip("'\""))
    decoded = {unquote(s) for s in found} | {unquote_plus(s) for s in found}
    # An empty or one-character "secret" would mask every such character of a message.
    return {s for s in found | decoded if len(s) > 1}


def mask_secrets(message: str, url: str) -> str:
    """A driver's or library's `message` about `url`, with the URL's secrets as *** (it
    may quote the URL, or the host SQLAlchemy read from a password with an "@")."""
    text = str(message)
    for secret in sorted(url_secrets(url), key=len, reverse=True):
        text = text.replace(secret, MASK)
    for line_url in re.findall(r"[A-Za-z][\w+.\-]*://\S+", text):
        text = text.replace(line_url, display_url(line_url))
    return _KEY_VALUE.sub(lambda m: f"{m['key']}{m['equals']}{MASK}", text)
