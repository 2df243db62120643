"""Reading a reply: an RFC 822 message in; the sender, the reply addresses it was sent to,
and what the player wrote themselves — wherever it stands (above the quote, below it, or
between quoted blocks), without the quoted turn email, the attribution line, the signature
or a "Sent from my phone". Pure parsing: no database."""

import hashlib
import re
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.errors import ObsoleteHeaderDefect
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from games.notify.channels.email import tokens
from games.notify.channels.email.addresses import account_identity

# The line that introduces a quoted message ("On … wrote:"), in the languages mail clients
# write it in; a long one is wrapped onto a second line by some clients (Gmail). It is left
# out, and so is the quote after it (``>`` lines), but the player may write below it.
ATTRIBUTIONS = (
    re.compile(r"^On\b.*\bwrote:$", re.IGNORECASE),
    re.compile(r"^Le\b.*\ba écrit\s*:$", re.IGNORECASE),
    re.compile(r"^Am\b.*\bschrieb\b.*:$", re.IGNORECASE),
    re.compile(r"^El\b.*\bescribió:$", re.IGNORECASE),
    re.compile(r"^Il\b.*\bha scritto:$", re.IGNORECASE),
    re.compile(r"^Op\b.*\bschreef\b.*:$", re.IGNORECASE),
    re.compile(r"^Em\b.*\bescreveu:$", re.IGNORECASE),
)
# Lines after which nothing is the player's: Outlook's quoted header block (its quote has
# no ``>``), a forward, the signature separator "-- " and the phone footers.
ENDINGS = (
    re.compile(
        r"^-{2,}\s*(Original Message|Ursprüngliche Nachricht|Message d'origine)\s*-{2,}$", re.I
    ),
    re.compile(r"^_{10,}$"),  # Outlook on the web
    re.compile(r"^(From|Von|De|Da|Van)\s?:\s.*"),  # Outlook's header block
    re.compile(r"^Begin forwarded message:", re.IGNORECASE),  # Apple Mail
    re.compile(r"^--\s?$"),
    re.compile(r"^(Sent from|Get Outlook for|Envoyé de|Von meinem|Gesendet von)\b", re.I),
    re.compile(r"^(Enviado desde|Inviato da)\b", re.IGNORECASE),
)
# A lead-in the player may write before the move on its line ("My move: 3").
LEAD_IN = re.compile(r"^[^\W\d][\w\s'’]{0,30}:\s*(?P<rest>\S.*)$")
# A greeting or a line that introduces what follows ("Hi all," "Here is my move:").
GREETING = re.compile(
    r"^(hi|hello|hey|dear|hallo|bonjour|salut|hola|ciao|moin|servus)\b.*|.*[,:]$", re.I
)
# Mail from robots (out-of-office, bounces) must never be answered: answers would loop.
AUTOMATIC_PRECEDENCE = ("bulk", "junk", "list", "auto_reply")
# Subjects of out-of-office answers from responders that set none of the RFC 3834 headers.
AUTOMATIC_SUBJECTS = re.compile(
    r"out of (the )?office|automatic reply|auto[- ]?reply|autoreply|auto[- ]?response"
    r"|^(vacation|away)\b|abwesen|automatische antwort|fuera de la oficina|respuesta autom"
    r"|absence|réponse automatique|risposta automatica|fuori ufficio|afwezig"
    r"|automatisch antwoord|resposta autom|ausente|frånvaro|autosvar|fravær|poza biurem"
    r"|odpowiedź automatyczna",
    re.IGNORECASE,
)
RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")


@dataclass(frozen=True)
class Reply:
    """What the service needs from an inbound email. ``unreadable`` says why its text
    cannot be read at all (the error about an unknown character set; the answer to the
    player says it in their language);
    ``answers`` are the Message-IDs it replies to (``In-Reply-To`` and ``References``);
    ``sender_refused`` says why ``From:`` names no one sender (``sender`` is then empty):
    such a reply is answered to nobody."""

    message_id: str
    sender: str
    addressed_to: tuple[tokens.ReplyTo, ...]
    text: str
    automatic: bool
    forged: bool
    unreadable: str = ""
    answers: tuple[str, ...] = ()
    sender_refused: str = ""

    def lines(self) -> list[str]:
        """The lines the player wrote, in order, without empty ones."""
        return [line.strip() for line in self.text.splitlines() if line.strip()]


