"""Social's part of the demo seed connects the demo world's creators and brands through the real OAuth path, once,
with the plan's figures and posts; some creators are verified and some are not."""

import uuid

from pinbid_demo import plan
from pinbid_demo import social as demo
from pinbid_kit.events.identity import UserRegistered
from pinbid_kit.events.social import AccountConnected, MediaSynced


async def test_the_demo_connects_its_creators_and_brands_once(social):
    for c in plan.CREATORS:
        await social.deliver(UserRegistered(user_id=uuid.uuid4(), email=c.email, name=c.name, role="INFLUENCER",
                                            instagram_handle=c.handle))
    for b in plan.BRANDS:
        await social.deliver(UserRegistered(user_id=uuid.uuid4(), email=b.email, name=b.name, role="BUYER",
                                            business_name=b.business_name))
    people = len(plan.CREATORS) + len(plan.BRANDS)
    assert await demo.seed(social.service) == people
    assert await demo.seed(social.service) == 0
    connected = {e["username"]: e["profile"] for e in await social.events(AccountConnected.event_type)}
    assert sorted(connected) == sorted([c.handle for c in plan.CREATORS] + [b.handle for b in plan.BRANDS])
    assert connected["maya.makes"]["followers"] == 48_200 and connected["maya.makes"]["verified"]
    not_verified = {c.handle for c in plan.CREATORS if not connected[c.handle]["verified"]}
    assert not_verified == {"theo.stitches", "mina.bytes", "ada.moves", "sofia.roams"}
    synced = {e["instagramId"]: e for e in await social.events(MediaSynced.event_type)}
    maya_posts = next(e["posts"] for e in synced.values() if e["posts"][0]["caption"] == plan.MAYA.posts[0].caption)
    assert [p["caption"] for p in maya_posts] == [p.caption for p in plan.MAYA.posts]
