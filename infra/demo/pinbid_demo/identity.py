"""The demo world's people (the plan: `plan.py`): the demo creator and brand a visitor signs in as,
the other sandbox creators and the brands bidding around them. Registered through the real signup, marked
as demo; an account that exists (or was changed by someone) is left as it is."""

from pinbid_identity.accounts import Accounts, Signup
from pinbid_identity.domain.accounts import Role
from pinbid_identity.models import User
from pinbid_kit.runtime import Service
from sqlalchemy import select

from . import plan as demo

DEMO_ACCOUNTS = [
    *(Signup(name=c.name, email=c.email, password=demo.PASSWORD, role=Role.INFLUENCER, instagram_handle=c.handle)
      for c in demo.CREATORS),
    *(Signup(name=b.name, email=b.email, password=demo.PASSWORD, role=Role.BUYER, business_name=b.business_name)
      for b in demo.BRANDS),
]


async def seed(service: Service) -> int:
    accounts: Accounts = service.state["accounts"]
    async with service.db.transaction() as session:
        existing = set(await session.scalars(select(User.email).where(
            User.email.in_([s.email for s in DEMO_ACCOUNTS]))))

    async def register(signup: Signup) -> int:
        await accounts.register(signup, demo=True)
        return 1

    return await demo.each([s for s in DEMO_ACCOUNTS if s.email not in existing], register)