def read(raw: bytes, recipients: tuple[str, ...] = ()) -> Reply:
    """Read an RFC 822 message; ``recipients`` are the envelope's (RCPT TO), when known."""
    message = message_from_bytes(raw, policy=policy.default)
    message_id = " ".join(_values(message, "Message-ID")).strip()
    if not message_id:
        message_id = "<sha256." + hashlib.sha256(raw).hexdigest() + "@inbound>"
    sender, sender_refused = sender_of(message)
    addresses = list(recipients)
    for header in RECIPIENT_HEADERS:
        addresses += [address for _, address in getaddresses(_values(message, header))]
    named = []
    for address in addresses:
        reply_to = tokens.read_reply_address(address)
        if reply_to is not None and reply_to not in named:
            named.append(reply_to)
    try:
        text, unreadable = written_text(message), ""
    except LookupError as error:
        text = ""
        unreadable = str(error) or "unknown"
    return Reply(
        message_id=message_id[:255],
        sender=sender,
        addressed_to=tuple(named),
        text=text,
        automatic=is_automatic(message),
        forged=failed_authentication(message, sender),
        unreadable=unreadable,
        answers=tuple(re.findall(r"<[^<>\s]+>", _header(message, "In-Reply-To", "References"))),
        sender_refused=sender_refused,
    )


def sender_of(message: EmailMessage) -> tuple[str, str]:
    """Who wrote the message: the one address of its one ``From:`` header, lower-cased,
    and ``""``; or ``""`` and why there is no such address. Strict, since mail parsers
    disagree on malformed headers (Python's own ``parseaddr`` reads
    ``victim@example.com <attacker@evil.example>`` as the victim, the receiving server
    may have checked the attacker): the header must parse without defect to exactly one
    address (no group, no list), the lenient parser must find that same address alone, the
    display name (or a comment, or a quoted local part) must hold no other address, and
    the address must be a plain one already in the spelling accounts use
    (``account_identity``)."""
    values = [(name, value) for name, value in message.raw_items() if name.lower() == "from"]
    if len(values) != 1:
        return "", f"{len(values)} From headers"
    raw = str(values[0][1]).replace("\r", "").replace("\n", "")
    try:
        header = message.policy.header_fetch_parse(*values[0])
        defects = [d for d in header.defects if not isinstance(d, ObsoleteHeaderDefect)]
        groups = header.groups
    except HEADER_PARSER_ERRORS:
        defects, groups = ["unparsable"], ()
    if defects:
        return "", f"From does not parse: {raw!r}"
    if len(groups) != 1 or groups[0].display_name is not None or len(groups[0].addresses) != 1:
        return "", f"From names no single address: {raw!r}"
    (address,) = groups[0].addresses
    spec = address.addr_spec.strip()
    lenient = [found for _name, found in getaddresses([raw]) if found or _name]
    if lenient != [spec]:
        return "", f"From reads differently to another parser: {raw!r}"
    if "@" in address.display_name:
        return "", f"From has an address in its display name: {raw!r}"
    if raw.count("@") != 1 or str(header).count("@") != 1:
        return "", f"From has an address besides the sender's: {raw!r}"
    try:
        validate_email(spec)
    except ValidationError:
        return "", f"From is not a plain address: {raw!r}"
    if account_identity(spec) != spec.lower():
        return "", f"From is not spelled as an account: {raw!r}"
    return spec.lower(), ""


def _header(message: EmailMessage, *names: str) -> str:
    return " ".join(value for name in names for value in _values(message, name))


