"""Reading a reply: an RFC 822 message in, the sender, the reply addresses it was sent to
and the first line the player wrote (quoted text and signatures stripped, as Gmail,
Outlook, Apple Mail and Thunderbird write them). Pure parsing: no database."""

import hashlib
import re
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

from games.mail import tokens

# Lines that open the quoted message or the signature: nothing from there on is the reply.
QUOTE_OPENERS = (
    re.compile(r"^On\b.*\bwrote:\s*$", re.IGNORECASE),  # Gmail, Apple Mail, Thunderbird
    re.compile(r"^Le\b.*\ba écrit\s*:\s*$", re.IGNORECASE),
    re.compile(r"^Am\b.*\bschrieb\b.*:\s*$", re.IGNORECASE),
    re.compile(r"^-{2,}\s*Original Message\s*-{2,}$", re.IGNORECASE),  # Outlook
    re.compile(r"^_{10,}$"),  # Outlook on the web
    re.compile(r"^From:\s.*", re.IGNORECASE),  # Outlook's header block
    re.compile(r"^Begin forwarded message:", re.IGNORECASE),  # Apple Mail
    re.compile(r"^--\s?$"),  # the signature separator "-- "
    re.compile(r"^Sent from my\b", re.IGNORECASE),
    re.compile(r"^Get Outlook for\b", re.IGNORECASE),
)
# Mail from robots (out-of-office, bounces) must never be answered: answers would loop.
AUTOMATIC_PRECEDENCE = ("bulk", "junk", "list", "auto_reply")
RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")


@dataclass(frozen=True)
class Reply:
    """What the service needs from an inbound email."""

    message_id: str
    sender: str
    addressed_to: tuple[tokens.ReplyTo, ...]
    text: str
    automatic: bool
    forged: bool


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
    return Reply(
        message_id=message_id[:255],
        sender=sender,
        addressed_to=tuple(named),
        text=written_text(message),
        automatic=is_automatic(message),
        forged=failed_authentication(message),
    )


def is_automatic(message: EmailMessage) -> bool:
    """RFC 3834 ``Auto-Submitted`` other than ``no``, a robot's ``Precedence``, or an empty
    sender (a bounce)."""
    auto = str(message.get("Auto-Submitted", "no")).strip().lower()
    precedence = str(message.get("Precedence", "")).strip().lower()
    return (
        auto != "no"
        or precedence in AUTOMATIC_PRECEDENCE
        or "X-Autoreply" in message
        or not parseaddr(str(message.get("From", "")))[1]
    )


def failed_authentication(message: EmailMessage) -> bool:
    """Whether a receiving server found the From address forged (RFC 8601
    ``Authentication-Results: … dmarc=fail``). A sender can add such a header but gains
    nothing by it: it only gets their own reply refused."""
    results = " ".join(str(value) for value in message.get_all("Authentication-Results", []))
    return "dmarc=fail" in results.lower()


def written_text(message: EmailMessage) -> str:
    """What the sender wrote above the quote: the plain text part, or the HTML part made
    text when there is no plain one."""
    part = message.get_body(preferencelist=("plain",))
    if part is not None:
        return strip_quoted(part.get_content())
    part = message.get_body(preferencelist=("html",))
    if part is not None:
        return strip_quoted(html_text(part.get_content()))
    return ""


def strip_quoted(text: str) -> str:
    """The reply without the quoted message and the signature."""
    lines = text.replace("\r\n", "\n").split("\n")
    kept = []
    for index, line in enumerate(lines):
        stripped = line.strip()
        joined = " ".join([stripped, lines[index + 1].strip()]) if index + 1 < len(lines) else ""
        if stripped.startswith(">") or any(
            opener.match(stripped) or (joined and opener.match(joined) and "wrote" in joined)
            for opener in QUOTE_OPENERS
        ):
            break
        kept.append(line)
    return "\n".join(kept).strip()


def first_line(text: str) -> str:
    """The first line with something on it: where the move is."""
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


class _HtmlText(HTMLParser):
    """HTML to text, dropping quoted blocks (Gmail's ``gmail_quote``, ``blockquote``,
    Outlook's reply header) and whatever follows them."""

    QUOTE_MARKERS = ("gmail_quote", "divrplyfwdmsg", "apple-mail-quote", "moz-cite-prefix")
    BREAKS = {"br", "p", "div", "li", "tr", "h1", "h2", "h3"}

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.done = False
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        marks = " ".join(str(value) for name, value in attrs if name in ("class", "id")).lower()
        if tag == "blockquote" or any(marker in marks for marker in self.QUOTE_MARKERS):
            self.done = True
        if tag in ("style", "script", "head"):
            self.skipping += 1
        if tag in self.BREAKS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("style", "script", "head"):
            self.skipping = max(0, self.skipping - 1)

    def handle_data(self, data):
        if not self.done and not self.skipping:
            self.parts.append(data)


def html_text(html: str) -> str:
    parser = _HtmlText()
    parser.feed(html)
    return "".join(parser.parts)
