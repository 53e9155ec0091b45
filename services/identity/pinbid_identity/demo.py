"""Demo accounts for the embedded default (marked as demo; seeding twice changes nothing)."""

from pinbid_kit.runtime import Service
from sqlalchemy import select

from .accounts import Accounts, Signup
from .domain.accounts import Role
from .models import User

DEMO_PASSWORD = "pinbid-demo"
DEMO_ACCOUNTS = [
    Signup(name="Maya Creator", email="creator@demo.pinbid.app", password=DEMO_PASSWORD, role=Role.INFLUENCER,
           instagram_handle="maya.makes"),
    Signup(name="Leo Brand", email="brand@demo.pinbid.app", password=DEMO_PASSWORD, role=Role.BUYER,
           business_name="Northwind Coffee"),
]


async def seed(service: Service) -> int:
    accounts: Accounts = service.state["accounts"]
    created = 0
    for signup in DEMO_ACCOUNTS:
        async with service.db.transaction() as session:
            exists = await session.scalar(select(User.id).where(User.email == signup.email))
        if exists is None:
            await accounts.register(signup, demo=True)
            created += 1
    return created