# Python's header parser raises assorted errors on some malformed headers where it should
# note a defect (IndexError on ``From: <``, AttributeError, UnboundLocalError…): any of
# them means the header does not parse.
HEADER_PARSER_ERRORS = (Exception,)


def _values(message: EmailMessage, name: str) -> list[str]:
    """The values of the header ``name``, decoded where Python's parser reads them, as
    written where it fails on them."""
    values = []
    for key, raw in message.raw_items():
        if key.lower() == name.lower():
            try:
                values.append(str(message.policy.header_fetch_parse(key, raw)))
            except HEADER_PARSER_ERRORS:
                values.append(str(raw))
    return values


def is_automatic(message: EmailMessage) -> bool:
    """RFC 3834 ``Auto-Submitted`` other than ``no``, a robot's ``Precedence``, an
    auto-reply header of a known responder, an out-of-office subject, or an empty sender
    (a bounce)."""
    auto = (_header(message, "Auto-Submitted") or "no").strip().lower()
    precedence = _header(message, "Precedence").strip().lower()
    return (
        auto != "no"
        or precedence in AUTOMATIC_PRECEDENCE
        or "X-Autoreply" in message
        or "X-Autorespond" in message
        or bool(AUTOMATIC_SUBJECTS.search(_header(message, "Subject").strip()))
        or not parseaddr((_values(message, "From") or [""])[0])[1]
    )


def failed_authentication(message: EmailMessage, sender: str) -> bool:
    """Whether a receiving server found the message not to be the sender's: a DMARC
    result (RFC 8601 ``Authentication-Results``, any spacing, several results to a header,
    several headers) that is ``fail``, or that is about another domain than the
    sender's (its ``header.from``: the server read another From than ours; a ``pass``
    counts only for the sender's own domain). No DMARC result is no verdict. A sender can
    add such a header but gains nothing by it: it only gets their own reply refused (and
    the seat's player told, at most once a day)."""
    domain = sender.rpartition("@")[2]
    for value in _values(message, "Authentication-Results"):
        for method, result, properties in authentication_results(value):
            if method != "dmarc":
                continue
            checked = properties.get("header.from", "").rpartition("@")[2].strip(".")
            if result == "fail" or (checked and checked != domain):
                return True
    return False


# RFC 8601 section 2.2, once comments are gone: "method[/version] = result", then an
# optional "reason = value" and "ptype.property = value" pairs, any of them spaced out.
_METHODSPEC = re.compile(r"\s*([\w-]+)\s*(?:/\s*\d+\s*)?=\s*([\w-]+)")
_PROPSPEC = re.compile(r'([\w-]+)\s*\.\s*([\w-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s;"]+)')


def authentication_results(value: str) -> list[tuple[str, str, dict[str, str]]]:
    """The results of one ``Authentication-Results`` header (RFC 8601): for each, the
    method, the result and the properties (``{"header.from": "example.com"}``), all
    lower-cased. The authserv-id is skipped (Microsoft's servers write none: their first
    part is a result, which an authserv-id, having no ``=``, cannot be); comments are
    dropped; a result that does not read is left out."""
    parts = _without_comments(value).split(";")
    results = []
    for index, part in enumerate(parts):
        found = _METHODSPEC.match(part) if index or "=" in part else None
        if found is None:
            continue
        properties = {
            f"{ptype}.{name}".lower(): pvalue.strip('"').lower()
            for ptype, name, pvalue in _PROPSPEC.findall(part[found.end() :])
        }
        results.append((found.group(1).lower(), found.group(2).lower(), properties))
    return results


def _without_comments(value: str) -> str:
    """The header without its comments (nested parentheses), quoted strings kept whole;
    a ``;`` inside a quoted string is made a space, so that it separates nothing."""
    kept, depth, quoted, escaped = [], 0, False, False
    for char in value:
        if escaped:
            escaped = False
            if depth == 0:
                kept.append(char)
            continue
        if char == "\\":
            escaped = True
            if depth == 0:
                kept.append(char)
        elif quoted:
            kept.append(" " if char == ";" else char)
            quoted = char != '"'
        elif char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        elif depth:
            continue
        else:
            quoted = char == '"'
            kept.append(char)
    return "".join(kept)


