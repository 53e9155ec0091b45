"""The comment a bid will pin: one of the buyer's own comments (by id), which must open with a clear ad
disclosure, or a new text, which Pinbid posts with the disclosure first (pinbid_kit.instagram_rules)."""

from dataclasses import dataclass

from pinbid_kit import instagram_rules as ig

from .errors import RuleBroken

MAX_COMMENT_ID = 64
MAX_COMMENT_TEXT = ig.MAX_COMMENT_LENGTH
MAX_USERNAME = 30
MAX_NEW_COMMENT_TEXT = ig.MAX_NEW_COMMENT_LENGTH


@dataclass(frozen=True)
class Comment:
    comment_id: str | None = None
    username: str | None = None
    text: str | None = None


def choose(comment_id: str | None, text: str | None, username: str | None = None, *,
           required: bool, words: str | None = None) -> Comment | None:
    """Exactly one of an existing comment's id or a new text; neither is allowed only when not `required`.
    `words` are what the comment named by `comment_id` says, as the buyer saw it: kept so the bid shows it."""
    comment_id = (comment_id or "").strip() or None
    words = (words or "").strip() or None
    if words is not None and comment_id is None:
        raise RuleBroken("The comment's text goes with the id of the comment you chose.", "commentText")
    blank_text = text is not None and not text.strip()
    text = text.strip() if text is not None and text.strip() else None
    if comment_id and text:
        raise RuleBroken("Choose one of your previous comments or write a new one, not both.", "commentId")
    if comment_id is None and text is None:
        if blank_text:
            raise RuleBroken("Please write a new comment to pin.", "newCommentText")
        if required:
            raise RuleBroken("Please select one of your previous comments or write a new comment to pin.",
                             "commentId")
        return None
    if comment_id is not None:
        if len(comment_id) > MAX_COMMENT_ID:
            raise RuleBroken("Please select one of your previous comments to pin.", "commentId")
        username = (username or "").strip().removeprefix("@") or None
        if username is not None and len(username) > MAX_USERNAME:
            raise RuleBroken(f"The comment's username must be at most {MAX_USERNAME} characters.", "commentUsername")
        if words is not None:
            check_limits(words, "commentText")
            if not ig.starts_with_disclosure(words):
                raise RuleBroken(ig.MISSING_DISCLOSURE, "commentId", code="disclosure_missing")
        return Comment(comment_id=comment_id, username=username, text=words)
    assert text is not None
    if len(text) > MAX_NEW_COMMENT_TEXT:
        raise RuleBroken(f"A new comment can have at most {MAX_NEW_COMMENT_TEXT} characters (Pinbid adds the ad "
                         "disclosure in front of it).", "newCommentText")
    check_limits(ig.disclosed(text, "@brand"), "newCommentText")
    return Comment(text=text)


def check_limits(text: str, field: str) -> None:
    problems = ig.limit_problems(text)
    if problems:
        raise RuleBroken(problems[0], field, code="instagram_limit")


def approved_text(comment: Comment, brand: str) -> str | None:
    """What the creator approves and Pinbid posts or pins: a brand's own comment as it is (it opens with its
    disclosure), or a new text with the disclosure naming `brand` first."""
    if comment.comment_id is not None:
        return comment.text
    return ig.disclosed(comment.text, brand) if comment.text else None
