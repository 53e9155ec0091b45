"""Rules for accounts: who may sign up with what, and how emails, names and handles are read."""

from enum import StrEnum

from email_validator import EmailNotValidError, validate_email
from pinbid_kit.instagram_rules import HANDLE
from pinbid_kit.product_rules import PASSWORD_MIN_LENGTH
from pinbid_kit.text import unsafe_character

MIN_PASSWORD = PASSWORD_MIN_LENGTH
MAX_PASSWORD = 256  # argon2 hashes any length; a bound keeps a request from costing more than a login
MAX_NAME = 100
MAX_BUSINESS_NAME = 120
MAX_EMAIL = 254


class Role(StrEnum):
    """The roles one can sign up for. OPERATOR (staff) is not one: operators are created by a command."""

    INFLUENCER = "INFLUENCER"
    BUYER = "BUYER"


OPERATOR = "OPERATOR"
ACTIVE = "ACTIVE"
SUSPENDED = "SUSPENDED"


class RuleBroken(ValueError):
    """A rule was broken; `field` names the input at fault, the message is for a person."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.field = field


def normalize_email(raw: str) -> str:
    """Emails are unique without regard to case and surrounding spaces."""
    candidate = raw.strip().lower()
    if not candidate or len(candidate) > MAX_EMAIL:
        raise RuleBroken("Enter a valid email address.", "email")
    try:
        return validate_email(candidate, check_deliverability=False).normalized.lower()
    except EmailNotValidError:
        raise RuleBroken("Enter a valid email address.", "email") from None


def clean_name(raw: str, *, field: str = "name", max_length: int = MAX_NAME, label: str = "Name") -> str:
    """A person's or business's name: 1..max characters, no control characters and no markup."""
    name = " ".join(raw.split())
    if not name:
        raise RuleBroken(f"{label} is required.", field)
    if len(name) > max_length:
        raise RuleBroken(f"{label} must be at most {max_length} characters.", field)
    if unsafe_character(name) is not None or "<" in name or ">" in name:
        raise RuleBroken(f"{label} cannot contain < or > or control characters.", field)
    return name


def clean_instagram_handle(raw: str) -> str:
    handle = raw.strip().removeprefix("@")
    if not HANDLE.match(handle):
        raise RuleBroken(
            "Instagram handles have 1 to 30 letters, numbers, periods and underscores.", "instagramHandle"
        )
    return handle.lower()


def check_password(password: str, field: str = "password") -> str:
    if len(password) < MIN_PASSWORD:
        raise RuleBroken(f"Password must be at least {MIN_PASSWORD} characters long.", field)
    if len(password) > MAX_PASSWORD:
        raise RuleBroken(f"Password must be at most {MAX_PASSWORD} characters long.", field)
    return password


def check_signup_fields(
    role: Role, instagram_handle: str | None, business_name: str | None
) -> tuple[str | None, str | None]:
    """Creators sign up with their Instagram handle; brands may give a business name."""
    if role is Role.INFLUENCER:
        if not instagram_handle or not instagram_handle.strip():
            raise RuleBroken("Instagram handle is required for creators.", "instagramHandle")
        if business_name:
            raise RuleBroken("Only brands sign up with a business name.", "businessName")
        return clean_instagram_handle(instagram_handle), None
    if instagram_handle:
        raise RuleBroken("Brands connect Instagram after signing up, not with a handle.", "instagramHandle")
    if business_name and business_name.strip():
        return None, clean_name(business_name, field="businessName", max_length=MAX_BUSINESS_NAME,
                                label="Business name")
    return None, None
