"""The newsletter's mails. Every mail to a confirmed subscriber ends with its unsubscribe link."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Mail:
    subject: str
    body: str


def confirmation(confirm_link: str, valid_hours: int) -> Mail:
    return Mail("Confirm your Pinbid newsletter subscription", (
        "Hi,\n\nSomeone (we hope you) asked to receive the Pinbid newsletter at this address: tips for\n"
        "creators selling pinned-comment slots and for brands bidding on them, and news about the platform.\n\n"
        f"To confirm, open this link within {valid_hours} hours:\n\n{confirm_link}\n\n"
        "If it was not you, ignore this message: without a confirmation we send nothing more.\n\n— Pinbid\n"))


def welcome(unsubscribe_link: str) -> Mail:
    return Mail("You're subscribed to the Pinbid newsletter", (
        "Hi,\n\nThanks for confirming. You will hear from us when we publish something worth your time:\n"
        "pinned-comment playbooks, auction tips and platform news. No more than a few mails a month.\n\n"
        + _footer(unsubscribe_link)))


def already_subscribed(unsubscribe_link: str) -> Mail:
    return Mail("You're already subscribed to the Pinbid newsletter", (
        "Hi,\n\nSomeone asked to subscribe this address to the Pinbid newsletter. It is already subscribed,\n"
        "so nothing has changed and there is nothing to do.\n\n" + _footer(unsubscribe_link)))


def _footer(unsubscribe_link: str) -> str:
    return f"— Pinbid\n\nTo stop receiving the newsletter, open this link:\n{unsubscribe_link}\n"
