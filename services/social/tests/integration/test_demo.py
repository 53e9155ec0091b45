"""The demo seed connects the demo creator and brand through the real OAuth path, once."""

import uuid

from pinbid_kit.events.identity import UserRegistered
from pinbid_kit.events.social import AccountConnected, MediaSynced
from pinbid_social import demo


async def test_the_demo_connects_maya_and_the_brand_once(social):
    await social.deliver(UserRegistered(user_id=uuid.uuid4(), email="creator@demo.pinbid.app", name="Maya Creator",
                                        role="INFLUENCER", instagram_handle="maya.makes"))
    await social.deliver(UserRegistered(user_id=uuid.uuid4(), email="brand@demo.pinbid.app", name="Leo Brand",
                                        role="BUYER", business_name="Northwind Coffee"))
    assert await demo.seed(social.service) == 2
    assert await demo.seed(social.service) == 0
    usernames = sorted(e["username"] for e in await social.events(AccountConnected.event_type))
    assert usernames == ["maya.makes", "northwind.coffee"]
    assert len((await social.events(MediaSynced.event_type))[0]["posts"]) == 6