def written_text(message: EmailMessage) -> str:
    """What the sender wrote: from the plain text part, or from the HTML part (made text)
    when there is no plain one or it says nothing. Raises ``LookupError`` for a part in a
    character set Python does not know."""
    part = message.get_body(preferencelist=("plain",))
    written = strip_quoted(part.get_content()) if part is not None else ""
    if not written:
        part = message.get_body(preferencelist=("html",))
        if part is not None:
            written = strip_quoted(html_text(part.get_content()))
    return written


def strip_quoted(text: str) -> str:
    """The reply without the quoted message and the signature. Quoted lines (``>``) and
    attribution lines are left out wherever they are, so a move written below the quote
    (bottom-posting) or between quoted blocks (interleaving) is kept."""
    lines = text.replace("\r\n", "\n").split("\n")
    kept = []
    skip_next = False
    for index, line in enumerate(lines):
        stripped = line.strip()
        if skip_next:
            skip_next = False
            continue
        if any(ending.match(stripped) for ending in ENDINGS):
            break
        if stripped.startswith(">") or _is_attribution(stripped):
            continue
        following = lines[index + 1].strip() if index + 1 < len(lines) else ""
        if following and _is_attribution(f"{stripped} {following}"):
            skip_next = True
            continue
        kept.append(line)
    return "\n".join(kept).strip()


def _is_attribution(line: str) -> bool:
    return any(attribution.match(line) for attribution in ATTRIBUTIONS)


def is_greeting(line: str) -> bool:
    """Whether the line greets or introduces rather than says something."""
    return bool(GREETING.match(line.strip()))


def without_lead_in(line: str) -> str:
    """The line without a lead-in such as "My move:" before the move, or ``""``."""
    found = LEAD_IN.match(line)
    return found.group("rest").strip() if found else ""


class _HtmlText(HTMLParser):
    """HTML to text, leaving out quoted blocks (``blockquote``, Gmail's ``gmail_quote``,
    Thunderbird's ``moz-cite-prefix``, Apple Mail's quote) and signatures wherever they
    stand, and everything after Outlook's reply header (its quote is not nested)."""

    QUOTES = ("gmail_quote", "gmail_signature", "apple-mail-quote", "moz-cite-prefix")
    QUOTE_ENDINGS = ("divrplyfwdmsg", "appendonsend", "x_divrplyfwdmsg")
    BREAKS = {"br", "p", "div", "li", "tr", "h1", "h2", "h3", "blockquote", "hr"}
    VOID = {"br", "hr", "img", "meta", "link", "input", "wbr", "col", "area", "base", "source"}
    HIDDEN = {"style", "script", "head", "title"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.done = False
        self.open: list[str] = []
        self.quoted_at: int | None = None

    def handle_starttag(self, tag, attrs):
        marks = " ".join(str(value) for name, value in attrs if name in ("class", "id")).lower()
        if any(marker in marks for marker in self.QUOTE_ENDINGS):
            self.done = True
        if tag in self.BREAKS:
            self.parts.append("\n")
        if tag in self.VOID:
            return
        self.open.append(tag)
        quote = tag == "blockquote" or any(marker in marks for marker in self.QUOTES)
        if quote and self.quoted_at is None:
            self.quoted_at = len(self.open)

    def handle_endtag(self, tag):
        if tag in self.BREAKS:
            self.parts.append("\n")
        if tag not in self.open:
            return
        while self.open and self.open.pop() != tag:
            pass
        if self.quoted_at is not None and len(self.open) < self.quoted_at:
            self.quoted_at = None

    def handle_data(self, data):
        hidden = any(tag in self.HIDDEN for tag in self.open)
        if not (self.done or hidden or self.quoted_at is not None):
            self.parts.append(data)


def html_text(html: str) -> str:
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts).replace("\xa0", " ")
