"""Reading a reply: an RFC 822 message in; the sender, the reply addresses it was sent to,
and what the player wrote themselves — wherever it stands (above the quote, below it, or
between quoted blocks), without the quoted turn email, the attribution line, the signature
or a "Sent from my phone". Pure parsing: no database."""

import hashlib
import re
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

from games.mail import tokens

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
    ``answers`` are the Message-IDs it replies to (``In-Reply-To`` and ``References``)."""

    message_id: str
    sender: str
    addressed_to: tuple[tokens.ReplyTo, ...]
    text: str
    automatic: bool
    forged: bool
    unreadable: str = ""
    answers: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        """The lines the player wrote, in order, without empty ones."""
        return [line.strip() for line in self.text.splitlines() if line.strip()]


def read(raw: bytes, recipients: tuple[str, ...] = ()) -> Reply:
    """Read an RFC 822 message; ``recipients`` are the envelope's (RCPT TO), when known."""
    message = message_from_bytes(raw, policy=policy.default)
    message_id = str(message.get("Message-ID", "")).strip()
    if not message_id:
        message_id = "<sha256." + hashlib.sha256(raw).hexdigest() + "@inbound>"
    sender = parseaddr(str(message.get("From", "")))[1].strip().lower()
    addresses = list(recipients)
    for header in RECIPIENT_HEADERS:
        addresses += [address for _, address in getaddresses(message.get_all(header, []))]
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
        forged=failed_authentication(message),
        unreadable=unreadable,
        answers=tuple(re.findall(r"<[^<>\s]+>", _header(message, "In-Reply-To", "References"))),
    )


def _header(message: EmailMessage, *names: str) -> str:
    return " ".join(str(value) for name in names for value in message.get_all(name, []))


def is_automatic(message: EmailMessage) -> bool:
    """RFC 3834 ``Auto-Submitted`` other than ``no``, a robot's ``Precedence``, an
    auto-reply header of a known responder, an out-of-office subject, or an empty sender
    (a bounce)."""
    auto = str(message.get("Auto-Submitted", "no")).strip().lower()
    precedence = str(message.get("Precedence", "")).strip().lower()
    return (
        auto != "no"
        or precedence in AUTOMATIC_PRECEDENCE
        or "X-Autoreply" in message
        or "X-Autorespond" in message
        or bool(AUTOMATIC_SUBJECTS.search(_header(message, "Subject").strip()))
        or not parseaddr(str(message.get("From", "")))[1]
    )


def failed_authentication(message: EmailMessage) -> bool:
    """Whether a receiving server found the From address forged (RFC 8601
    ``Authentication-Results: … dmarc=fail``). A sender can add such a header but gains
    nothing by it: it only gets their own reply refused."""
    return "dmarc=fail" in _header(message, "Authentication-Results").lower()


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
